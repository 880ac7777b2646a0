import { STORAGE_KEYS } from '@portal/domain/auth-constants';
import { termLabel, type Term } from '@portal/domain/constants';
import { FEE_MESSAGES, paymentWarning, TERM_ALREADY_PAID_CODE, type FeeBalance, type TermBalance } from '@portal/domain/fees';
import { nairaToKobo } from '@portal/domain/money';
import type { PaymentContext } from '@portal/domain/payment-views';
import { formatNaira } from './format';

export type FormValues = {
  admission_number: string;
  full_name: string;
  current_class: string;
  current_session: string;
  email: string;
  phone_number: string;
  amount: string;
  term: string;
};

export const EMPTY: FormValues = {
  admission_number: '',
  full_name: '',
  current_class: '',
  current_session: '',
  email: '',
  phone_number: '',
  amount: '',
  term: '',
};

export function readDraft(): FormValues | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.paymentDraft);
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<FormValues>;
    const out = { ...EMPTY };
    for (const k of Object.keys(EMPTY) as (keyof FormValues)[]) if (typeof d[k] === 'string') out[k] = d[k];
    return out;
  } catch {
    return null;
  }
}

/** The child a parent last paid for: the page back from the provider is about that child. */
const LAST_PAYMENT_CHILD = 'lastPaymentChild';

export const storage = {
  lastReference: () => localStorage.getItem(STORAGE_KEYS.lastPaymentReference),
  setLastReference: (r: string) => localStorage.setItem(STORAGE_KEYS.lastPaymentReference, r),
  clearLastReference: () => localStorage.removeItem(STORAGE_KEYS.lastPaymentReference),
  lastPaymentChild: () => localStorage.getItem(LAST_PAYMENT_CHILD),
  setLastPaymentChild: (admission: string) => localStorage.setItem(LAST_PAYMENT_CHILD, admission),
};

/** The saved draft, when it is this form's: a parent's draft for one child never fills another's form. */
export function draftFor(child: string | null): FormValues | null {
  const d = readDraft();
  return d && (!child || d.admission_number.trim().toUpperCase() === child) ? d : null;
}

export type Banner = { tone: 'error' | 'success' | 'info' | 'warning'; text: string; reference?: string } | null;
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

type StudentFees = NonNullable<PaymentContext['student']>;
const kobo = (naira: number) => nairaToKobo(naira.toFixed(2));

/** A restored draft is kept only while it still fits what is owed now. */
export function draftIsStale(f: FormValues, st: StudentFees): boolean {
  if (st.amount_due === 0) return false;
  const t = st.terms.find((x) => x.term === f.term);
  if (t && t.amount_due > 0 && t.balance === 0) return true;
  const amount = Number(f.amount);
  return Number.isFinite(amount) && kobo(amount) > kobo(st.outstanding);
}

/** The warning to confirm before paying a term already paid in full or more than the balance. */
export function warningText(st: StudentFees, amountKobo: number, term: Term | null): string | null {
  const session: FeeBalance = {
    due: kobo(st.amount_due),
    paid: kobo(st.amount_paid),
    balance: kobo(st.outstanding),
    credit: 0,
    status: st.status,
  };
  const terms: TermBalance[] = st.terms.map((t) => ({
    term: t.term,
    due: kobo(t.amount_due),
    paid: kobo(t.amount_paid),
    balance: kobo(t.balance),
    credit: 0,
    status: t.status,
  }));
  const w = paymentWarning(session, terms, amountKobo, term);
  if (w === TERM_ALREADY_PAID_CODE) return FEE_MESSAGES.termAlreadyPaid(termLabel(term ?? ''));
  if (w === 'exceeds_balance')
    return session.balance === 0
      ? FEE_MESSAGES.nothingOutstanding
      : FEE_MESSAGES.exceedsBalance(formatNaira(amountKobo / 100), formatNaira(st.outstanding));
  return null;
}
