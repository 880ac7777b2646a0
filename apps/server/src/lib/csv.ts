import { stringify } from 'csv-stringify/sync';
import { parse } from 'csv-parse/sync';
import { ROWS_PER_SLICE, yieldToEventLoop } from './yield';

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

/**
 * `toCsv` for a heavy report's many rows: the same bytes, written a few hundred lines at a time with
 * a turn of the event loop between them (each line ends with its line break, so the pieces join up).
 */
export async function toCsvInSlices(
  rows: readonly (readonly CsvValue[])[],
  columns?: readonly string[],
  size = 3 * ROWS_PER_SLICE,
): Promise<string> {
  if (rows.length <= size) return toCsv(rows, columns);
  const parts = [toCsv(rows.slice(0, size), columns)];
  for (let i = size; i < rows.length; i += size) {
    await yieldToEventLoop();
    parts.push(stringify(rows.slice(i, i + size).map((r) => r.map(csvCell))));
  }
  return parts.join('');
}

/** One record of a file read by `readCsvRecords`. */
export interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  cells: string[];
}

/** A problem with the file as a whole, in the shape of an import's per-line errors. */
export interface CsvFileError {
  line: number;
  column: null;
  message: string;
}

/** No row of an upload comes near this: a longer record is refused before it is built. */
const MAX_RECORD_CHARS = 16 * 1024;
const LINE_BREAK = /\n/g;

/**
 * The one reader of an uploaded CSV (the score and carried-attendance imports): csv-parse, RFC 4180
 * (quoted fields with commas, quotes and line breaks, CRLF, LF or CR endings, a byte order mark),
 * cells trimmed, blank lines skipped. Each record keeps the line it starts on, so an error can name
 * it. `maxRows` counts data rows (the header is one more); each import names its own messages.
 */
export function readCsvRecords(
  csv: string,
  options: { maxRows: number; messages: { empty: string; unreadable: string; tooBig: string } },
): { records: CsvRecord[] } | { error: CsvFileError } {
  const { maxRows, messages } = options;
  if (!csv.replace(/^\ufeff/, '').trim()) return { error: { line: 1, column: null, message: messages.empty } };
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    // One line ending for the whole file (CRLF and lone CR become LF), so line numbers count lines
    // as an editor does, inside quoted fields too.
    parsed = parse(csv.replace(/\r\n?/g, '\n'), {
      bom: true,
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      record_delimiter: '\n',
      max_record_size: MAX_RECORD_CHARS,
      // header + the rows allowed + one, so "too many" can be told apart from "just enough".
      to: maxRows + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    // Stray quotes or an overlong record: the file's reading failed, not its header.
    return { error: { line: (err as { lines?: number }).lines ?? 1, column: null, message: messages.unreadable } };
  }
  const records = parsed.map(({ record, info }) => {
    const inner = record.reduce((n, cell) => n + (cell.match(LINE_BREAK)?.length ?? 0), 0);
    return { line: info.lines - inner, cells: record };
  });
  if (records.length > maxRows + 1) return { error: { line: records[maxRows + 1]!.line, column: null, message: messages.tooBig } };
  return { records };
}

/** A header row's columns by name (trimmed, any case), the first of a repeated name winning. */
export function csvHeaderIndex(cells: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  cells.forEach((h, i) => {
    const key = h.trim().toLowerCase();
    if (!index.has(key)) index.set(key, i);
  });
  return index;
}

/**
 * The student each line of a one-student-a-line CSV names by its admission number (any case), once:
 * `unknown` or `duplicate` is the line's error when the number matches no student, or a student an
 * earlier line named.
 */
export function csvStudentFinder<S extends { admission_number: string }>(
  students: readonly S[],
  messages: { unknown(admission: string): string; duplicate(admission: string): string },
): (admission: string) => { student: S } | { error: string } {
  const byAdmission = new Map(students.map((s) => [s.admission_number.toUpperCase(), s]));
  const seen = new Set<S>();
  return (admission) => {
    const student = byAdmission.get(admission.toUpperCase());
    if (!student) return { error: messages.unknown(admission) };
    if (seen.has(student)) return { error: messages.duplicate(admission) };
    seen.add(student);
    return { student };
  };
}
