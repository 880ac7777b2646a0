import { stringify } from 'csv-stringify/sync';

export type CsvValue = string | number | null | undefined;

/**
 * The one formula-injection rule for every CSV the portal writes: a text cell a spreadsheet would
 * run as a formula (starting with =, @, a tab or a carriage return, or + or - followed by anything
 * but a number such as a phone number "+234 803…" or "-12.5") gets a leading apostrophe. Numbers
 * stay numbers; null and undefined are empty cells.
 */
export function csvCell(v: CsvValue): string | number {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return v;
  if (/^[=@\t\r]/.test(v) || (/^[+-]/.test(v) && !/^[+-][\d\s.]*$/.test(v))) return `'${v}`;
  return v;
}

/**
 * A CSV file: every cell through `csvCell`, a header row when `columns` is given, and a UTF-8 byte
 * order mark so spreadsheet programs read names with accents and ₦ correctly.
 */
export function toCsv(rows: readonly (readonly CsvValue[])[], columns?: readonly string[]): string {
  const body = stringify(
    rows.map((r) => r.map(csvCell)),
    columns ? { header: true, columns: [...columns] } : {},
  );
  return `\ufeff${body}`;
}
