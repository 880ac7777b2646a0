import type { PaymentMethod } from './bursary';
import type { Term } from './constants';
import type { DiscountShare } from './discounts';
import type { FeeItem, FeeStatus, TermFees } from './fees';
import type { PaymentSessionOption, PaymentStatus, ReportPaymentStatus } from './payments';

/**
 * What the payment screens read: shapes that join a payment with its fees, discounts and method.
 * Apart from payments.ts so that fees, discounts and the bursary can use payments' amount rules
 * without an import loop (payments.ts -> fees.ts -> payments.ts).
 */

/** Class payment report row plus the fee-schedule columns added beyond it. */
export interface ClassReportRow {
  admission_number: string;
  full_name: string;
  current_class: string;
  payment_status: ReportPaymentStatus;
  last_payment_amount: number | null;
  last_payment_date: string | null;
  amount_due: number;
  amount_paid: number;
  outstanding: number;
  /** Paid in full / part paid / unpaid against the compulsory fees due (or `term`'s). */
  status: FeeStatus;
  /** What is still owed (the same as `outstanding`). */
  balance: number;
  /** Each term with fees set, payments settling the terms in order. */
  terms: TermFees[];
}

/** A fee schedule is one fee item: the original fields plus `name` and `compulsory`. */
export type FeeSchedule = FeeItem;

/** GET /api/payments/context/: what the form needs, and the signed-in student's fees. */
export interface PaymentContext {
  sessions: PaymentSessionOption[];
  current_session: string | null;
  student: null | {
    admission_number: string;
    full_name: string;
    current_class: string;
    email: string;
    phone_number: string | null;
    /** The term the next payment is for, or null when nothing is owed. */
    term: Term | null;
    /** Fees of the current session in naira. */
    amount_due: number;
    amount_paid: number;
    outstanding: number;
    /** What clears the fees up to and including `term`. */
    suggested_amount: number;
    /** Naira brought forward from the previous session (negative = credit), counted in `amount_due`/`outstanding` (decision 041). */
    brought_forward?: number;
    brought_forward_from?: string | null;
    /** The session's status, each term's figures and the items behind them. */
    status: FeeStatus;
    terms: TermFees[];
    items: FeeItem[];
    /** The student's discounts in force this session and what each takes (already out of `amount_due`). */
    discounts: DiscountShare[];
  };
}

export interface Receipt {
  reference: string;
  admission_number: string;
  full_name: string;
  current_class: string;
  current_session: string;
  term: Term | null;
  email: string;
  phone_number: string | null;
  amount: number;
  currency: string;
  status: PaymentStatus;
  paid_at: string;
  provider: string;
  /** The bursar's office: the number from the one receipt sequence (absent on old receipts). */
  receipt_number?: string | null;
  /** 'online', or how an offline payment was made; offline payments also name the bank and its reference. */
  method?: PaymentMethod;
  bank?: string;
  bank_reference?: string;
  /** The day the money was paid (YYYY-MM-DD, the school's date). */
  paid_on?: string | null;
  /** The session's discounts in force for the student (label, naira), and what the student owed once this payment counted. */
  discounts?: DiscountShare[];
  balance_after?: number | null;
  /** The school's name, address and contact. `time_zone`: the school's, for the receipt's date on screen and in the PDF alike. */
  school: { name: string; address: string; phone: string; email: string; motto: string; time_zone?: string };
}
