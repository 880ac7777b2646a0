import { TERM_VALUES, type Term } from '@portal/domain/constants';

/**
 * What a paid slip says, as typed (every field a string, the scan a data URL or ''): the part the
 * bursar's Record a Payment form and the student's Report a Payment form have in common.
 */
export type SlipForm = {
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
};
export type SlipField = keyof SlipForm;
export type SlipErrors = Partial<Record<SlipField, string[]>>;

/** The slip's fields in screen order, for focusing the first one in error. */
export const SLIP_FIELDS: readonly SlipField[] = [
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

export function emptySlipForm(sessionId: string, today: string): SlipForm {
  return { session_id: sessionId, term: '', amount: '', method: '', bank: '', bank_reference: '', paid_on: today, note: '', scan: '' };
}

/** The slip's part of a request body: general is a null term, the amount trimmed; the method as typed. */
export function slipBody(form: SlipForm) {
  return {
    session_id: form.session_id,
    term: (TERM_VALUES as readonly string[]).includes(form.term) ? (form.term as Term) : null,
    amount: form.amount.trim(),
    method: form.method,
    bank: form.bank,
    bank_reference: form.bank_reference,
    paid_on: form.paid_on,
    note: form.note,
    scan: form.scan,
  };
}
