import { describe, expect, it } from 'vitest';
import { queuedSave, registerKeyOf, registerOfKey } from './register-outbox';

// A queued register (the offline core's row) turned back into its save when no register is open.
describe('a queued register', () => {
  it('names its register by arm, date and period, and back', () => {
    const q = { student_class: 'JSS 1A', date: '2025-10-08', period: 'afternoon' as const };
    expect(registerOfKey(registerKeyOf(q))).toEqual(q);
    expect(registerOfKey('JSS 1A|2025-10-08|evening')).toBeNull();
    expect(registerOfKey('score|x')).toBeNull();
  });

  it('is saved with its marks on the version it was made on; unmarked students are left for the server to name', () => {
    expect(
      queuedSave('JSS 1A|2025-10-08|morning', { 'STU-1': 'present', 'STU-2': 'absent', 'STU-3': null }, { version: 2, marks: {} }),
    ).toEqual({
      student_class: 'JSS 1A',
      date: '2025-10-08',
      period: 'morning',
      marks: [
        { admission_number: 'STU-1', status: 'present' },
        { admission_number: 'STU-2', status: 'absent' },
      ],
      version: 2,
    });
  });
});
