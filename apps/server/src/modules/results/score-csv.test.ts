import { describe, expect, it } from 'vitest';
import { ASSESSMENT_MESSAGES, type ScoreSheet, type ScoreSheetRow } from '@portal/domain';
import { planImport, readScoreCsv, SCORE_CSV_MAX_ROWS, scoreCsvFileName, scoreTemplateCsv, type CsvRecord } from './score-csv';

const COMPONENTS = [
  { name: 'First CA', label: 'CA1', max: 20 },
  { name: 'Second CA', label: 'CA2', max: 20 },
  { name: 'Examination', label: 'Exam', max: 60 },
];

function row(admission: string, name: string, over: Partial<ScoreSheetRow> = {}): ScoreSheetRow {
  return { admission_number: admission, name, takes: true, result: null, position: null, ...over };
}
const stored = (components: Record<string, number | 'ABS'>, remarks = '') => ({
  id: 1,
  components,
  total_only: false,
  score: 0,
  grade: 'C',
  remarks,
  version: 3,
  updated_at: '2026-01-01T00:00:00.000Z',
  updated_by: 'Grace Okafor',
});

function sheet(rows: ScoreSheetRow[]): ScoreSheet {
  return {
    session: { id: 1, name: '2025/2026' },
    term: '1st',
    student_class: 'SSS 1A',
    subject: 'Further Mathematics',
    components: COMPONENTS,
    precision: 'one_decimal',
    rows,
    stats: null,
    may_write: true,
    refusal: null,
    released: false,
  };
}

function records(csv: string): CsvRecord[] {
  const r = readScoreCsv(csv);
  if ('error' in r) throw new Error(r.error.message);
  return r.records;
}

describe('reading a score file (RFC 4180 through csv-parse)', () => {
  it('reads quotes, embedded commas, quotes and line breaks, CRLF, LF and CR endings and a BOM, keeping each record’s first line', () => {
    const csv =
      '\ufeffadmission_number,name,CA1\r\nSTU-0001,"Obi, Ada",12\r\n\r\nSTU-0002,"Line\r\nbreak ""quoted""",5\nSTU-0003,Eze,7\rSTU-0004,  Spaced  ,8';
    expect(records(csv)).toEqual([
      { line: 1, cells: ['admission_number', 'name', 'CA1'] },
      { line: 2, cells: ['STU-0001', 'Obi, Ada', '12'] },
      { line: 4, cells: ['STU-0002', 'Line\nbreak "quoted"', '5'] },
      { line: 6, cells: ['STU-0003', 'Eze', '7'] },
      { line: 7, cells: ['STU-0004', 'Spaced', '8'] },
    ]);
  });

  it('names an empty file, an unreadable one (with its line) and a file of more than 500 rows', () => {
    expect(readScoreCsv('\ufeff \r\n')).toEqual({ error: { line: 1, column: null, message: ASSESSMENT_MESSAGES.csvEmpty } });
    expect(readScoreCsv('a,b\nc,"unclosed\n')).toMatchObject({ error: { column: null, message: ASSESSMENT_MESSAGES.csvUnreadable } });
    const big = `admission_number,CA1\n${Array.from({ length: SCORE_CSV_MAX_ROWS + 1 }, (_, i) => `STU-${i},1`).join('\n')}`;
    expect(readScoreCsv(big)).toEqual({ error: { line: SCORE_CSV_MAX_ROWS + 2, column: null, message: ASSESSMENT_MESSAGES.csvTooBig } });
    const enough = `admission_number,CA1\n${Array.from({ length: SCORE_CSV_MAX_ROWS }, (_, i) => `STU-${i},1`).join('\n')}`;
    expect('records' in readScoreCsv(enough)).toBe(true);
  });
});

describe('the template', () => {
  it('has the header, one prefilled line per student taking the subject (ABS kept), formula-safe names, and a file name', () => {
    const s = sheet([
      row('STU-0001', 'Ada Obi', { result: stored({ CA1: 12, CA2: 'ABS', Exam: 40.5 }, 'Good') }),
      row('STU-0002', '=HYPERLINK("x") Eze'),
      row('STU-0003', 'Not Taking', { takes: false }),
    ]);
    const text = scoreTemplateCsv(s);
    expect(text.startsWith('\ufeff')).toBe(true);
    expect(text.slice(1).split('\n')).toEqual([
      'admission_number,name,CA1,CA2,Exam,remarks',
      'STU-0001,Ada Obi,12,ABS,40.5,Good',
      `STU-0002,"'=HYPERLINK(""x"") Eze",,,,`,
      '',
    ]);
    expect(scoreCsvFileName(s)).toBe('scores-SSS1A-FurtherMathematics-2025-2026-1st.csv');
  });
});

