import { describe, expect, it } from 'vitest';
import { BURSARY_MESSAGES } from '@portal/domain/bursary';
import { TRANSFER_REPORT_MESSAGES } from '@portal/domain/transfer-reports';
import { emptyTransferForm, transferBody, transferErrors } from './transfer-model';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const filled = () => ({
  ...emptyTransferForm('3', '2026-01-10'),
  amount: '15000',
  method: 'bank_transfer',
  bank: 'GTBank',
  bank_reference: 'TRF-1',
  scan: PNG,
});

describe('the Report a Payment form', () => {
  it('sends general as a null term and the term chosen otherwise', () => {
    expect(transferBody(filled()).term).toBeNull();
    expect(transferBody({ ...filled(), term: '2nd' }).term).toBe('2nd');
  });

  it('says what is missing with the server’s messages, one a field', () => {
    const errs = transferErrors(emptyTransferForm('3', '2026-01-10'), '2026-01-10');
    expect(errs.scan).toEqual([TRANSFER_REPORT_MESSAGES.scanRequired]);
    expect(errs.bank).toEqual([BURSARY_MESSAGES.bankRequired]);
    expect(errs.bank_reference).toEqual([BURSARY_MESSAGES.referenceRequired]);
    expect(errs.method).toEqual([BURSARY_MESSAGES.methodRequired]);
    expect(errs.amount).toHaveLength(1);
    expect(transferErrors(filled(), '2026-01-10')).toEqual({});
  });

  it('refuses a date after the school’s today', () => {
    expect(transferErrors({ ...filled(), paid_on: '2026-01-11' }, '2026-01-10')).toEqual({ paid_on: [BURSARY_MESSAGES.paidOnFuture] });
  });
});
