import { startTransition, useCallback, useMemo, useState } from 'react';
import {
  SCORE_CONFLICT_CODE,
  ASSESSMENT_MESSAGES,
  type ScoreConflict,
  type ScoreSheet,
  type ScoreSheetResult,
  type ScoreSheetSave,
} from '@portal/domain/assessment';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { ApiError } from '../../../../lib/api-client';
import { saveFailure } from '../../../../lib/autosave/save-failure';
import { useAutosaveRows } from '../../../../lib/autosave/use-autosave-rows';
import { usePersistentRows } from '../../../../lib/offline';
import { useSaveScoreRows } from '../../score-sheet-api';
import { keepSavedRows, queryOf, savedRowOf, SCORE_KIND, scoreRowSave, scoreScope, scoreSheetKey } from '../../score-offline';
import { cellsOf, readCells, sameAsStored, type Cells } from './grid-model';

/** Autosave waits this long after the last keystroke in a row (leaving the row saves at once). */
export const AUTOSAVE_MS = 2500;

/**
 * The grid's rows on the autosave outbox (lib/autosave): one request per row, 2.5 s after the row's
 * last edit or when focus leaves it; failed rows sent again on their own (backoff, and at once when
 * the browser is back online); a conflict keeps both values until the teacher chooses; leaving with
 * anything unsaved asks first. Typed values are never dropped on failure.
 */
export function useGrid(sheet: ScoreSheet | undefined, reason: string) {
  const [announcement, setAnnouncement] = useState('');
  const [needReason, setNeedReason] = useState(false);
  const mutateAsync = useSaveScoreRows();
  const announce = useCallback((text: string) => startTransition(() => setAnnouncement(text)), []);
  const nameOf = (adm: string) => sheet?.rows.find((r) => r.admission_number === adm)?.name ?? adm;
  const components = sheet?.components ?? [];
  const precision = sheet?.precision ?? 'whole';
  const read = (cells: Cells) => readCells(components, precision, cells);

  const loaded = useMemo(
    () => sheet?.rows.map((r) => ({ key: r.admission_number, value: cellsOf(sheet.components, r.result), base: r.result })),
    [sheet],
  );
  // Rows typed and not stored are kept on this phone (lib/offline): a reload, the browser closed,
  // and they come back and are sent, each with the version it was made on.
  const persistent = usePersistentRows<Cells, ScoreSheetResult | null>({
    scope: sheet ? scoreScope({ session_id: sheet.session.id, term: sheet.term as ScoreSheetSave['term'] }) : null,
    kind: SCORE_KIND,
    sheet: sheet ? scoreSheetKey(sheet) : '',
    send: async (adm, cells, base) => {
      const s = sheet!;
      const res = await mutateAsync(scoreRowSave(s, [{ key: adm, value: cells, base }], reason.trim() || undefined));
      const stored = savedRowOf(res, adm);
      // The kept copy follows what is stored: a reload offline starts from these versions.
      void keepSavedRows(queryOf(s), new Map([[adm, stored]]));
      return stored;
    },
    // The queue back online: one request for every row waiting (the server writes them in one transaction).
    sendMany: async (rows) => {
      const s = sheet!;
      const res = await mutateAsync(scoreRowSave(s, rows, reason.trim() || undefined));
      const stored = new Map(rows.map((r) => [r.key, savedRowOf(res, r.key)]));
      void keepSavedRows(queryOf(s), stored);
      return stored;
    },
  });
  const outbox = useAutosaveRows<Cells, ScoreSheetResult | null>({
    rows: loaded,
    debounceMs: AUTOSAVE_MS,
    rules: {
      // An invalid cell is never sent: the row waits, its message shown beside it.
      valid: (cells) => !!sheet?.may_write && Object.keys(read(cells).problems).length === 0,
      unchanged: (cells, base) => sameAsStored(components, read(cells).values, base),
      stored: (base) => base !== null,
      version: (base) => base?.version ?? 0,
      refusal: () => {
        if (!sheet?.released || reason.trim()) return null;
        setNeedReason(true);
        return RESULT_MESSAGES.reasonRequired;
      },
      failure: (err) => {
        if (err instanceof ApiError && err.fieldErrors.reason) setNeedReason(true);
        return saveFailure(err, {
          conflictCode: SCORE_CONFLICT_CODE,
          theirs: (body) => (body as ScoreConflict).current,
          fallback: ASSESSMENT_MESSAGES.gridFailed,
        });
      },
    },
    send: persistent.send,
    maxInFlight: persistent.maxInFlight,
    store: persistent.store,
    restore: persistent.restore,
    onSaved: (adm) => announce(`${nameOf(adm)}: ${ASSESSMENT_MESSAGES.gridSaved}`),
    onFailed: (adm, f) => {
      // Said once: the automatic retries of an offline row are not announced again and again.
      if (f.kind !== 'conflict' && (outbox.rowOf(adm)?.attempts ?? 1) > 1) return;
      announce(
        f.kind === 'conflict'
          ? ASSESSMENT_MESSAGES.rowConflict(nameOf(adm))
          : `${nameOf(adm)}: ${ASSESSMENT_MESSAGES.gridFailed}. ${f.message}`,
      );
    },
  });

  const { edit: editRow, saveNow, saveAll, rebase, rowOf, rows } = outbox;
  const edit = useCallback((adm: string, cells: Cells) => editRow(adm, (v) => ({ ...v, ...cells })), [editRow]);
  const keepMine = useCallback(
    (adm: string) => {
      const r = rowOf(adm);
      if (r?.status === 'conflict') rebase(adm, r.theirs ?? null);
    },
    [rowOf, rebase],
  );
  const comps = sheet?.components;
  const takeTheirs = useCallback(
    (adm: string) => {
      const r = rowOf(adm);
      if (r?.status !== 'conflict' || !comps) return;
      const theirs = r.theirs ?? null;
      rebase(adm, theirs, cellsOf(comps, theirs), false);
      setAnnouncement(`${nameOf(adm)}: ${ASSESSMENT_MESSAGES.gridSaved}`);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- nameOf reads the sheet, as comps does
    [rowOf, rebase, comps],
  );

  return {
    rows,
    edit,
    saveRow: saveNow,
    keepMine,
    takeTheirs,
    saveAll,
    unsaved: outbox.unsaved,
    failed: outbox.failed,
    online: outbox.online,
    guard: outbox.guard,
    announcement,
    setAnnouncement,
    needReason,
  };
}
