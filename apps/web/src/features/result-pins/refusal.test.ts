import { describe, expect, it } from 'vitest';
import { CHECK_RESULT_CODES, RESULT_PIN_MESSAGES as PM } from '@portal/domain/result-pins';
import { RESULT_PIN_SCREEN_MESSAGES as M } from '@portal/domain/result-pin-screens';
import { ApiError } from '../../lib/api-client';
import { refusalOf } from './refusal';

describe('refusalOf: what the check page says when a check is refused', () => {
  it('the fee gate: what is owed, needed and paid, in naira', () => {
    const r = refusalOf(new ApiError(403, { code: 'fees_outstanding', owed: 45_000, required: 60_000, paid: 15_000 }));
    expect(r.title).toBe(M.feesTitle);
    expect(r.text).toBe(M.fees(45_000));
    expect(r.text).toContain('₦45,000');
    expect(r.fees).toMatchObject({ owed: 45_000, required: 60_000, paid: 15_000 });
    expect(r.tone).toBe('warning');
  });
  it("the server's words when it gives them", () => {
    const r = refusalOf(
      new ApiError(403, { detail: 'Pay ₦10,000 first.', code: 'fees_outstanding', owed: 10_000, required: 10_000, paid: 0 }),
    );
    expect(r.text).toBe('Pay ₦10,000 first.');
  });
  it('throttled (429): wait, with or without the minutes', () => {
    expect(refusalOf(new ApiError(429, { detail: PM.tooManyAttempts(15), code: CHECK_RESULT_CODES.throttled })).text).toBe(
      PM.tooManyAttempts(15),
    );
    const bare = refusalOf(new ApiError(429, null));
    expect(bare.title).toBe(M.throttledTitle);
    expect(bare.text).toBe(M.throttled);
  });
  it('each PIN refusal by its code: wrong, used up, another student, another term, not released', () => {
    expect(refusalOf(new ApiError(404, { code: CHECK_RESULT_CODES.wrong })).text).toBe(PM.wrongPinOrNumber);
    expect(refusalOf(new ApiError(403, { code: CHECK_RESULT_CODES.exhausted })).text).toBe(PM.exhausted);
    expect(refusalOf(new ApiError(403, { code: CHECK_RESULT_CODES.boundToAnother })).text).toBe(PM.boundToAnother);
    expect(refusalOf(new ApiError(400, { code: CHECK_RESULT_CODES.otherTerm })).text).toBe(PM.otherTerm);
    const notReleased = refusalOf(new ApiError(404, { code: CHECK_RESULT_CODES.notReleased }));
    expect(notReleased.text).toBe(PM.notReleased);
    expect(notReleased.tone).toBe('info');
  });
  it('a 404 without a code reads as a wrong PIN or number (no oracle); no answer at all as a connection failure', () => {
    expect(refusalOf(new ApiError(404, null)).text).toBe(PM.wrongPinOrNumber);
    expect(refusalOf(new ApiError(0, null, 'network')).text).toBe(M.checkFailed);
    expect(refusalOf(new Error('boom')).text).toBe(M.checkFailed);
  });
});
