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
