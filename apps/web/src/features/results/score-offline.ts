import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ScoreSheet, ScoreSheetQuery, ScoreSheetResult, ScoreSheetSave, ScoreSheetSaveResult } from '@portal/domain/assessment';
import { api, ApiError } from '../../lib/api-client';
import { getSession, useSession } from '../../lib/auth-store';
import { useCurrentTerm } from '../../lib/current-term';
import { myClassesQuery, useMyClasses } from '../../lib/my-classes';
import { isOffline, registerOutboxSender, scopeOf, sheetCache, type OfflineScope, type OutboxRecord } from '../../lib/offline';
import { readCells, type Cells } from './components/score-grid/grid-model';

/**
 * The score grid offline (issue 35, decision 044): each sheet opened online is kept on this phone
 * with its versions (the teacher's own arm-subjects of the current term are fetched ahead, from the
 * home screen); offline, or when the request finds no network, the kept copy is shown with the time
 * it was fetched. Rows saved update the copy, so a reload offline starts from the versions stored.
 */
export const SCORE_KIND = 'score';

/** A sheet's id inside its user-and-term partition. */
export const scoreSheetKey = (q: Pick<ScoreSheetQuery, 'student_class' | 'subject'>) => `${q.student_class}|${q.subject}`;

export function scoreScope(q: Pick<ScoreSheetQuery, 'session_id' | 'term'>): OfflineScope | null {
  const session = getSession();
  return session ? scopeOf(session, q.session_id, q.term) : null;
}

/** When each sheet shown was fetched, and which came from the kept copy while the browser says online. */
const fetchedAt = new WeakMap<ScoreSheet, number>();
const fromCopy = new WeakSet<ScoreSheet>();
export const sheetFetchedAt = (sheet: ScoreSheet): number | null => fetchedAt.get(sheet) ?? null;
export const sheetFromCopy = (sheet: ScoreSheet): boolean => fromCopy.has(sheet);

const noNetwork = (err: unknown) => err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout');

async function kept(scope: OfflineScope, q: ScoreSheetQuery): Promise<ScoreSheet | null> {
  const copy = await sheetCache.get<ScoreSheet>(scope, SCORE_KIND, scoreSheetKey(q));
  if (!copy) return null;
  fetchedAt.set(copy.data, copy.fetchedAt);
  return copy.data;
}

/** The sheet from the server (kept for later), or offline from the copy kept on this phone. */
export async function loadScoreSheet(q: ScoreSheetQuery, fetch: () => Promise<ScoreSheet>): Promise<ScoreSheet> {
  const scope = scoreScope(q);
  if (scope && isOffline()) {
    const copy = await kept(scope, q);
    if (copy) return copy;
  }
  try {
    const sheet = await fetch();
    const at = Date.now();
    fetchedAt.set(sheet, at);
    if (scope) await sheetCache.put(scope, SCORE_KIND, scoreSheetKey(q), sheet, at);
    return sheet;
  } catch (err) {
    if (scope && noNetwork(err)) {
      const copy = await kept(scope, q);
      if (copy) {
        fromCopy.add(copy);
        return copy;
      }
    }
    throw err;
  }
}

// Saved rows go into the kept copy one after another (four saves answer at once).
let copyWrites: Promise<void> = Promise.resolve();

/** The query of a sheet. */
export const queryOf = (s: Pick<ScoreSheet, 'session' | 'term' | 'student_class' | 'subject'>): ScoreSheetQuery => ({
  session_id: s.session.id,
  term: s.term as ScoreSheetQuery['term'],
  student_class: s.student_class,
  subject: s.subject,
});

/** Rows stored by the server: the kept copy takes their results and versions. */
export function keepSavedRows(q: ScoreSheetQuery, stored: ReadonlyMap<string, ScoreSheetResult | null>): Promise<void> {
  const scope = scoreScope(q);
  if (!scope) return Promise.resolve();
  copyWrites = copyWrites.then(async () => {
    const copy = await sheetCache.get<ScoreSheet>(scope, SCORE_KIND, scoreSheetKey(q));
    if (!copy) return;
    const rows = copy.data.rows.map((r) => (stored.has(r.admission_number) ? { ...r, result: stored.get(r.admission_number)! } : r));
    await sheetCache.put(scope, SCORE_KIND, scoreSheetKey(q), { ...copy.data, rows }, copy.fetchedAt);
  });
  return copyWrites;
}

