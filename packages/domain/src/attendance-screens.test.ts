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

  it('keeps long names short: one cut with "…", a second left to "and N more" (the Save bar wrapped past a third of a phone)', () => {
    const long = 'Oluwadamilarenimiayomide Adebayo-Ogunlesi-Akinwunmi-Fashola';
    expect(M.notMarked([long, 'Own Pupil', 'Ada Obi'])).toBe('Not marked yet: Oluwadamilarenimiayomide Adebayo-Og… and 2 more.');
    expect(M.notMarked([long])).toBe('Not marked yet: Oluwadamilarenimiayomide Adebayo-Og….');
    expect(M.notMarked(['Chiamaka Obi', 'Oluwadamilarenimiayomide Adebayo'])).toBe('Not marked yet: Chiamaka Obi and 1 more.');
    // Letters beyond the basic plane count once, and are never cut in half.
    expect(M.notMarked(['𝒜'.repeat(40)])).toBe(`Not marked yet: ${'𝒜'.repeat(35)}….`);
  });
});
