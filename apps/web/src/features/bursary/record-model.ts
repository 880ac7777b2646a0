import {
  BANKED_METHODS,
  BURSARY_MESSAGES,
  SCAN_MAX_BYTES,
  SCAN_TYPES,
  offlinePaymentSchema,
  type OfflineMethod,
  type OfflinePaymentInput,
} from '@portal/domain/bursary';
import type { PaymentAllocation } from '@portal/domain/arrears';
import { paymentDateProblem } from '@portal/domain/money-guards';
import { checkAmount } from '@portal/domain/payments';
import { issueErrors } from '../../lib/form-errors';
import { emptySlipForm, slipBody, SLIP_FIELDS, type SlipForm } from './slip-model';

/** The Record a Payment form as typed: the slip's fields, whose payment it is, and what it pays first (decision 041). */
export type RecordForm = { admission_number: string; allocation: PaymentAllocation } & SlipForm;
export type RecordField = keyof RecordForm;
export type RecordErrors = Partial<Record<RecordField, string[]>>;

/** The fields in screen order, for focusing the first one in error. */
export const RECORD_FIELDS: readonly RecordField[] = ['admission_number', ...SLIP_FIELDS, 'allocation'];

export function emptyRecordForm(sessionId: string, today: string): RecordForm {
  return { admission_number: '', allocation: 'arrears_first', ...emptySlipForm(sessionId, today) };
}

/** Transfer, teller and POS go through a bank: bank and reference are asked for; cash hides them. */
export function needsBank(method: string): boolean {
  return (BANKED_METHODS as readonly string[]).includes(method);
}

/** The amount typed, in kobo, or the message saying what is wrong with it (the server's rule). */
export function parseAmount(text: string): { kobo: number } | { error: string } {
  const r = checkAmount(text);
  return r.ok ? { kobo: r.kobo } : { error: r.message };
}

/** A chosen scan file's problem before it is read and sent, or null when it may go. */
export function scanProblem(file: { type: string; size: number }): string | null {
  if (!(SCAN_TYPES as readonly string[]).includes(file.type)) return BURSARY_MESSAGES.scanInvalid;
  if (file.size > SCAN_MAX_BYTES) return BURSARY_MESSAGES.scanTooLarge;
  return null;
}

/** What is sent: cash carries no bank fields (whatever was typed before switching to cash). */
export function recordBody(form: RecordForm): OfflinePaymentInput {
  const banked = needsBank(form.method);
  return {
    admission_number: form.admission_number.trim().toUpperCase(),
    ...slipBody(form),
    method: form.method as OfflineMethod,
    bank: banked ? form.bank : '',
    bank_reference: banked ? form.bank_reference : '',
    allocation: form.allocation,
  };
}

/**
 * The form checked by the domain's schema (the server's own rule) plus the date against the window
 * the server allows (`paymentDateWindow`); {} when it may be sent.
 */
export function recordErrors(form: RecordForm, dates: { min: string; max: string }): RecordErrors {
  const parsed = offlinePaymentSchema.safeParse(recordBody(form));
  const errors: RecordErrors = parsed.success ? {} : issueErrors(parsed.error, { depth: 1 });
  const dateProblem = errors.paid_on ? null : paymentDateProblem(form.paid_on, dates);
  if (dateProblem) errors.paid_on = [dateProblem];
  return errors;
}

/** The receipt a 409 duplicate bank reference names ("…(receipt R-000012)."), if any. */
export function clashingReceipt(detail: string | undefined): string | null {
  return /\(receipt (R-\d+)\)/.exec(detail ?? '')?.[1] ?? null;
}
