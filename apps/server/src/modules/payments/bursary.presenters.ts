import { koboToNaira, type LedgerEntry, type Term } from '@portal/domain';
import type { AuthUser } from '../../http/auth';
import type { BursaryRepository } from './bursary.repository';

/** How the bursar's office shows its rows: ledger entries from the ledger query or a row just written. */
type LedgerRow = Awaited<ReturnType<BursaryRepository['ledger']>>[number];

export type RecordedRow = Awaited<ReturnType<BursaryRepository['insert']>> & {
  has_scan: number;
  replaces_reference: string | null;
  replaces_receipt_number: string | null;
};

/** The day a payment counts from: the day paid (offline), else the day the gateway settled it, else recorded. */
export function paidOnOf(r: { paid_on: string | null; paid_at: string | null; created_at: string }): string {
  return r.paid_on ?? (r.paid_at ?? r.created_at).slice(0, 10);
}

export function presentLedgerEntry(r: LedgerRow): LedgerEntry {
  const reversal = r.orig_reference !== null;
  return {
    reference: r.reference,
    receipt_number: r.receipt_number ?? '',
    kind: reversal ? 'reversal' : 'payment',
    admission_number: r.admission_number,
    full_name: r.full_name,
    student_class: r.current_class,
    session: r.current_session,
    term: (r.term as Term | null) ?? null,
    amount: koboToNaira(r.amount_kobo),
    method: r.method,
    bank: r.bank,
    bank_reference: r.bank_reference,
    paid_on: paidOnOf(r),
    note: r.note,
    has_scan: Number(r.has_scan) > 0,
    reverses: reversal ? { reference: r.orig_reference!, receipt_number: r.orig_receipt_number ?? '' } : null,
    reason: r.reason,
    reversed_by: r.reversed_by ?? null,
    replaces: r.replaces_reference ? { reference: r.replaces_reference, receipt_number: r.replaces_receipt_number ?? '' } : null,
    recorded_by: r.recorder_name?.trim() || r.recorder_email || null,
    recorded_at: r.created_at,
    allocation: r.allocation ?? 'arrears_first',
  };
}

/** A payment just recorded as a ledger entry, from the row written (no re-read: nothing reverses it yet). */
export function presentRecorded(row: RecordedRow, actor: Pick<AuthUser, 'email'>, recorderName: string | null): LedgerEntry {
  return presentLedgerEntry({
    ...row,
    orig_reference: null,
    orig_receipt_number: null,
    reversed_by: null,
    recorder_email: actor.email,
    recorder_name: recorderName,
  });
}
