import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { CARD_CODES } from '@portal/domain/report-cards';
import { REPORT_SHEET_MESSAGES } from '@portal/domain/report-sheet-screens';
import { GENERAL_MESSAGES } from '@portal/domain/http';
import { ApiError } from '../../lib/api-client';
import { errorCode, firstServerMessage } from '../../lib/errors';
import { useSaveOnLeave } from '../../lib/use-save-on-leave';
import { DIRTY, freshRow, mergeReloaded, type Cells, type RowState } from './sheet-model';

/** Autosave waits this long after the last keystroke in a row (leaving the row saves at once). */
export const AUTOSAVE_MS = 2500;

/** A stored row of the sheet, as cell text. */
export interface StoredRow {
  admission_number: string;
  name: string;
  cells: Cells;
  version: number;
}

export interface SheetRowsConfig {
  /** The sheet's rows as loaded; a new array replaces the rows holding nothing unsaved. */
  rows: readonly StoredRow[] | undefined;
  editable: boolean;
  /** The cells' problems (an invalid row is never sent). */
  problems: (cells: Cells) => Cells;
  /** Sends one row; answers the stored row (cells and version). Throws the API's error. */
  save: (adm: string, row: RowState) => Promise<{ cells: Cells; version: number }>;
}

/**
 * The rows of a report sheet and their saves, the score grid's rule: one request per row, 2.5 s
 * after the row's last edit or when focus leaves it, with the version read; a save answered after a
 * newer edit leaves the row unsaved and saves again; a 409 keeps what was typed and says why.
 * Typed values are never dropped on failure.
 */
export function useSheetRows(config: SheetRowsConfig) {
  const [rows, setRows] = useState<Record<string, RowState>>({});
  const [announcement, setAnnouncement] = useState('');
  const ref = useRef({ rows, config });
  useLayoutEffect(() => {
    ref.current.config = config;
  });
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const inflight = useRef(new Set<string>());
  const again = useRef(new Set<string>());

  // A (re)loaded sheet replaces the rows that hold nothing unsaved; a row in conflict is merged
  // with the stored one (reloading is how the conflict is settled).
  const loaded = config.rows;
  useEffect(() => {
    if (!loaded) return;
    const prev = ref.current.rows;
    const next: Record<string, RowState> = {};
    for (const r of loaded) {
      const cur = prev[r.admission_number];
      if (cur?.status === 'conflict') next[r.admission_number] = mergeReloaded(cur, r.cells, r.version);
      else next[r.admission_number] = cur && DIRTY.has(cur.status) ? cur : freshRow(r.cells, r.version);
    }
    ref.current.rows = next;
    setRows(next);
  }, [loaded]);

  /** Changes one row: typing renders at once, a save's progress as a transition. */
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
  const nameOf = (adm: string) => ref.current.config.rows?.find((r) => r.admission_number === adm)?.name ?? adm;

  const saveRow = useCallback(
    async (adm: string): Promise<void> => {
      const t = timers.current.get(adm);
      if (t) clearTimeout(t);
      timers.current.delete(adm);
      const { config: c } = ref.current;
      const r = ref.current.rows[adm];
      if (!c.editable || !r || (r.status !== 'unsaved' && r.status !== 'failed')) return;
      if (inflight.current.has(adm)) {
        again.current.add(adm);
        return;
      }
      if (Object.keys(c.problems(r.cells)).length) return;
      if (Object.keys(r.cells).every((k) => (r.cells[k] ?? '').trim() === (r.base[k] ?? '').trim())) {
        patch(adm, (x) => (x.seq === r.seq ? { ...x, status: r.version ? 'saved' : 'idle', message: null } : x), false);
        return;
      }
      const seq = r.seq;
      inflight.current.add(adm);
      patch(adm, (x) => ({ ...x, status: 'saving', message: null }), false);
      try {
        const stored = await c.save(adm, r);
        patch(
          adm,
          (x) => ({
            ...x,
            base: stored.cells,
            version: stored.version,
            // The stored text (trimmed by the server) replaces what was typed unless typing went on.
            cells: x.seq === seq ? stored.cells : x.cells,
            status: x.seq === seq ? 'saved' : 'unsaved',
            message: null,
          }),
          false,
        );
        announce(`${nameOf(adm)}: ${REPORT_SHEET_MESSAGES.saved}`);
      } catch (err) {
        const conflict = err instanceof ApiError && err.status === 409 && errorCode(err) === CARD_CODES.changed;
        const message =
          err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout')
            ? GENERAL_MESSAGES.networkError
            : (firstServerMessage(err) ?? REPORT_SHEET_MESSAGES.saveFailed);
        patch(adm, (x) => ({ ...x, status: conflict ? 'conflict' : 'failed', message }), false);
        announce(`${nameOf(adm)}: ${REPORT_SHEET_MESSAGES.failed}. ${message}`);
      } finally {
        inflight.current.delete(adm);
        if (again.current.delete(adm)) void saveRow(adm);
      }
    },
    [patch, announce],
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
    (adm: string, cells: Cells) => {
      patch(adm, (x) => ({
        ...x,
        cells: { ...x.cells, ...cells },
        seq: x.seq + 1,
        // A row in conflict stays so until the sheet is reloaded.
        status: x.status === 'conflict' ? 'conflict' : 'unsaved',
      }));
      schedule(adm);
    },
    [patch, schedule],
  );

  const saveAll = useCallback(() => {
    for (const [adm, r] of Object.entries(ref.current.rows)) if (r.status === 'unsaved' || r.status === 'failed') void saveRow(adm);
  }, [saveRow]);

  const unsaved = useMemo(() => Object.values(rows).filter((r) => DIRTY.has(r.status)).length, [rows]);

  useSaveOnLeave(saveRow, timers, unsaved);

  return { rows, edit, saveRow, saveAll, unsaved, announcement, setAnnouncement };
}

export type SheetRows = ReturnType<typeof useSheetRows>;
