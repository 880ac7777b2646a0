/**
 * Guards on requests that create money records: the window a payment date must fall in,
 * the retry key every such request carries, and the bursar's "a second cash payment today?" question.
 */
import { formatDate } from './datetime';
import { formatNaira } from './money';

// ---------------------------------------------------------------- payment dates (30.5)

/** An ISO day moved by whole years (29 February falls back to 28 February). */
export function shiftYears(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const year = String(y + years).padStart(4, '0');
  const month = String(m).padStart(2, '0');
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  return `${year}-${month}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/**
 * The days a payment may be dated: from one year before the current session's first term (one year
 * before today while that term has no dates) to today, both in the school's time zone.
 */
export function paymentDateWindow(today: string, firstTermStart: string | null | undefined): { min: string; max: string } {
  const from = firstTermStart && firstTermStart < today ? firstTermStart : today;
  return { min: shiftYears(from, -1), max: today };
}

export const PAYMENT_DATE_MESSAGES = {
  future: 'The payment date cannot be in the future.',
  tooEarly: (min: string) => `The payment date cannot be before ${formatDate(min)} (a year before this session's first term).`,
} as const;

/** The message for a payment date outside its window, or null when it is inside. */
export function paymentDateProblem(paidOn: string, window: { min: string; max: string }): string | null {
  if (paidOn > window.max) return PAYMENT_DATE_MESSAGES.future;
  if (paidOn < window.min) return PAYMENT_DATE_MESSAGES.tooEarly(window.min);
  return null;
}

// ---------------------------------------------------------------- retries (30.4)

/** The request header that makes a money-creating request safe to retry. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key's first answer is kept and replayed. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A key is 8 to 100 of these characters (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: 'The Idempotency-Key header must be 8 to 100 letters, digits, dashes or underscores.',
  keyReused: 'This Idempotency-Key was already used for a different request. Start the form again.',
  inProgress: 'This request is still being processed. Wait a moment and try again.',
} as const;

// ---------------------------------------------------------------- a second cash payment today (30.4)

/** The 409 `code` when the same cash amount was already recorded for the student that day. */
export const DUPLICATE_CASH_CODE = 'possible_duplicate';

export const DUPLICATE_CASH_MESSAGES = {
  question: (amount: number, receipt: string) =>
    `A cash payment of ${formatNaira(amount)} was already recorded for this student on this day (receipt ${receipt}). Is this a second payment?`,
  confirm: 'Yes, record a second payment',
} as const;
