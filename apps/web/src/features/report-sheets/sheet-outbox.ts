import type { QueryClient } from '@tanstack/react-query';
import { TERM_VALUES, type Term } from '@portal/domain/constants';
import type { CommentSheet, CommentSheetRow, CommentSheetSaved, RatingSheet, RatingSheetSaved } from '@portal/domain/report-cards';
import type { CommentSheetSave, RatingSheetSave } from '@portal/domain/report-card-schemas';
import type { RatingTrait } from '@portal/domain/report-card-rules';
import { api } from '../../lib/api-client';
import type { OutboxRecord } from '../../lib/offline';
import { updateKept } from '../../lib/offline-query';
import { reportSheetKeys, type SheetQuery } from './api';
import { commentCells, commentSaveRow } from './comment-model';
import { COMMENTS_KIND, RATINGS_KIND } from './sheet-kinds';
import { parseRatingRow, ratingCells, type Cells, type StoredCells } from './sheet-model';

/**
 * The ratings and comments sheets on the offline core (decision 044): a queued row is one student's
 * cells (key the admission number, base the stored cells and version) of a sheet named by its arm,
 * in the partition of the sheet's session and term (`sessionId:term`). `flushOutbox` sends them with
 * no sheet open (sign-out's "send first", signing in again); every saved row goes into the sheet's
 * kept copy, so a reload offline starts from what is stored.
 */
export { COMMENTS_KIND, RATINGS_KIND } from './sheet-kinds';

const T = { timeout: 15_000 };

/** The sheet a queued row belongs to (null: not a report sheet's record). */
export function sheetOfRecord(rec: Pick<OutboxRecord, 'term' | 'sheet'>): SheetQuery | null {
  const [session, term] = rec.term.split(':');
  const session_id = Number(session);
  if (!(session_id > 0) || !(TERM_VALUES as readonly string[]).includes(term ?? '') || !rec.sheet) return null;
  return { session_id, term: term as Term, student_class: rec.sheet };
}

/** A rating row's traits are its cells' keys (the grid makes one cell per trait). */
const traitsOf = (cells: Cells) => Object.keys(cells).map((id) => ({ id }) as RatingTrait);

/** The save of a queued rating row, on the version it was made on (null: a cell is not a rating). */
export function queuedRatingSave(q: SheetQuery, adm: string, cells: Cells, base: StoredCells): RatingSheetSave | null {
  const { ratings, problems } = parseRatingRow(traitsOf(cells), cells);
  if (Object.keys(problems).length) return null;
  return { ...q, rows: [{ admission_number: adm, ratings, version: base.version }] };
}

/**
 * The save of a queued comment row: the fields changed from the stored row it was made on (those the
 * teacher could not change are the stored ones, so they are not sent).
 */
export function queuedCommentSave(q: SheetQuery, adm: string, cells: Cells, base: StoredCells): CommentSheetSave {
  return {
    ...q,
    rows: [commentSaveRow(adm, { cells, base: base.cells, version: base.version }, { may_edit_form: true, may_edit_principal: true })],
  };
}

/** A row stored by the server, put into its sheet's kept copy (and the cached sheet, if any). */
function keepSavedRow<R extends { admission_number: string }, S extends { rows: R[] }>(
  kind: string,
  key: readonly unknown[],
  adm: string,
  stored: (row: R) => R,
  qc?: QueryClient,
): Promise<void> {
  const update = (sheet: S): S => ({ ...sheet, rows: sheet.rows.map((r) => (r.admission_number === adm ? stored(r) : r)) });
  qc?.setQueryData<S>(key, (cur) => cur && update(cur));
  return updateKept(kind, key, update);
}

/** A rating row stored by the server, put into the sheet's kept copy (and the cached sheet, if any). */
export const keepSavedRating = (q: SheetQuery, row: RatingSheetSaved['rows'][number], qc?: QueryClient): Promise<void> =>
  keepSavedRow<RatingSheet['rows'][number], RatingSheet>(
    RATINGS_KIND,
    reportSheetKeys.ratings(q),
    row.admission_number,
    (r) => ({ ...r, ratings: row.ratings, version: row.version }),
    qc,
  );

/** A comment row stored by the server, put into the sheet's kept copy (and the cached sheet, if any). */
export const keepSavedComment = (q: SheetQuery, row: CommentSheetRow, qc?: QueryClient): Promise<void> =>
  keepSavedRow<CommentSheetRow, CommentSheet>(COMMENTS_KIND, reportSheetKeys.comments(q), row.admission_number, () => row, qc);

/** Sends a queued rating row with no sheet open; resolves to the row as stored. */
export async function sendQueuedRating(rec: OutboxRecord, qc?: QueryClient): Promise<StoredCells> {
  const q = sheetOfRecord(rec);
  const cells = rec.value as Cells;
  const base = rec.base as StoredCells;
  const body = q && queuedRatingSave(q, rec.row, cells, base);
  if (!q || !body) throw new Error(`Not a rating row: ${rec.id}`);
  const out = await api.put<RatingSheetSaved>('/class-ratings/', body, T);
  const row = out.rows.find((r) => r.admission_number === rec.row);
  if (!row) return base;
  await keepSavedRating(q, row, qc);
  return { cells: ratingCells(traitsOf(cells), row.ratings), version: row.version };
}

/** Sends a queued comment row with no sheet open; resolves to the row as stored. */
export async function sendQueuedComment(rec: OutboxRecord, qc?: QueryClient): Promise<StoredCells> {
  const q = sheetOfRecord(rec);
  if (!q) throw new Error(`Not a comment row: ${rec.id}`);
  const base = rec.base as StoredCells;
  const out = await api.put<CommentSheetSaved>('/class-comments/', queuedCommentSave(q, rec.row, rec.value as Cells, base), T);
  const row = out.rows.find((r) => r.admission_number === rec.row);
  if (!row) return base;
  await keepSavedComment(q, row, qc);
  return { cells: commentCells(row), version: row.version };
}
