/**
 * Words of the entry sheets' autosave, shared by the score grid, the ratings and comments sheets
 * and the register: a failed row that is sent again on its own, and the question asked before leaving
 * with anything unsaved (offline, each sheet shows the kept-copy banner of lib/offline-query).
 */
const rows = (n: number) => (n === 1 ? '1 row is' : `${n} rows are`);

export const AUTOSAVE_MESSAGES = {
  /** Beside a failed row that is sent again on its own. */
  autoRetry: 'It is sent again on its own when the network is back.',
  leaveTitle: 'Leave without saving?',
  leaveSaving: (n: number) => `Saving ${n === 1 ? '1 row' : `${n} rows`} before you leave…`,
  leaveNotSaved: (n: number) => `${rows(n)} not saved. If you leave now, what you entered there is lost.`,
  stay: 'Stay on this page',
  leave: 'Leave anyway',
} as const;
