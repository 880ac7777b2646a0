import { describe, expect, it } from 'vitest';
import { BURSARY_MESSAGES, SCAN_MAX_BYTES } from '@portal/domain/bursary';
import { PAYMENT_DATE_MESSAGES, paymentDateWindow } from '@portal/domain/money-guards';
import { PAYMENT_MESSAGES } from '@portal/domain/payments';
import {
  clashingReceipt,
  emptyRecordForm,
  needsBank,
  parseAmount,
  recordBody,
  recordErrors,
  scanProblem,
  type RecordForm,
} from './record-model';

const TODAY = '2026-05-20';
const WINDOW = paymentDateWindow(TODAY, null);
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const form = (over: Partial<RecordForm> = {}): RecordForm => ({
  ...emptyRecordForm('3', TODAY),
  admission_number: 'stu-0001',
  amount: '15000',
  method: 'bank_teller',
  bank: 'First Bank',
  bank_reference: 'TLR-1',
  ...over,
});

describe('method → required fields', () => {
  it('asks bank and reference for transfer, teller and POS, not for cash', () => {
    expect(['bank_transfer', 'bank_teller', 'pos'].map(needsBank)).toEqual([true, true, true]);
    expect(needsBank('cash')).toBe(false);
    expect(needsBank('')).toBe(false);
  });

  it('refuses a banked method without bank and reference, with the domain messages', () => {
    const errs = recordErrors(form({ bank: '', bank_reference: ' ' }), WINDOW);
    expect(errs.bank).toEqual([BURSARY_MESSAGES.bankRequired]);
    expect(errs.bank_reference).toEqual([BURSARY_MESSAGES.referenceRequired]);
  });

  it('takes cash without bank fields and sends none of what was typed before switching', () => {
    const f = form({ method: 'cash', bank: 'First Bank', bank_reference: 'TLR-1' });
    expect(recordErrors(f, WINDOW)).toEqual({});
    expect(recordBody(f)).toMatchObject({ method: 'cash', bank: '', bank_reference: '' });
  });

  it('asks for a method', () => {
    expect(recordErrors(form({ method: '' }), WINDOW).method).toEqual([BURSARY_MESSAGES.methodRequired]);
  });

  it('sends the admission number upper case and an empty term as general (null)', () => {
    expect(recordBody(form({ term: '' }))).toMatchObject({ admission_number: 'STU-0001', term: null, session_id: '3' });
    expect(recordBody(form({ term: '2nd' })).term).toBe('2nd');
  });

  it('refuses a payment date after the school’s today', () => {
    expect(recordErrors(form({ paid_on: '2026-05-21' }), WINDOW).paid_on).toEqual([BURSARY_MESSAGES.paidOnFuture]);
    expect(recordErrors(form({ paid_on: TODAY }), WINDOW)).toEqual({});
    // Not before the window the server allows either.
    expect(recordErrors(form({ paid_on: '1900-01-01' }), WINDOW).paid_on).toEqual([PAYMENT_DATE_MESSAGES.tooEarly(WINDOW.min)]);
  });
});

describe('amount parsing', () => {
  it('turns naira into exact kobo', () => {
    expect(parseAmount('15000')).toEqual({ kobo: 1_500_000 });
    expect(parseAmount('100.29')).toEqual({ kobo: 10_029 });
    expect(parseAmount(' 2500.5 ')).toEqual({ kobo: 250_050 });
  });

  it('says what is wrong, in the payment form’s words', () => {
    expect(parseAmount('')).toEqual({ error: PAYMENT_MESSAGES.amountRequired });
    expect(parseAmount('12.345')).toEqual({ error: PAYMENT_MESSAGES.amountDecimals });
    expect(parseAmount('50')).toEqual({ error: PAYMENT_MESSAGES.amountMinimum });
    expect(parseAmount('abc')).toEqual({ error: PAYMENT_MESSAGES.amountInvalid });
    expect(recordErrors(form({ amount: '' }), WINDOW).amount).toEqual([PAYMENT_MESSAGES.amountRequired]);
  });
});

describe('scan checks', () => {
  it('takes PNG, JPEG and PDF up to 2 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'application/pdf']) expect(scanProblem({ type, size: SCAN_MAX_BYTES })).toBeNull();
  });

  it('refuses other types and larger files before reading them', () => {
    expect(scanProblem({ type: 'image/gif', size: 10 })).toBe(BURSARY_MESSAGES.scanInvalid);
    expect(scanProblem({ type: 'image/png', size: SCAN_MAX_BYTES + 1 })).toBe(BURSARY_MESSAGES.scanTooLarge);
  });

  it('accepts a PNG data URL in the form and refuses anything else', () => {
    expect(recordErrors(form({ scan: PNG }), WINDOW)).toEqual({});
    expect(recordErrors(form({ scan: 'data:text/html;base64,PGI+' }), WINDOW).scan).toEqual([BURSARY_MESSAGES.scanInvalid]);
  });
});

describe('duplicate reference', () => {
  it('reads the clashing receipt from the server’s message', () => {
    expect(clashingReceipt(BURSARY_MESSAGES.referenceTaken('R-000042'))).toBe('R-000042');
    expect(clashingReceipt(undefined)).toBeNull();
  });
});
