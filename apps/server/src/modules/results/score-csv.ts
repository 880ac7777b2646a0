import {
  ASSESSMENT_MESSAGES,
  componentProblem,
  componentTotal,
  parseComponentCell,
  scoreSheetRowInputSchema,
  type ComponentScores,
  type ScoreImportError,
  type ScoreImportPreview,
  type ScoreSheet,
} from '@portal/domain';
import { csvHeaderIndex, csvStudentFinder, readCsvRecords, toCsv, type CsvRecord } from '../../lib/csv';

/** Data rows one score file may hold (a class is far smaller; a bigger file is the wrong file). */
export const SCORE_CSV_MAX_ROWS = 500;

export type { CsvRecord };

/** Reads a score file (`readCsvRecords`, at most `SCORE_CSV_MAX_ROWS` rows, the score import's messages). */
export function readScoreCsv(csv: string): { records: CsvRecord[] } | { error: ScoreImportError } {
  return readCsvRecords(csv, {
    maxRows: SCORE_CSV_MAX_ROWS,
    messages: { empty: ASSESSMENT_MESSAGES.csvEmpty, unreadable: ASSESSMENT_MESSAGES.csvUnreadable, tooBig: ASSESSMENT_MESSAGES.csvTooBig },
  });
}

/** `scores-SSS1A-Mathematics-2025-2026-1st.csv` */
export function scoreCsvFileName(sheet: Pick<ScoreSheet, 'student_class' | 'subject' | 'session' | 'term'>): string {
  const part = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '');
  return `scores-${part(sheet.student_class)}-${part(sheet.subject)}-${sheet.session.name.replace(/[^0-9]+/g, '-')}-${sheet.term}.csv`;
}

/** The file a teacher fills in: one line per student who takes the subject (or has a score in it), prefilled. */
export function scoreTemplateCsv(sheet: ScoreSheet): string {
  const labels = sheet.components.map((c) => c.label);
  const rows = sheet.rows
    .filter((r) => r.takes || r.result)
    .map((r) => [r.admission_number, r.name, ...labels.map((l) => r.result?.components[l] ?? null), r.result?.remarks ?? null]);
  return toCsv(rows, ['admission_number', 'name', ...labels, 'remarks']);
}

/** A changed row of an import, as the grid save takes it (an empty `components` clears). */
export interface ImportChange {
  admission_number: string;
  components: ComponentScores;
  remarks?: string;
}

const remarksField = scoreSheetRowInputSchema.shape.remarks;

function sameScores(a: ComponentScores, b: ComponentScores): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/**
 * Checks a parsed score file against the sheet it is for: the header (any column order, labels in
 * any case), each student (of this class, once, taking the subject), each cell (a number in range
 * at the scheme's precision, or ABS; never a formula: a cell is read as a number or refused), and
 * says what each row would do. Pure: the sheet carries everything it needs.
 */
export function planImport(sheet: ScoreSheet, records: readonly CsvRecord[]): { preview: ScoreImportPreview; changes: ImportChange[] } {
  const errors: ScoreImportError[] = [];
  const rows: ScoreImportPreview['rows'] = [];
  const changes: ImportChange[] = [];
  const done = () => ({ preview: { rows, errors, applied: false }, changes });
  const header = records[0];
  const labels = sheet.components.map((c) => c.label);
  if (!header) {
    errors.push({ line: 1, column: null, message: ASSESSMENT_MESSAGES.csvEmpty });
    return done();
  }
  const index = csvHeaderIndex(header.cells);
  const required = ['admission_number', ...labels];
  const missing = required.filter((c) => !index.has(c.toLowerCase()));
  if (missing.length === required.length) {
    errors.push({ line: header.line, column: null, message: ASSESSMENT_MESSAGES.csvNoHeader(labels.join(', ')) });
    return done();
  }
  for (const c of missing) errors.push({ line: header.line, column: c, message: ASSESSMENT_MESSAGES.csvMissingColumn(c) });
  if (missing.length) return done();

  const col = (name: string) => index.get(name.toLowerCase());
  const admissionCol = col('admission_number')!;
  const remarksCol = col('remarks');
  const studentOf = csvStudentFinder(sheet.rows, {
    unknown: ASSESSMENT_MESSAGES.csvUnknownStudent,
    duplicate: ASSESSMENT_MESSAGES.csvDuplicateStudent,
  });
  for (const rec of records.slice(1)) {
    const cell = (i: number | undefined) => (i === undefined ? '' : (rec.cells[i] ?? '').trim());
    const admission = cell(admissionCol);
    const rowErrors: ScoreImportError[] = [];
    const found = studentOf(admission);
    if ('error' in found) {
      errors.push({ line: rec.line, column: 'admission_number', message: found.error });
      continue;
    }
    const { student } = found;
    const components: ComponentScores = {};
    for (const c of sheet.components) {
      const value = parseComponentCell(cell(col(c.label)));
      if (value === undefined) continue;
      const problem = componentProblem(c, value, sheet.precision);
      if (problem) rowErrors.push({ line: rec.line, column: c.label, message: problem });
      else components[c.label] = value;
    }
    let remarks: string | undefined;
    if (remarksCol !== undefined) {
      const r = remarksField.safeParse(cell(remarksCol));
      if (r.success) remarks = r.data ?? '';
      else rowErrors.push({ line: rec.line, column: 'remarks', message: r.error.issues[0]?.message ?? ASSESSMENT_MESSAGES.csvUnreadable });
    }
    const stored = student.result;
    const entered = Object.keys(components).length > 0;
    if (!stored && entered && !student.takes) {
      rowErrors.push({ line: rec.line, column: 'admission_number', message: ASSESSMENT_MESSAGES.csvNotTaken(admission) });
    }
    if (rowErrors.length) {
      errors.push(...rowErrors);
      continue;
    }
    let change: ScoreImportPreview['rows'][number]['change'];
    if (!entered) change = stored ? 'clear' : 'same';
    else if (!stored) change = 'new';
    else {
      const sameRemarks = remarks === undefined || remarks === stored.remarks;
      change = !stored.total_only && sameScores(components, stored.components) && sameRemarks ? 'same' : 'update';
    }
    rows.push({
      line: rec.line,
      admission_number: student.admission_number,
      name: student.name,
      components,
      total: componentTotal(components),
      change,
    });
    if (change !== 'same')
      changes.push({ admission_number: student.admission_number, components, ...(remarks === undefined ? {} : { remarks }) });
  }
  return done();
}
