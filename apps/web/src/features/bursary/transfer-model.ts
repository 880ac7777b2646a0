import { BURSARY_MESSAGES } from '@portal/domain/bursary';
import { TERM_VALUES, type Term } from '@portal/domain/constants';
import { transferReportSchema, type TransferReportInput, type TransferReportMethod } from '@portal/domain/transfer-reports';
import { issueErrors } from '../../lib/form-errors';

/** The student's Report a Payment form as typed: every field a string, the slip a data URL or ''. */
export interface TransferForm {
  session_id: string;
  /** '' = general (the whole session). */
  term: string;
  amount: string;
  method: string;
  bank: string;
  bank_reference: string;
  paid_on: string;
  note: string;
  scan: string;
}
export type TransferField = keyof TransferForm;
export type TransferErrors = Partial<Record<TransferField, string[]>>;

/** The fields in screen order, for focusing the first one in error. */
export const TRANSFER_FIELDS: readonly TransferField[] = [
  'session_id',
  'term',
  'amount',
  'method',
  'bank',
  'bank_reference',
  'paid_on',
  'note',
  'scan',
];

export function emptyTransferForm(sessionId: string, today: string): TransferForm {
  return { session_id: sessionId, term: '', amount: '', method: '', bank: '', bank_reference: '', paid_on: today, note: '', scan: '' };
}

export function transferBody(form: TransferForm): TransferReportInput {
  return {
    session_id: form.session_id,
    term: (TERM_VALUES as readonly string[]).includes(form.term) ? (form.term as Term) : null,
    amount: form.amount.trim(),
    method: form.method as TransferReportMethod,
    bank: form.bank,
    bank_reference: form.bank_reference,
    paid_on: form.paid_on,
    note: form.note,
    scan: form.scan,
  };
}

/** The form checked by the server's own schema, plus the date against the school's today; {} when it may be sent. */
export function transferErrors(form: TransferForm, today: string): TransferErrors {
  const parsed = transferReportSchema.safeParse(transferBody(form));
  const errors: TransferErrors = parsed.success ? {} : issueErrors(parsed.error, { depth: 1 });
  if (!errors.paid_on && form.paid_on > today) errors.paid_on = [BURSARY_MESSAGES.paidOnFuture];
  return errors;
}