/** The PUT of grid rows, each with the version it was made on. */
export function scoreRowSave(
  sheet: Pick<ScoreSheet, 'session' | 'term' | 'student_class' | 'subject' | 'components' | 'precision'>,
  rows: readonly { key: string; value: Cells; base: ScoreSheetResult | null }[],
  reason?: string,
): ScoreSheetSave {
  return {
    ...queryOf(sheet),
    rows: rows.map((r) => ({
      admission_number: r.key,
      components: readCells(sheet.components, sheet.precision, r.value).values,
      version: r.base?.version ?? 0,
    })),
    ...(reason ? { reason } : {}),
  };
}

/** The answer's row. */
export const savedRowOf = (out: ScoreSheetSaveResult, admission: string) =>
  out.rows.find((x) => x.admission_number === admission)?.result ?? null;

/**
 * A queued grid row sent with its sheet closed (flushOutbox: sign-out, the badge): the kept copy
 * gives the sheet's components. A released sheet's reason is not kept: such a row is refused and
 * waits for its sheet to be opened.
 */
registerOutboxSender(SCORE_KIND, async (rec: OutboxRecord) => {
  const [sessionId, term] = rec.term.split(':');
  const [arm, subject] = rec.sheet.split('|');
  const q: ScoreSheetQuery = {
    session_id: Number(sessionId),
    term: term as ScoreSheetQuery['term'],
    student_class: arm!,
    subject: subject!,
  };
  const scope = { user: rec.user, term: rec.term };
  const copy = await sheetCache.get<ScoreSheet>(scope, SCORE_KIND, rec.sheet);
  if (!copy) throw new Error('No kept copy of the sheet');
  const out = await api.put<ScoreSheetSaveResult>(
    '/score-sheet/',
    scoreRowSave(copy.data, [{ key: rec.row, value: rec.value as Cells, base: rec.base as ScoreSheetResult | null }]),
    { timeout: 15_000 },
  );
  const stored = savedRowOf(out, rec.row);
  await keepSavedRows(q, new Map([[rec.row, stored]]));
  return stored;
});

/**
 * At start, back online and after sign-in (app/offline-keeping.ts), with no screen open: the current
 * term's sheets of the teacher's own arm-subjects are fetched one after another and kept, so the grid
 * opens offline on a phone that never opened it online. Importing this module also gives queued grid
 * rows their sender (above), so sign-out's "send first" and the badge send them with no grid open.
 */
export async function keepOwnSheetsOffline(
  qc: QueryClient,
  current: { session_id: number | null; term: string | null },
  fetchSheet: (q: ScoreSheetQuery) => Promise<unknown>,
): Promise<void> {
  if (!current.session_id || !current.term) return;
  const mine = await qc.fetchQuery(myClassesQuery(''));
  if (mine.session?.id !== current.session_id) return;
  for (const p of mine.subjects) {
    if (isOffline()) return;
    const q: ScoreSheetQuery = {
      session_id: current.session_id,
      term: current.term as ScoreSheetQuery['term'],
      student_class: p.class_name,
      subject: p.subject,
    };
    await fetchSheet(q).catch(() => undefined);
  }
}

/**
 * On the teacher's home (and when the grid opens): the current term's sheets of their own
 * arm-subjects are fetched, one after another, and kept, so they open offline later.
 */
export function useKeepOwnSheets(fetchSheet: (q: ScoreSheetQuery) => Promise<unknown>): void {
  const session = useSession();
  const staff = session?.role === 'staff';
  const current = useCurrentTerm(staff);
  const mine = useMyClasses('', staff);
  const sessionId = current.data?.session_id ?? null;
  const term = current.data?.term ?? null;
  const pairs = mine.data?.session?.id === sessionId ? mine.data?.subjects : undefined;
  useEffect(() => {
    if (!sessionId || !term || !pairs?.length || isOffline()) return;
    let live = true;
    void (async () => {
      for (const p of pairs) {
        if (!live || isOffline()) return;
        await fetchSheet({ session_id: sessionId, term, student_class: p.class_name, subject: p.subject }).catch(() => undefined);
      }
    })();
    return () => {
      live = false;
    };
  }, [sessionId, term, pairs, fetchSheet]);
}
