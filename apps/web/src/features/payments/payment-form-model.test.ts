// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@portal/domain/auth-constants';
import { draftFor, EMPTY } from './payment-form-model';

afterEach(() => localStorage.clear());

const save = (admission: string) =>
  localStorage.setItem(STORAGE_KEYS.paymentDraft, JSON.stringify({ ...EMPTY, admission_number: admission, full_name: 'Ada Okafor', amount: '5000' }));

describe("the payment form's saved draft (issue 33: a parent pays for one child at a time)", () => {
  it("fills a parent's form only for the child it was typed for", () => {
    save('STU-0001');
    expect(draftFor('STU-0001')?.full_name).toBe('Ada Okafor');
    expect(draftFor('STU-0002')).toBeNull();
  });

  it("a draft typed in lower case is still that child's", () => {
    save(' stu-0001 ');
    expect(draftFor('STU-0001')?.amount).toBe('5000');
  });

  it("fills a student's or the staff's form whatever it holds, as before", () => {
    save('STU-0009');
    expect(draftFor(null)?.admission_number).toBe('STU-0009');
    localStorage.clear();
    expect(draftFor(null)).toBeNull();
  });
});
