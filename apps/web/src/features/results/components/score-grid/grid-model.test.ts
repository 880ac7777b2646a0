import { describe, expect, it } from 'vitest';
import type { ScoreSheetResult } from '@portal/domain/assessment';
import { describeScores, livePositions, parsePasted, parseRow, sameAsStored, type RowState } from './grid-model';

const SCHEME = [
  { name: 'First', label: 'CA1', max: 20 },
  { name: 'Second', label: 'CA2', max: 20 },
  { name: 'Exam', label: 'Exam', max: 60 },
];
const row = (cells: Record<string, string>, base: ScoreSheetResult | null = null): RowState => ({
  value: cells,
  base,
  status: 'unsaved',
  message: null,
  seq: 1,
  attempts: 0,
  autoRetry: false,
});
const stored = (over: Partial<ScoreSheetResult>): ScoreSheetResult => ({
  id: 1,
  components: {},
  total_only: false,
  score: 0,
  grade: 'F9',
  remarks: '',
  version: 3,
  updated_at: '2026-11-23T09:00:00.000Z',
  updated_by: 'Ada Obi',
  ...over,
});

describe('the score grid model', () => {
  it('reads a block pasted from a spreadsheet (tabs) or a CSV (commas), CRLF and a trailing newline', () => {
    expect(parsePasted('15\t12\t50\r\n18\t\t60\r\n')).toEqual([
      ['15', '12', '50'],
      ['18', '', '60'],
    ]);
    expect(parsePasted('15,12\n9,ABS')).toEqual([
      ['15', '12'],
      ['9', 'ABS'],
    ]);
  });

  it('totals the valid cells, counts ABS as no marks, and keeps an invalid cell out of the values with its message', () => {
    const p = parseRow(SCHEME, 'one_decimal', row({ CA1: '15', CA2: 'a', Exam: '61' }));
    expect(p.values).toEqual({ CA1: 15, CA2: 'ABS' });
    expect(p.total).toBe(15);
    expect(p.problems).toEqual({ Exam: 'Exam must be a number from 0 to 60, or ABS for absent.' });
    expect(parseRow(SCHEME, 'whole', row({ CA1: '12.5' })).problems.CA1).toBe('CA1 must be a whole number.');
  });

  it('shows a one-total result as its total until a component is typed', () => {
    const base = stored({ total_only: true, score: 71 });
    expect(parseRow(SCHEME, 'one_decimal', row({ CA1: '', CA2: '', Exam: '' }, base)).total).toBe(71);
    expect(parseRow(SCHEME, 'one_decimal', row({ CA1: '10', CA2: '', Exam: '' }, base)).total).toBe(10);
    expect(sameAsStored(SCHEME, {}, base)).toBe(true);
  });

  it('is complete only with every component in (marks or ABS), or a stored one-total result', () => {
    expect(parseRow(SCHEME, 'whole', row({ CA1: '7', CA2: '', Exam: '' }))).toMatchObject({ total: 7, complete: false });
    expect(parseRow(SCHEME, 'whole', row({ CA1: '7', CA2: 'ABS', Exam: '40' }))).toMatchObject({ total: 47, complete: true });
    // An invalid cell is not in: the row stays incomplete until it is fixed.
    expect(parseRow(SCHEME, 'whole', row({ CA1: '7', CA2: '25', Exam: '40' })).complete).toBe(false);
    expect(parseRow(SCHEME, 'whole', row({ CA1: '', CA2: '', Exam: '' })).complete).toBe(false);
    const base = stored({ total_only: true, score: 71 });
    expect(parseRow(SCHEME, 'whole', row({ CA1: '', CA2: '', Exam: '' }, base)).complete).toBe(true);
  });

  it('has nothing to save when the typed values are what is stored', () => {
    const base = stored({ components: { CA1: 15, CA2: 'ABS', Exam: 50 }, score: 65 });
    expect(sameAsStored(SCHEME, { CA1: 15, CA2: 'ABS', Exam: 50 }, base)).toBe(true);
    expect(sameAsStored(SCHEME, { CA1: 15, CA2: 0, Exam: 50 }, base)).toBe(false);
    expect(sameAsStored(SCHEME, {}, null)).toBe(true);
  });

  it('ranks the live totals with ties sharing a position (1, 1, 3), leaving rows without a score out', () => {
    const p = livePositions([
      { admission_number: 'A', total: 70 },
      { admission_number: 'B', total: null },
      { admission_number: 'C', total: 85 },
      { admission_number: 'D', total: 70 },
    ]);
    expect([...p.entries()].sort()).toEqual([
      ['A', 2],
      ['C', 1],
      ['D', 2],
    ]);
    expect(p.has('B')).toBe(false);
  });

  it('describes both sides of a conflict in the scheme order', () => {
    expect(describeScores(SCHEME, { Exam: 30, CA1: 10 })).toBe('CA1 10, CA2 –, Exam 30');
    expect(describeScores(SCHEME, {}, 64)).toBe('Total 64');
  });
});
