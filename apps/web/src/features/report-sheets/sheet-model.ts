import { RATING_MAX, RATING_MIN, type Ratings, type RatingTrait } from '@portal/domain/report-card-rules';
import { REPORT_SHEET_MESSAGES } from '@portal/domain/report-sheet-screens';
import type { OutboxRow } from '../../lib/autosave/row-outbox';

export type Cells = Record<string, string>;

/** A row as stored: its cells' text and its version (0: nothing stored yet), sent back with the save. */
export interface StoredCells {
  cells: Cells;
  version: number;
}

/**
 * A report sheet's row as the screen holds it (a row of the autosave outbox, lib/autosave): the
 * text of each cell (`value`), the stored row the edits start from (`base`), and where its save stands.
 */
export type RowState = OutboxRow<Cells, StoredCells>;
export type { RowStatus } from '../../lib/autosave/row-outbox';

/** The cells whose text differs from what is stored. */
export function changedKeys(r: { cells: Cells; base: Cells }): string[] {
  return Object.keys(r.cells).filter((k) => (r.cells[k] ?? '').trim() !== (r.base[k] ?? '').trim());
}

/** Whether the cells hold what is stored (spaces around the text aside). */
export function sameCells(cells: Cells, stored: Cells): boolean {
  return changedKeys({ cells, base: stored }).length === 0;
}

/**
 * A row in conflict after the sheet is reloaded: the stored row with the cells the teacher changed
 * (against what they had loaded) put back on top, so the next save keeps the other person's changes
 * to the other cells.
 */
export function mergeReloaded(cur: Pick<RowState, 'value' | 'base'>, stored: Cells): Cells {
  const mine = Object.fromEntries(changedKeys({ cells: cur.value, base: cur.base.cells }).map((k) => [k, cur.value[k] ?? '']));
  return { ...stored, ...mine };
}

/** Every trait of both domains, in the grid's column order. */
export function traitColumns(traits: Record<string, readonly RatingTrait[]>): RatingTrait[] {
  return [...(traits.affective ?? []), ...(traits.psychomotor ?? [])];
}

export function ratingCells(columns: readonly RatingTrait[], ratings: Ratings): Cells {
  const out: Cells = {};
  for (const t of columns) out[t.id] = ratings[t.id] === undefined ? '' : String(ratings[t.id]);
  return out;
}

/** A rating cell: '' is not rated (null), else a whole number 1 to 5; anything else is a problem. */
export function parseRating(text: string): { value: number | null } | { problem: string } {
  const t = text.trim();
  if (t === '') return { value: null };
  if (!/^\d+$/.test(t)) return { problem: REPORT_SHEET_MESSAGES.ratingCell };
  const n = Number(t);
  return n >= RATING_MIN && n <= RATING_MAX ? { value: n } : { problem: REPORT_SHEET_MESSAGES.ratingCell };
}

/** A row's ratings for the save (every trait: a number or null) and its cells' problems. */
export function parseRatingRow(columns: readonly RatingTrait[], cells: Cells): { ratings: Record<string, number | null>; problems: Cells } {
  const ratings: Record<string, number | null> = {};
  const problems: Cells = {};
  for (const t of columns) {
    const p = parseRating(cells[t.id] ?? '');
    if ('problem' in p) problems[t.id] = p.problem;
    else ratings[t.id] = p.value;
  }
  return { ratings, problems };
}

/** A pasted block: rows by line, cells by tab (a spreadsheet) or else by comma (a CSV line). */
export function parsePasted(text: string): string[][] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  const byTab = text.includes('\t');
  return lines.map((l) => l.split(byTab ? '\t' : ',').map((c) => c.trim()));
}

/** Days present or absent: '' is not entered (null), else a whole number 0 to 200; null for a bad cell. */
export function parseDays(text: string): { value: number | null } | null {
  const t = text.trim();
  if (t === '') return { value: null };
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n <= 200 ? { value: n } : null;
}

/**
 * One rating for some traits (a column, or every trait) of every row: empty cells take it; a cell
 * rated otherwise is kept unless `overwrite`. Answers each row's changed cells and the counts.
 */
export function fillRatings(
  rows: Readonly<Record<string, Cells>>,
  traitIds: readonly string[],
  rating: string,
  overwrite: boolean,
): { patches: Record<string, Cells>; filled: number; kept: number } {
  const patches: Record<string, Cells> = {};
  let filled = 0;
  let kept = 0;
  for (const [adm, cells] of Object.entries(rows)) {
    const patch: Cells = {};
    for (const t of traitIds) {
      const v = (cells[t] ?? '').trim();
      if (v === rating) continue;
      if (v !== '' && !overwrite) {
        kept++;
        continue;
      }
      patch[t] = rating;
      filled++;
    }
    if (Object.keys(patch).length) patches[adm] = patch;
  }
  return { patches, filled, kept };
}
