import { hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import type { SchoolSettings } from '@portal/domain/settings-constants';
import { setSchoolTimeZone } from './datetime';
import { settingsKey } from './school-settings';

/** The id of the script element in which the server hands a page it rendered its data (src/ssr/render-page.tsx). */
export const SERVER_STATE_ID = 'portal-state';

export interface ServerState {
  /** The page it was rendered for. */
  path: string;
  queries: DehydratedState;
}

/**
 * When the server rendered this page, puts the data it rendered with into the app's cache, so the
 * app's first render shows the same page instead of a loading state. Returns whether it did.
 */
export function adoptServerState(qc: QueryClient): boolean {
  const el = document.getElementById(SERVER_STATE_ID);
  if (!el?.textContent) return false;
  el.remove();
  let state: ServerState;
  try {
    state = JSON.parse(el.textContent) as ServerState;
  } catch {
    return false;
  }
  if (state.path !== window.location.pathname || !Array.isArray(state.queries?.queries)) return false;
  hydrate(qc, state.queries);
  setSchoolTimeZone(qc.getQueryData<SchoolSettings>(settingsKey)?.time_zone);
  return true;
}

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
const isField = (el: Element): el is Field =>
  el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;

/**
 * What the user did on a page the server rendered before the app replaced it (the app starts when
 * the browser is idle or at the first interaction, docs/decisions/049): the named fields they
 * changed and the one they were in. Returns a function that gives them back to the app's page once
 * it is rendered, through the fields' own input and change events, so the app's state takes them.
 */
export function keepTypedFields(root: HTMLElement): () => void {
  const changed = new Map<string, string>();
  for (const el of root.querySelectorAll('input[name], select[name], textarea[name]')) {
    if (!isField(el) || el.type === 'hidden' || ('readOnly' in el && el.readOnly) || el.disabled) continue;
    const initial =
      el instanceof HTMLSelectElement
        ? ([...el.options].find((o) => o.defaultSelected)?.value ?? el.options[0]?.value ?? '')
        : el.defaultValue;
    if (el.value !== initial) changed.set(el.name, el.value);
  }
  const active = document.activeElement;
  const focused = active && root.contains(active) && isField(active) ? active.name : null;
  return () => {
    for (const [name, value] of changed) {
      const el = root.querySelector(`[name="${CSS.escape(name)}"]`);
      if (!el || !isField(el) || el.value === value) continue;
      // React tracks the value it set: the prototype's setter makes the change its own events report.
      const proto = Object.getPrototypeOf(el) as object;
      Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
      el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
    }
    if (focused) root.querySelector<HTMLElement>(`[name="${CSS.escape(focused)}"]`)?.focus();
  };
}
