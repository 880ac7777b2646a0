import { describe, expect, it } from 'vitest';
import {
  PAYMENT_HTTP_MESSAGES,
  initiatePaymentSchema,
  paymentErrorMessage,
  ONLINE_PAYMENT_MESSAGES,
  ONLINE_PAYMENT_OFF_CODE,
  sanitizeAmountInput,
  verifyWithRetries,
  type VerifyResponse,
} from './payments';

describe('amount input', () => {
  it.each([
    ['1,2a3.456.7', '123.45'],
    ['₦45,000', '45000'],
    ['100.', '100.'],
    ['.5', '.5'],
    ['12.3.4', '12.34'],
    ['abc', ''],
    ['5000000.999', '5000000.99'],
  ])('%j becomes %j', (raw, clean) => expect(sanitizeAmountInput(raw)).toBe(clean));
});

describe('payment error messages', () => {
  const http = (status: number, data?: unknown) => paymentErrorMessage({ kind: 'http', status, data });
  it('by status code, with the server message where the spec says so', () => {
    expect(paymentErrorMessage({ kind: 'timeout', status: 0 })).toBe('Request timeout. Please check your connection and try again.');
    expect(paymentErrorMessage({ kind: 'network', status: 0 })).toBe('Network error. Please check your internet connection.');
    expect(http(400, { amount: ['Minimum amount is ₦100'] })).toBe('Minimum amount is ₦100');
    expect(http(400, { detail: 'Bad thing' })).toBe('Bad thing');
    expect(http(400)).toBe('Invalid request data.');
    expect(http(401, { detail: 'x' })).toBe('Authentication failed. Please login again.');
    expect(http(403)).toBe('You do not have permission to perform this action.');
    expect(http(404)).toBe('Requested resource not found.');
    expect(http(409)).toBe('A payment with these details already exists.');
    expect(http(422, { non_field_errors: ['Nope'] })).toBe('Nope');
    expect(http(422)).toBe('Validation failed.');
    expect(http(429)).toBe('Too many requests. Please try again later.');
    expect(http(500)).toBe('Server error. Please try again later.');
    expect(http(502)).toBe(PAYMENT_HTTP_MESSAGES[500]);
    expect(http(503)).toBe('Service temporarily unavailable. Please try again later.');
  });
  it('online payment switched off (503 with its code) says where to pay instead', () => {
    expect(http(503, { detail: ONLINE_PAYMENT_MESSAGES.off, code: ONLINE_PAYMENT_OFF_CODE })).toBe(ONLINE_PAYMENT_MESSAGES.off);
    expect(http(503, { detail: 'internal' })).toBe(PAYMENT_HTTP_MESSAGES[503]);
  });
});

describe('verify retries', () => {
  const answer = (status: VerifyResponse['status']): VerifyResponse => ({ status, message: status });

  it('retries pending up to 3 times, waiting 2 s x attempt', async () => {
    const waits: number[] = [];
    let calls = 0;
    const res = await verifyWithRetries({
      verify: () => (calls++, Promise.resolve(answer('pending'))),
      sleep: (ms) => (waits.push(ms), Promise.resolve()),
    });
    expect(res.status).toBe('pending');
    expect(calls).toBe(4);
    expect(waits).toEqual([2000, 4000, 6000]);
  });

  it('stops at the first settled answer', async () => {
    const seq = [answer('pending'), answer('success')];
    let calls = 0;
    const res = await verifyWithRetries({ verify: () => Promise.resolve(seq[calls++]!), sleep: () => Promise.resolve() });
    expect(res.status).toBe('success');
    expect(calls).toBe(2);
  });

  it('retries a request error up to twice, then gives up with the error', async () => {
    let calls = 0;
    const err = new Error('down');
    await expect(
      verifyWithRetries({
        verify: () => {
          calls++;
          return Promise.reject(err);
        },
        sleep: () => Promise.resolve(),
      }),
    ).rejects.toBe(err);
    expect(calls).toBe(3);
    let n = 0;
    const ok = await verifyWithRetries({
      verify: () => (n++ < 2 ? Promise.reject(err) : Promise.resolve(answer('success'))),
      sleep: () => Promise.resolve(),
    });
    expect(ok.status).toBe('success');
  });
});

describe('initiate schema', () => {
  it('upper-cases the admission number, lower-cases the email, turns naira into kobo', () => {
    const r = initiatePaymentSchema.parse({
      admission_number: 'stu-0001',
      full_name: 'Ada Eze',
      current_class: 'JSS 1A',
      current_session: '2025/2026',
      email: 'A@B.CO',
      amount: '100.10',
    });
    expect(r).toMatchObject({ admission_number: 'STU-0001', email: 'a@b.co', amount: 10_010, phone_number: null, term: null });
  });
});
