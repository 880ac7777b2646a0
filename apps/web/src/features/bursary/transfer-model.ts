import { BURSARY_MESSAGES } from '@portal/domain/bursary';
import { transferReportSchema, type TransferReportInput, type TransferReportMethod } from '@portal/domain/transfer-reports';
import { issueErrors } from '../../lib/form-errors';
import { emptySlipForm, slipBody, SLIP_FIELDS, type SlipForm } from './slip-model';

/** The student's Report a Payment form as typed: just the slip (the student is who sends it). */
export type TransferForm = SlipForm;
export type TransferField = keyof TransferForm;
export type TransferErrors = Partial<Record<TransferField, string[]>>;

/** The fields in screen order, for focusing the first one in error. */
export const TRANSFER_FIELDS: readonly TransferField[] = SLIP_FIELDS;

export const emptyTransferForm = emptySlipForm;

export function transferBody(form: TransferForm): TransferReportInput {
  return { ...slipBody(form), method: form.method as TransferReportMethod };
}

/** The form checked by the server's own schema, plus the date against the school's today; {} when it may be sent. */
export function transferErrors(form: TransferForm, today: string): TransferErrors {
  const parsed = transferReportSchema.safeParse(transferBody(form));
  const errors: TransferErrors = parsed.success ? {} : issueErrors(parsed.error, { depth: 1 });
  if (!errors.paid_on && form.paid_on > today) errors.paid_on = [BURSARY_MESSAGES.paidOnFuture];
  return errors;
}
