import { FEE_MESSAGES, feeItemKey } from '@portal/domain/fees';
import type { FeeItemsBulkBody } from './api';

/**
 * The "Set fee items" form as its form hook holds it: strings only. The classes it applies to (`group`,
 * and `chosen`, one class a line), then each item line's fields under the line's own key (`name-3`,
 * `amount-3`, `due-3`, `optional-3`: 'yes' or ''), `lines` listing the keys in screen order. A line
 * keeps its key while lines above it are removed, so its typing and its message stay with it.
 */
export type FeeItemsForm = Record<string, string> & { group: string; chosen: string; lines: string };

export type Group = 'jss' | 'sss' | 'all' | 'chosen';

/** One item line as the screen shows it. */
export interface Line {
  key: number;
  name: string;
  amount: string;
  compulsory: boolean;
  /** YYYY-MM-DD, or '' for "when the term begins". */
  dueOn: string;
}

const FIELDS = { name: 'name', amount: 'amount', dueOn: 'due', optional: 'optional' } as const;
/** The form key of a line's field. */
export const lineField = (part: keyof typeof FIELDS, key: number) => `${FIELDS[part]}-${key}`;

let lineSeq = 0;
function blankLine(name = ''): [number, Record<string, string>] {
  const key = ++lineSeq;
  return [
    key,
    { [lineField('name', key)]: name, [lineField('amount', key)]: '', [lineField('dueOn', key)]: '', [lineField('optional', key)]: '' },
  ];
}

const keysOf = (f: FeeItemsForm) => (f.lines ? f.lines.split(',').map(Number) : []);
export const chosenOf = (f: FeeItemsForm) => (f.chosen ? f.chosen.split('\n') : []);

export function linesOf(f: FeeItemsForm): Line[] {
  return keysOf(f).map((key) => ({
    key,
    name: f[lineField('name', key)] ?? '',
    amount: f[lineField('amount', key)] ?? '',
    compulsory: !f[lineField('optional', key)],
    dueOn: f[lineField('dueOn', key)] ?? '',
  }));
}

/** A new form: every JSS class, one line named `firstName`. */
export function newFeeItemsForm(firstName = ''): FeeItemsForm {
  const [key, fields] = blankLine(firstName);
  return { group: 'jss', chosen: '', lines: String(key), ...fields };
}

/** The same form with its lines replaced by `keys` (a new blank line for `null`); the classes stay. */
function withLines(f: FeeItemsForm, keys: (number | null)[]): FeeItemsForm {
  const next: FeeItemsForm = { group: f.group, chosen: f.chosen, lines: '' };
  const kept: number[] = [];
  for (const key of keys) {
    if (key === null) {
      const [k, fields] = blankLine();
      Object.assign(next, fields);
      kept.push(k);
    } else {
      for (const part of Object.keys(FIELDS) as (keyof typeof FIELDS)[]) next[lineField(part, key)] = f[lineField(part, key)] ?? '';
      kept.push(key);
    }
  }
  next.lines = kept.join(',');
  return next;
}

export const addLine = (f: FeeItemsForm) => withLines(f, [...keysOf(f), null]);
export const removeLine = (f: FeeItemsForm, key: number) =>
  withLines(
    f,
    keysOf(f).filter((k) => k !== key),
  );
/** After a save: the classes stay, one blank line. */
export const clearLines = (f: FeeItemsForm) => withLines(f, [null]);

/** The classes a group names, among the school's current (not retired) arms. */
export function classesOf(group: string, chosen: string[], current: readonly string[]): string[] {
  if (group === 'jss') return current.filter((c) => c.startsWith('JSS'));
  if (group === 'sss') return current.filter((c) => c.startsWith('SSS'));
  if (group === 'all') return [...current];
  return chosen;
}

/** What is sent (the domain's `feeItemsBulkSchema` checks it): an empty due date keeps an existing item's own. */
export function feeItemsBody(
  f: FeeItemsForm,
  at: { sessionId: number | null; term: string; current: readonly string[] },
): FeeItemsBulkBody {
  return {
    session_id: at.sessionId as number,
    term: at.term,
    classes: classesOf(f.group, chosenOf(f), at.current),
    items: linesOf(f).map((l) => ({
      name: l.name.trim(),
      amount: l.amount,
      compulsory: l.compulsory,
      ...(l.dueOn ? { due_on: l.dueOn } : {}),
    })),
  };
}

/** The form key a message of the schema's path belongs under: `items.2.amount` is the third line's amount. */
export function feeItemsFieldOf(path: string, f: FeeItemsForm): string {
  const [top, index, part] = path.split('.');
  if (top === 'classes') return 'classes';
  const key = keysOf(f)[Number(index)];
  if (top !== 'items' || key === undefined) return path;
  return part === 'amount' ? lineField('amount', key) : part === 'due_on' ? lineField('dueOn', key) : lineField('name', key);
}

/**
 * A name listed twice, said under the later line. The schema says it too, but only once the rest of the
 * body passes; the form says it with the other messages, as it always has.
 */
export function duplicateNames(f: FeeItemsForm): Record<string, string[]> {
  const seen = new Set<string>();
  const out: Record<string, string[]> = {};
  for (const l of linesOf(f)) {
    const k = feeItemKey(l.name);
    if (k && seen.has(k)) out[lineField('name', l.key)] = [FEE_MESSAGES.duplicateInList];
    seen.add(k);
  }
  return out;
}
