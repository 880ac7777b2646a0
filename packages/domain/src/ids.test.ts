import { describe, expect, it } from 'vitest';
import { admissionNumberSchema } from './people';
import { admissionNumberField } from './result-schemas';
import { RESULT_MESSAGES } from './result-messages';

describe('one admission number rule on every screen', () => {
  it('people and results accept and refuse the same numbers, each with its own messages', () => {
    for (const ok of [' stu-0001 ', 'RMC/2026/0012']) {
      expect(admissionNumberField.parse(ok)).toBe(admissionNumberSchema.parse(ok));
    }
    for (const bad of ['-STU-0001', '/RMC/1', 'STU 0001!', 'A'.repeat(31)]) {
      expect(admissionNumberSchema.safeParse(bad).success, bad).toBe(false);
      const r = admissionNumberField.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(RESULT_MESSAGES.admissionNumberFormat);
    }
    expect(admissionNumberField.safeParse('  ').error?.issues.map((i) => i.message)).toEqual([RESULT_MESSAGES.admissionNumberRequired]);
  });
});
