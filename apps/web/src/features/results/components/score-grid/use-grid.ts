import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  SCORE_CONFLICT_CODE,
  ASSESSMENT_MESSAGES,
  type ScoreConflict,
  type ScoreSheet,
  type ScoreSheetSave,
} from '@portal/domain/assessment';
import { RESULT_MESSAGES } from '@portal/domain/results';
import { GENERAL_MESSAGES } from '@portal/domain/http';
import { ApiError } from '../../../../lib/api-client';
import { errorCode, firstServerMessage } from '../../../../lib/errors';
import { useSaveOnLeave } from '../../../../lib/use-save-on-leave';
import { useSaveScoreRows } from '../../score-sheet-api';
import { cellsOf, freshRow, parseRow, sameAsStored, type RowState } from './grid-model';

/** Autosave waits this long after the last keystroke in a row (leaving the row saves at once). */
export const AUTOSAVE_MS = 2500;

const DIRTY = new Set(['unsaved', 'saving', 'failed', 'conflict']);

/**
 * The grid's state and its saves: one request per row, 2.5 s after the row's last edit or when
 * focus leaves it; a save answered after a newer edit leaves the row unsaved and saves again; a
 * conflict keeps both values until the teacher chooses. Typed values are never dropped on failure.
 */
export function useGrid(sheet: ScoreSheet | undefined, reason: string) {
  const [rows, setRows] = useState<Record<string, RowState>>({});
  const [announcement, setAnnouncement] = useState('');
  const [needReason, setNeedReason] = useState(false);
  // The rows live in the ref first (timers and handlers read them between renders); state renders them.
  const ref = useRef({ rows, sheet, reason });
  useLayoutEffect(() => {
    ref.current.sheet = sheet;
    ref.current.reason = reason;
  }, [sheet, reason]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const inflight = useRef(new Set<string>());
  const again = useRef(new Set<string>());
  const mutateAsync = useSaveScoreRows();

  // A (re)loaded sheet replaces the rows that hold nothing unsaved; unsaved edits stay as typed.
  useEffect(() => {
    if (!sheet) return;
    const prev = ref.current.rows;
    const next: Record<string, RowState> = {};
    for (const r of sheet.rows) {
      const cur = prev[r.admission_number];
      next[r.admission_number] = cur && DIRTY.has(cur.status) ? cur : freshRow(sheet.components, r);
    }
    ref.current.rows = next;
    ref.current.sheet = sheet;
    setRows(next);
  }, [sheet]);

  /**
   * Changes one row. Typing and the teacher's choices render at once; a save's progress
   * (saving, saved, failed) renders as a transition, after the keystroke that caused it has painted.
   */
  const patch = useCallback((adm: string, f: (r: RowState) => RowState, urgent = true) => {
    const prev = ref.current.rows;
    const cur = prev[adm];
    if (!cur) return;
    const next = { ...prev, [adm]: f(cur) };
    ref.current.rows = next;
    if (urgent) setRows(next);
    else startTransition(() => setRows(next));
  }, []);
  const announce = useCallback((text: string) => startTransition(() => setAnnouncement(text)), []);

  const nameOf = (adm: string) => ref.current.sheet?.rows.find((r) => r.admission_number === adm)?.name ?? adm;

  const saveRow = useCallback(
    async (adm: string): Promise<void> => {
      const t = timers.current.get(adm);
      if (t) clearTimeout(t);
      timers.current.delete(adm);
      const { sheet: s, reason: why } = ref.current;
      const r = ref.current.rows[adm];
      if (!s || !r || !s.may_write || (r.status !== 'unsaved' && r.status !== 'failed')) return;
      if (inflight.current.has(adm)) {
        again.current.add(adm);
        return;
      }
      const parsed = parseRow(s.components, s.precision, r);
      // An invalid cell is never sent: the row waits, its message shown beside it.
      if (Object.keys(parsed.problems).length) return;
      if (sameAsStored(s.components, parsed.values, r.base)) {
        patch(adm, (x) => (x.seq === r.seq ? { ...x, status: r.base ? 'saved' : 'idle', message: null } : x), false);
        return;
      }
      if (s.released && !why.trim()) {
        setNeedReason(true);
        patch(adm, (x) => ({ ...x, status: 'failed', message: RESULT_MESSAGES.reasonRequired }), false);
        return;
      }
      const seq = r.seq;
      inflight.current.add(adm);
      patch(adm, (x) => ({ ...x, status: 'saving', message: null }), false);
      try {
        const res = await mutateAsync({
          session_id: s.session.id,
          term: s.term as ScoreSheetSave['term'],
          student_class: s.student_class,
          subject: s.subject,
          rows: [{ admission_number: adm, components: parsed.values, version: r.base?.version ?? 0 }],
          ...(why.trim() ? { reason: why.trim() } : {}),
        });
        const stored = res.rows.find((x) => x.admission_number === adm)?.result ?? null;
        patch(adm, (x) => ({ ...x, base: stored, status: x.seq === seq ? 'saved' : 'unsaved', message: null }), false);
        announce(`${nameOf(adm)}: ${ASSESSMENT_MESSAGES.gridSaved}`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 409 && errorCode(err) === SCORE_CONFLICT_CODE) {
          const body = err.data as ScoreConflict;
          patch(adm, (x) => ({ ...x, status: 'conflict', theirs: body.current, message: null }), false);
          announce(ASSESSMENT_MESSAGES.rowConflict(nameOf(adm)));
        } else {
          if (err instanceof ApiError && err.fieldErrors.reason) setNeedReason(true);
          const message =
            err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout')
              ? GENERAL_MESSAGES.networkError
              : (firstServerMessage(err) ?? ASSESSMENT_MESSAGES.gridFailed);
          patch(adm, (x) => ({ ...x, status: 'failed', message }), false);
          announce(`${nameOf(adm)}: ${ASSESSMENT_MESSAGES.gridFailed}. ${message}`);
        }
      } finally {
        inflight.current.delete(adm);
        if (again.current.delete(adm)) void saveRow(adm);
      }
    },
    [mutateAsync, patch, announce],
  );

  const schedule = useCallback(
    (adm: string) => {
      const t = timers.current.get(adm);
      if (t) clearTimeout(t);
      timers.current.set(
        adm,
        setTimeout(() => void saveRow(adm), AUTOSAVE_MS),
      );
    },
    [saveRow],
  );

  const edit = useCallback(
    (adm: string, cells: Record<string, string>) => {
      patch(adm, (x) => ({
        ...x,
        cells: { ...x.cells, ...cells },
        seq: x.seq + 1,
        // A row in conflict stays so until the teacher chooses; the edit becomes "mine".
        status: x.status === 'conflict' ? 'conflict' : 'unsaved',
      }));
      schedule(adm);
    },
    [patch, schedule],
  );

  const keepMine = useCallback(
    (adm: string) => {
      patch(adm, (x) => ({ ...x, base: x.theirs ?? null, theirs: undefined, status: 'unsaved' }));
      void saveRow(adm);
    },
    [patch, saveRow],
  );

  const takeTheirs = useCallback(
    (adm: string) => {
      const s = ref.current.sheet;
      if (!s) return;
      patch(adm, (x) => ({
        ...x,
        base: x.theirs ?? null,
        cells: cellsOf(s.components, x.theirs ?? null),
        theirs: undefined,
        status: x.theirs ? 'saved' : 'idle',
        seq: x.seq + 1,
      }));
      setAnnouncement(`${nameOf(adm)}: ${ASSESSMENT_MESSAGES.gridSaved}`);
    },
    [patch],
  );

  const saveAll = useCallback(() => {
    for (const [adm, r] of Object.entries(ref.current.rows)) if (r.status === 'unsaved' || r.status === 'failed') void saveRow(adm);
  }, [saveRow]);

  const unsaved = useMemo(() => Object.values(rows).filter((r) => DIRTY.has(r.status)).length, [rows]);

  useSaveOnLeave(saveRow, timers, unsaved);

  return { rows, edit, saveRow, keepMine, takeTheirs, saveAll, unsaved, announcement, setAnnouncement, needReason };
}
