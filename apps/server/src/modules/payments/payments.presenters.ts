import { koboToNaira, PAYMENT_METHOD_LABELS, type Payment, type Receipt, type SchoolSettings, type Term, personName } from '@portal/domain';
import type { PaymentRow } from './payments.repository';

/** A payment as the API shows it, amounts in naira. */
export function presentPayment(p: PaymentRow & { session_name?: string | null }): Payment {
  return {
    id: p.id,
    admission_number: p.admission_number,
    full_name: p.full_name,
    current_class: p.current_class,
    // The session as it is named now (a renamed session's payments follow it).
    current_session: p.session_name ?? p.current_session,
    email: p.email,
    phone_number: p.phone_number,
    amount: koboToNaira(p.amount_kobo),
    reference: p.reference,
    status: p.status,
    created_at: p.created_at,
    term: (p.term as Term | null) ?? null,
    currency: p.currency,
    paid_at: p.paid_at,
    // Offline only: the bursar records a day, not a time (an online payment has its moment).
    paid_on: p.provider === 'offline' ? (p.paid_on ?? null) : null,
  };
}

/** A receipt: the student named from their record when there is one, never from what the payer typed. */
export function presentReceipt(
  p: PaymentRow & { paid_at: string },
  record: { admission_number: string; first_name: string; last_name: string; student_class: string } | undefined,
  school: SchoolSettings,
): Receipt {
  return {
    reference: p.reference,
    admission_number: record?.admission_number ?? p.admission_number,
    full_name: record ? personName(record) : p.full_name,
    current_class: record?.student_class ?? p.current_class,
    current_session: p.current_session,
    term: (p.term as Term | null) ?? null,
    email: p.email,
    phone_number: p.phone_number,
    amount: koboToNaira(p.amount_kobo),
    currency: p.currency,
    status: p.status,
    paid_at: p.paid_at,
    provider: p.provider === 'paystack' ? 'Paystack' : p.provider === 'offline' ? PAYMENT_METHOD_LABELS[p.method] : 'Payment simulator',
    receipt_number: p.receipt_number,
    method: p.method,
    bank: p.bank,
    bank_reference: p.bank_reference,
    paid_on: p.paid_on,
    school: {
      name: school.school_name,
      address: school.address,
      phone: school.phone,
      email: school.email,
      motto: school.motto,
      time_zone: school.time_zone,
    },
  };
}
