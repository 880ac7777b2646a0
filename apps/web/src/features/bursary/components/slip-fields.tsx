import type { ChangeEvent, ReactElement } from 'react';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as BL } from '@portal/domain/bursary-screens';
import { TERMS } from '@portal/domain/constants';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { SessionSelect } from '../../../components/school/session-select';
import type { FieldErrors } from '../../../lib/schema-form';
import type { SlipField, SlipForm } from '../slip-model';
import { BankField } from './bank-field';
import { ScanField } from './scan-field';

type Change = ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>;

/** What differs between the bursar's record form and the student's report form around the same slip. */
export interface SlipFieldsOptions {
  /** The forms' id prefix (`rec`, `trf`): each control's id is `<prefix>-<field>`. */
  prefix: string;
  values: SlipForm;
  errors: FieldErrors;
  /** The change handler of a typed field. */
  set: (key: SlipField) => (e: Change) => void;
  /** A scan chosen (a data URL, or '' once removed). */
  setScan: (scan: string) => void;
  /** A chosen scan refused before it is read: shown under the field. */
  scanProblem: (message: string) => void;
  methods: readonly PaymentMethod[];
  methodPlaceholder: string;
  labels: { method: string; bankReferenceHint: string; term: string; note: string };
  /** The days the date may take. */
  dates: { min?: string; max: string };
  /** The scan's own label, hint and accepted types (default: the teller's scan). */
  scan?: { label: string; hint: string; accept: string; required: boolean };
}

/**
 * The slip's controls (amount, method, bank, reference, date, session, term, note, scan), each bound to
 * its value and error, for a form to lay out in its own order: the record form and the transfer report
 * ask the same things of a slip, in a different order.
 */
export function slipFields(o: SlipFieldsOptions): Record<SlipField, ReactElement> {
  const bind = (key: SlipField) => ({ id: `${o.prefix}-${key}`, value: o.values[key], onChange: o.set(key), error: o.errors[key] });
  return {
    amount: <TextField label={BL.amount} required inputMode="decimal" autoComplete="off" hint={BL.amountHint} {...bind('amount')} />,
    method: (
      <SelectField
        label={o.labels.method}
        required
        placeholder={o.methodPlaceholder}
        options={o.methods.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
        {...bind('method')}
      />
    ),
    bank: <BankField label={BL.bank} {...bind('bank')} />,
    bank_reference: (
      <TextField label={BL.bankReference} required autoComplete="off" hint={o.labels.bankReferenceHint} {...bind('bank_reference')} />
    ),
    paid_on: <TextField label={BL.paidOn} type="date" required min={o.dates.min} max={o.dates.max} {...bind('paid_on')} />,
    session_id: <SessionSelect label={BL.session} required {...bind('session_id')} />,
    term: <SelectField label={o.labels.term} options={TERMS} placeholder={BL.general} {...bind('term')} />,
    note: <TextAreaField label={o.labels.note} rows={2} {...bind('note')} />,
    scan: (
      <ScanField
        id={`${o.prefix}-scan`}
        {...o.scan}
        value={o.values.scan}
        onChange={o.setScan}
        onProblem={o.scanProblem}
        error={o.errors.scan}
      />
    ),
  };
}
