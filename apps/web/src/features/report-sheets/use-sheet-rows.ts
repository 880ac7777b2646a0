import { startTransition, useCallback, useMemo, useState } from 'react';
import { CARD_CODES } from '@portal/domain/report-card-rules';
import { REPORT_SHEET_MESSAGES } from '@portal/domain/report-sheet-screens';
import { saveFailure } from '../../lib/autosave/save-failure';
import { useAutosaveRows } from '../../lib/autosave/use-autosave-rows';
import { usePersistentRows, type OfflineScope } from '../../lib/offline';
import { mergeReloaded, sameCells, type Cells, type StoredCells } from './sheet-model';

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
  /** Sends one row made on `stored`; answers the row as stored now. Throws the API's error. */
  save: (adm: string, cells: Cells, stored: StoredCells) => Promise<StoredCells>;
  /**
   * Where the unsent rows are kept on this phone (the offline core, decision 044): the partition
   * (null: nobody signed in, the rows live in memory only), the sheet's kind and its name there.
   */
  offline: { scope: OfflineScope | null; kind: string; sheet: string };
}

/**
 * The rows of a report sheet on the autosave outbox (lib/autosave), the score grid's rules: one
 * request per row, 2.5 s after the row's last edit or when focus leaves it, with the version read;
 * failed rows sent again on their own (backoff, and at once back online); a 409 keeps what was
 * typed and says why, and Reload merges it with the stored row; leaving with anything unsaved asks.
 * Unsent rows are kept on this phone (`usePersistentRows`): a reload or a closed browser restores
 * them on the version they were made on, and they are sent once (the sheet's row lock).
 */
export function useSheetRows(config: SheetRowsConfig) {
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((text: string) => startTransition(() => setAnnouncement(text)), []);
  const nameOf = (adm: string) => config.rows?.find((r) => r.admission_number === adm)?.name ?? adm;
  const loaded = useMemo(
    () => config.rows?.map((r) => ({ key: r.admission_number, value: r.cells, base: { cells: r.cells, version: r.version } })),
    [config.rows],
  );
  const kept = usePersistentRows<Cells, StoredCells>({
    ...config.offline,
    send: (adm, cells, base) => config.save(adm, cells, base),
  });
  const outbox = useAutosaveRows<Cells, StoredCells>({
    rows: loaded,
    store: kept.store,
    restore: kept.restore,
    debounceMs: AUTOSAVE_MS,
    rules: {
      valid: (cells) => config.editable && Object.keys(config.problems(cells)).length === 0,
      unchanged: (cells, base) => sameCells(cells, base.cells),
      stored: (base) => base.version > 0,
      version: (base) => base.version,
      failure: (err) => saveFailure(err, { conflictCode: CARD_CODES.changed, fallback: REPORT_SHEET_MESSAGES.saveFailed }),
      // The stored text (trimmed by the server) replaces what was typed unless typing went on.
      afterSave: (cells, stored, newer) => (newer ? cells : stored.cells),
      // Reloading is how a conflict is settled: the teacher's changed cells over the stored row, sent when they say.
      reloaded: (row, stored) => ({ value: mergeReloaded(row, stored.cells), base: stored, queue: false }),
    },
    send: kept.send,
    onSaved: (adm) => announce(`${nameOf(adm)}: ${REPORT_SHEET_MESSAGES.saved}`),
    onFailed: (adm, f) => {
      // Said once: the automatic retries of an offline row are not announced again and again.
      if (f.kind !== 'conflict' && (outbox.rowOf(adm)?.attempts ?? 1) > 1) return;
      announce(`${nameOf(adm)}: ${REPORT_SHEET_MESSAGES.failed}. ${f.message ?? ''}`.trim());
    },
  });
  const { edit: editRow } = outbox;
  const edit = useCallback((adm: string, cells: Cells) => editRow(adm, (v) => ({ ...v, ...cells })), [editRow]);
  return {
    rows: outbox.rows,
    edit,
    saveRow: outbox.saveNow,
    saveAll: outbox.saveAll,
    unsaved: outbox.unsaved,
    online: outbox.online,
    guard: outbox.guard,
    announcement,
    setAnnouncement,
  };
}

export type SheetRows = ReturnType<typeof useSheetRows>;