describe('planning an import', () => {
  const s = sheet([
    row('STU-0001', 'Ada Obi', { result: stored({ CA1: 12, CA2: 10, Exam: 40 }, 'Good') }),
    row('STU-0002', 'Bola Eze'),
    row('STU-0003', 'Chidi Okeke', { takes: false }),
    row('STU-0004', 'Dayo Ade', { result: stored({ CA1: 5 }) }),
    row('STU-0005', 'Efe Bello', { result: stored({ CA1: 1, CA2: 2, Exam: 3 }) }),
  ]);

  it('takes the columns in any order and case, and says what each row does (new, update, same, clear)', () => {
    const csv = [
      'EXAM,ca2,Admission_Number,Ca1,remarks',
      '40,10,STU-0001,12,Good',
      '50,abs,stu-0002,"15,5",',
      ',,STU-0004,,',
      '3,2,STU-0005,1,Now with remarks',
    ].join('\n');
    const { preview, changes } = planImport(s, records(csv));
    expect(preview.errors).toEqual([]);
    expect(preview.rows.map((r) => [r.line, r.admission_number, r.change, r.total])).toEqual([
      [2, 'STU-0001', 'same', 62],
      [3, 'STU-0002', 'new', 65.5],
      [4, 'STU-0004', 'clear', 0],
      [5, 'STU-0005', 'update', 6],
    ]);
    expect(preview.rows[1]!.components).toEqual({ CA1: 15.5, CA2: 'ABS', Exam: 50 });
    expect(changes).toEqual([
      { admission_number: 'STU-0002', components: { CA1: 15.5, CA2: 'ABS', Exam: 50 }, remarks: '' },
      { admission_number: 'STU-0004', components: {}, remarks: '' },
      { admission_number: 'STU-0005', components: { CA1: 1, CA2: 2, Exam: 3 }, remarks: 'Now with remarks' },
    ]);
  });

  it('names the line and column of every problem: range, precision, formula cells, unknown, duplicate and non-taking students', () => {
    const csv = [
      'admission_number,name,CA1,CA2,Exam',
      'STU-0001,Ada,21,10,40',
      'STU-0002,Bola,=cmd|calc,1.25,40',
      'STU-9999,Nobody,1,1,1',
      'STU-0001,Ada again,1,1,1',
      'STU-0003,Chidi,1,1,1',
      '"STU-0004",Dayo,+1,-1,@SUM(1)',
    ].join('\r\n');
    const { preview, changes } = planImport(s, records(csv));
    expect(preview.errors).toEqual([
      { line: 2, column: 'CA1', message: ASSESSMENT_MESSAGES.componentRange('CA1', 20) },
      { line: 3, column: 'CA1', message: ASSESSMENT_MESSAGES.componentRange('CA1', 20) },
      { line: 3, column: 'CA2', message: ASSESSMENT_MESSAGES.componentOneDecimal('CA2') },
      { line: 4, column: 'admission_number', message: ASSESSMENT_MESSAGES.csvUnknownStudent('STU-9999') },
      { line: 5, column: 'admission_number', message: ASSESSMENT_MESSAGES.csvDuplicateStudent('STU-0001') },
      { line: 6, column: 'admission_number', message: ASSESSMENT_MESSAGES.csvNotTaken('STU-0003') },
      { line: 7, column: 'CA2', message: ASSESSMENT_MESSAGES.componentRange('CA2', 20) },
      { line: 7, column: 'Exam', message: ASSESSMENT_MESSAGES.componentRange('Exam', 60) },
    ]);
    expect(preview.rows).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('refuses a file without the header or with a component column missing', () => {
    expect(planImport(s, records('STU-0001,Ada,1,2,3')).preview.errors).toEqual([
      { line: 1, column: null, message: ASSESSMENT_MESSAGES.csvNoHeader('CA1, CA2, Exam') },
    ]);
    expect(planImport(s, records('admission_number,CA1,Exam\nSTU-0001,1,2')).preview.errors).toEqual([
      { line: 1, column: 'CA2', message: ASSESSMENT_MESSAGES.csvMissingColumn('CA2') },
    ]);
  });
});
