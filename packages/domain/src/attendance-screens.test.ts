import { describe, expect, it } from 'vitest';
import { ATTENDANCE_SCREEN_MESSAGES as M, NOT_MARKED_NAMES_SHOWN } from './attendance-screens';

describe('attendance screen messages', () => {
  it('names every unmarked student when there are few', () => {
    expect(M.notMarked(['Ada Obi', 'Emeka Eze'])).toBe('Not marked yet: Ada Obi, Emeka Eze.');
    expect(M.notMarked(['A', 'B'])).toBe('Not marked yet: A, B.');
  });

  it('names only the first few of a long list, so the Save bar stays small on a phone', () => {
    const names = Array.from({ length: 40 }, (_, i) => `Student ${i + 1}`);
    expect(NOT_MARKED_NAMES_SHOWN).toBe(2);
    expect(M.notMarked(names)).toBe('Not marked yet: Student 1, Student 2 and 38 more.');
    expect(M.notMarked(['A', 'B', 'C'])).toBe('Not marked yet: A, B and 1 more.');
  });
});
