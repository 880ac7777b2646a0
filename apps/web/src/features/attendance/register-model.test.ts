import { describe, expect, it } from 'vitest';
import type { Register, RegisterRow } from '@portal/domain/attendance';
import { changedCount, flagged, markAllPresent, marksOf, saveRequest, setMark, summaryOf, unmarkedNames } from './register-model';

const rows: RegisterRow[] = [
  { admission_number: 'STU-0001', name: 'Ada Obi', status: 'absent', absent_before: 3 },
  { admission_number: 'STU-0002', name: 'Bola Ade', status: null, absent_before: 2 },
  { admission_number: 'STU-0003', name: 'Chidi Eze', status: null, absent_before: 0 },
];
const reg: Register = {
  student_class: 'JSS 1A',
  date: '2026-05-04',
  period: 'morning',
  periods_per_day: 1,
  day: { school_day: true, session_id: 1, term: '3rd' },
  today: '2026-05-04',
  saved: null,
  may_edit: true,
  refusal: null,
  form_teacher: 'Mr Staff',
  rows,
  unmarked_days: [],
};

describe('the register on screen', () => {
  it('starts from the stored marks and counts the unmarked', () => {
    const m = marksOf(rows);
    expect(summaryOf(rows, m)).toEqual({ counts: { present: 0, late: 0, absent: 1, excused: 0 }, unmarked: 2 });
    expect(unmarkedNames(rows, m)).toEqual(['Bola Ade', 'Chidi Eze']);
    expect(changedCount(rows, m)).toBe(0);
  });

  it('mark all present sets every student present, the absent one too', () => {
    const m = markAllPresent(rows);
    expect(Object.values(m)).toEqual(['present', 'present', 'present']);
    expect(summaryOf(rows, m).counts).toEqual({ present: 3, late: 0, absent: 0, excused: 0 });
    expect(changedCount(rows, m)).toBe(3);
  });

  it('a tap changes one mark; tapping back to the stored status is no change', () => {
    const m = setMark(markAllPresent(rows), 'STU-0002', 'late');
    expect(summaryOf(rows, m)).toEqual({ counts: { present: 2, late: 1, absent: 0, excused: 0 }, unmarked: 0 });
    const back = setMark(setMark(marksOf(rows), 'STU-0001', 'excused'), 'STU-0001', 'absent');
    expect(changedCount(rows, back)).toBe(0);
  });

  it('save names who is not marked yet and sends nothing', () => {
    expect(saveRequest(reg, setMark(marksOf(rows), 'STU-0002', 'present'))).toEqual({ unmarked: ['Chidi Eze'] });
  });

  it('save sends every mark with the version read', () => {
    const m = setMark(markAllPresent(rows), 'STU-0003', 'absent');
    expect(saveRequest({ ...reg, saved: { version: 4, marked_by: null, marked_at: '', updated_by: null, updated_at: '' } }, m)).toEqual({
      body: {
        student_class: 'JSS 1A',
        date: '2026-05-04',
        period: 'morning',
        marks: [
          { admission_number: 'STU-0001', status: 'present' },
          { admission_number: 'STU-0002', status: 'present' },
          { admission_number: 'STU-0003', status: 'absent' },
        ],
        version: 4,
      },
    });
    expect((saveRequest(reg, m) as { body: { version: number } }).body.version).toBe(0);
  });

  it('flags a student absent three school days in a row before the day', () => {
    expect(rows.map(flagged)).toEqual([true, false, false]);
  });
});
