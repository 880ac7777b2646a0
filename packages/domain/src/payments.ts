import { z } from 'zod';
import { TERM_VALUES, type Term } from './constants';
import { isClassName } from './teaching';
import { nairaToKobo } from './money';
import { AUTH_MESSAGES } from './auth-constants';
import { textField } from './text';

/** Schemas, messages and rules of fees and online payment. */

export const PAYMENT_MIN_NAIRA = 100;
export const PAYMENT_MAX_NAIRA = 5_000_000;
export const PAYMENT_CURRENCY = 'NGN';

/** Stored payment statuses. `unpaid` is what a report shows for a student with no payment. */
export const PAYMENT_STATUSES = ['pending', 'successful', 'failed', 'abandoned'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type ReportPaymentStatus = 'successful' | 'pending' | 'unpaid';

/** What `POST /api/payments/verify/` answers in `status`. */
export type VerifyStatus = 'success' | 'pending' | 'failed' | 'abandoned';

export const PAYMENT_MESSAGES = {
  // Form rules. The spec gives the minimum message; the others follow its wording.
  admissionNumberRequired: 'Admission number is required',
  admissionNumberTooShort: 'Admission number must be at least 3 characters',
  fullNameRequired: 'Full name is required',
  fullNameTooShort: 'Full name must be at least 2 characters',
  classRequired: 'Class is required',
  classInvalid: 'Select a valid class',
  sessionRequired: 'Session is required',
  sessionInvalid: 'Select a valid session',
  termInvalid: 'Select a valid term',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  phoneInvalid: 'Phone number must be at least 10 characters of digits, spaces, hyphens or brackets',
  amountRequired: 'Amount is required',
  amountInvalid: 'Enter a valid amount',
  amountPositive: 'Amount must be greater than 0',
  amountMinimum: 'Minimum amount is ₦100',
  amountMaximum: 'Maximum amount is ₦5,000,000',
  amountDecimals: 'Amount can have at most 2 decimal places',
  correctErrors: 'Please correct the errors highlighted below.',
  // Flow
  redirecting: 'Redirecting to secure payment page...',
  initiationFailed: 'Payment initiation failed',
  verificationFailed: 'Payment verification failed. Please contact support.',
  verifying: 'Verifying your payment...',
  authorizationCreated: 'Authorization URL created',
  verified: 'Payment verified successfully',
  pending: 'Payment is still pending. We will confirm it as soon as the payment provider does.',
  declined: 'Payment was declined. No money was taken.',
  abandoned: 'Payment was not completed.',
  // Server-side refusals
  studentNotFound: 'No student found with this admission number',
  /** The one own-record message (AUTH_MESSAGES.ownRecordOnly); kept under this name for callers. */
  notYourRecord: AUTH_MESSAGES.ownRecordOnly,
  paymentNotFound: 'Payment not found.',
  receiptNotAvailable: 'A receipt is only available for a successful payment.',
  providerUnavailable: 'Service temporarily unavailable. Please try again later.',
  invalidSignature: 'Invalid signature.',
  referenceRequired: 'Reference is required',
  // Fee schedules (beyond the spec)
  feeScheduleExists: 'A fee schedule for this class, session and term already exists.',
  feeScheduleNotFound: 'Fee schedule not found.',
  feeScheduleSaved: 'Fee schedule saved',
  feeScheduleDeleted: 'Fee schedule deleted',
  descriptionTooLong: 'Description must be at most 200 characters',
  // Screens
  noPayments: 'No payments found',
  noStudents: 'No students found',
  noOutstanding: 'You have no outstanding fees for this session.',
} as const;

/** Errors of the payment client by HTTP status. */
export const PAYMENT_HTTP_MESSAGES = {
  timeout: 'Request timeout. Please check your connection and try again.',
  400: 'Invalid request data.',
  401: 'Authentication failed. Please login again.',
  403: 'You do not have permission to perform this action.',
  404: 'Requested resource not found.',
  409: 'A payment with these details already exists.',
  422: 'Validation failed.',
  429: 'Too many requests. Please try again later.',
  500: 'Server error. Please try again later.',
  503: 'Service temporarily unavailable. Please try again later.',
  network: 'Network error. Please check your internet connection.',
} as const;

/** Online payment switched off or misaddressed, and the simulator's checkout. */
export const ONLINE_PAYMENT_MESSAGES = {
  off: 'Online payment is not set up for this school yet. Please pay at the bursary or contact the school.',
  hostNotAllowed: 'This address is not one the portal answers payments for. Open the portal through its usual address.',
  checkoutNotFound: 'This checkout link is not valid.',
  outcomeInvalid: 'Choose Pay, Decline or Abandon',
} as const;
/** `code` of the 503 that initiate answers while online payment is off. */
export const ONLINE_PAYMENT_OFF_CODE = 'online_payment_off';

/** GET /api/payments/provider/: whether this portal takes payments online, and through what. */
export interface PaymentProviderInfo {
  online_payment: boolean;
  provider: 'paystack' | 'simulator' | null;
  /** Shown on the payment screens when online payment is off. */
  message: string | null;
}

export const SIMULATOR_OUTCOMES = ['pay', 'decline', 'abandon'] as const;
export type SimulatorOutcome = (typeof SIMULATOR_OUTCOMES)[number];
export const simulatorCompleteSchema = z.object({
  outcome: z.enum(SIMULATOR_OUTCOMES, { error: ONLINE_PAYMENT_MESSAGES.outcomeInvalid }),
});

/** GET /api/payments/simulator/:code/: the simulator's checkout, shown only to the payer (or an admin). */
export interface SimulatorCheckout {
  merchant: string;
  amount: number;
  email: string;
  reference: string;
  status: 'pending' | 'success' | 'failed' | 'abandoned';
  /** Where the payer goes afterwards (Paystack's `callback?trxref=&reference=`). */
  return_url: string;
}

/** The first message a server error body carries: detail, non_field_errors, then field errors. */
export function serverMessageOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  for (const key of ['detail', 'message', 'error']) if (typeof b[key] === 'string' && b[key]) return b[key];
  const lists = [
    b.non_field_errors,
    ...Object.entries(b)
      .filter(([k]) => k !== 'non_field_errors')
      .map(([, v]) => v),
  ];
  for (const v of lists) {
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  return undefined;
}

/** The message the payment screens show for a failed call. */
export function paymentErrorMessage(err: { kind: 'http' | 'timeout' | 'network'; status: number; data?: unknown }): string {
  if (err.kind === 'timeout') return PAYMENT_HTTP_MESSAGES.timeout;
  if (err.kind === 'network' || err.status === 0) return PAYMENT_HTTP_MESSAGES.network;
  const server = serverMessageOf(err.data);
  switch (err.status) {
    case 400:
      return server ?? PAYMENT_HTTP_MESSAGES[400];
    case 401:
      return PAYMENT_HTTP_MESSAGES[401];
    case 403:
      return PAYMENT_HTTP_MESSAGES[403];
    case 404:
      return PAYMENT_HTTP_MESSAGES[404];
    case 409:
      return PAYMENT_HTTP_MESSAGES[409];
    case 422:
      return server ?? PAYMENT_HTTP_MESSAGES[422];
    case 429:
      return PAYMENT_HTTP_MESSAGES[429];
    case 503:
      // Online payment switched off is not a passing outage: say what to do instead.
      return (err.data as { code?: unknown } | undefined)?.code === ONLINE_PAYMENT_OFF_CODE
        ? (server ?? PAYMENT_HTTP_MESSAGES[503])
        : PAYMENT_HTTP_MESSAGES[503];
    default:
      return err.status >= 500 ? PAYMENT_HTTP_MESSAGES[500] : (server ?? PAYMENT_HTTP_MESSAGES[400]);
  }
}

/**
 * The amount input keeps only digits and one decimal point, trimmed to 2 decimals:
 * "1,2a3.456.7" -> "123.45".
 */
export function sanitizeAmountInput(raw: string): string {
  const cleaned = raw.replace(/[^\d.]/g, '');
  const dot = cleaned.indexOf('.');
  if (dot === -1) return cleaned;
  const whole = cleaned.slice(0, dot);
  const frac = cleaned
    .slice(dot + 1)
    .replace(/\./g, '')
    .slice(0, 2);
  return `${whole}.${frac}`;
}

/** Phone: optional; else at least 10 characters of digits, spaces, hyphens, brackets, optional leading +. */
export const PHONE_PATTERN = /^\+?[\d\s\-()]{10,}$/;

/** Checks a naira amount (number or decimal string) against every rule; returns kobo. */
export function checkAmount(value: unknown): { ok: true; kobo: number } | { ok: false; message: string } {
  if (value === undefined || value === null || value === '') return { ok: false, message: PAYMENT_MESSAGES.amountRequired };
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, message: PAYMENT_MESSAGES.amountInvalid };
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
    if (text === '') return { ok: false, message: PAYMENT_MESSAGES.amountRequired };
  } else {
    return { ok: false, message: PAYMENT_MESSAGES.amountInvalid };
  }
  if (/^-/.test(text) && /^-\d+(\.\d+)?$/.test(text)) return { ok: false, message: PAYMENT_MESSAGES.amountPositive };
  if (!/^\d+(\.\d+)?$/.test(text) && !/^\d+\.$/.test(text)) return { ok: false, message: PAYMENT_MESSAGES.amountInvalid };
  if (text.endsWith('.')) text = text.slice(0, -1);
  const [whole = '0', frac = ''] = text.split('.');
  if (/^0*$/.test(whole) && /^0*$/.test(frac)) return { ok: false, message: PAYMENT_MESSAGES.amountPositive };
  if (frac.length > 2) return { ok: false, message: PAYMENT_MESSAGES.amountDecimals };
  // Compare on integers: whole naira beyond the maximum never needs exact kobo.
  if (whole.replace(/^0+/, '').length > 7) return { ok: false, message: PAYMENT_MESSAGES.amountMaximum };
  const kobo = nairaToKobo(`${whole}${frac ? `.${frac}` : ''}`);
  if (kobo < PAYMENT_MIN_NAIRA * 100) return { ok: false, message: PAYMENT_MESSAGES.amountMinimum };
  if (kobo > PAYMENT_MAX_NAIRA * 100) return { ok: false, message: PAYMENT_MESSAGES.amountMaximum };
  return { ok: true, kobo };
}

const requiredText = (required: string, label: string) =>
  z.preprocess((v) => (v === null || v === undefined ? '' : v), textField(label, { error: required, required }).trim().min(1, required));

/** The amount field: a naira number or decimal string, checked by {@link checkAmount}; becomes kobo. */
export const amountSchema = z.unknown().transform((v, ctx) => {
  const r = checkAmount(v);
  if (!r.ok) {
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  }
  return r.kobo;
});

/** Order of the form's fields: the first invalid one is focused. */
export const PAYMENT_FORM_FIELDS = [
  'admission_number',
  'full_name',
  'current_class',
  'current_session',
  'email',
  'phone_number',
  'amount',
] as const;
export type PaymentFormField = (typeof PAYMENT_FORM_FIELDS)[number];

/** POST /api/payments/initiate/, validated identically by the form and the server. */
export const initiatePaymentSchema = z.object({
  admission_number: requiredText(PAYMENT_MESSAGES.admissionNumberRequired, 'Admission number')
    .pipe(z.string().min(3, PAYMENT_MESSAGES.admissionNumberTooShort).max(30, PAYMENT_MESSAGES.studentNotFound))
    .transform((s) => s.toUpperCase()),
  full_name: requiredText(PAYMENT_MESSAGES.fullNameRequired, 'Full name').pipe(
    z.string().min(2, PAYMENT_MESSAGES.fullNameTooShort).max(120, PAYMENT_MESSAGES.fullNameTooShort),
  ),
  current_class: requiredText(PAYMENT_MESSAGES.classRequired, 'Class').pipe(z.string().refine(isClassName, PAYMENT_MESSAGES.classInvalid)),
  current_session: requiredText(PAYMENT_MESSAGES.sessionRequired, 'Session').pipe(z.string().max(40, PAYMENT_MESSAGES.sessionInvalid)),
  email: requiredText(PAYMENT_MESSAGES.emailRequired, 'Email')
    .pipe(z.string().max(254, PAYMENT_MESSAGES.emailInvalid).pipe(z.email(PAYMENT_MESSAGES.emailInvalid)))
    .transform((e) => e.toLowerCase()),
  phone_number: z
    .preprocess(
      (v) => (v === undefined || v === null ? null : typeof v === 'string' ? v.trim() || null : v),
      z.string().max(20, PAYMENT_MESSAGES.phoneInvalid).regex(PHONE_PATTERN, PAYMENT_MESSAGES.phoneInvalid).nullable(),
    )
    .optional()
    .transform((v) => v ?? null),
  amount: amountSchema,
  /** Beyond the spec: the term the payment is for (the form fills it from the fee schedule). */
  term: z
    .preprocess((v) => (v === '' ? null : v), z.enum(TERM_VALUES, { error: PAYMENT_MESSAGES.termInvalid }).nullable())
    .optional()
    .transform((v) => v ?? null),
  /**
   * Beyond the spec: paying a term already paid in full, or more than the outstanding
   * balance, is refused with a 409 (`code` term_already_paid / exceeds_balance) unless this is true.
   */
  confirm: z.boolean({ error: 'Confirm must be true or false' }).optional().default(false),
});
export type InitiatePaymentInput = z.input<typeof initiatePaymentSchema>;
export type InitiatePayment = z.output<typeof initiatePaymentSchema>;

export const verifyPaymentSchema = z.object({
  reference: requiredText(PAYMENT_MESSAGES.referenceRequired, 'Reference').pipe(z.string().max(100, PAYMENT_MESSAGES.paymentNotFound)),
});

export const historyQuerySchema = z.object({
  admission_number: requiredText(PAYMENT_MESSAGES.admissionNumberRequired, 'Admission number')
    .pipe(z.string().max(30))
    .transform((s) => s.toUpperCase()),
});

export const reportQuerySchema = z.object({
  class: requiredText(PAYMENT_MESSAGES.classRequired, 'Class').pipe(z.string().refine(isClassName, PAYMENT_MESSAGES.classInvalid)),
  /** Beyond the spec: which session (name); the current session when omitted. */
  session: textField('Session').trim().max(40).optional(),
  /** Beyond the spec: figures for one term's fees; the whole session when omitted. */
  term: z.preprocess((v) => (v === '' ? undefined : v), z.enum(TERM_VALUES, { error: PAYMENT_MESSAGES.termInvalid }).optional()),
});

export const feeScheduleInputSchema = z.object({
  student_class: requiredText(PAYMENT_MESSAGES.classRequired, 'Class').pipe(z.string().refine(isClassName, PAYMENT_MESSAGES.classInvalid)),
  session_id: z.coerce
    .number({ error: PAYMENT_MESSAGES.sessionRequired })
    .int(PAYMENT_MESSAGES.sessionRequired)
    .positive(PAYMENT_MESSAGES.sessionRequired),
  term: z.enum(TERM_VALUES, { error: PAYMENT_MESSAGES.termInvalid }),
  amount: amountSchema,
  description: textField('Description').trim().max(200, PAYMENT_MESSAGES.descriptionTooLong).default(''),
});
export const feeScheduleUpdateSchema = feeScheduleInputSchema.pick({ amount: true, description: true });

/** Payment, amounts in naira; `term`, `currency`, `paid_at` added beyond the spec. */
export interface Payment {
  id: number;
  admission_number: string;
  full_name: string;
  current_class: string;
  current_session: string;
  email: string;
  phone_number: string | null;
  amount: number;
  reference: string;
  status: PaymentStatus;
  created_at: string;
  term: Term | null;
  currency: string;
  paid_at: string | null;
  /** An offline payment's day as the bursar recorded it (no time of day); null for online payments. */
  paid_on?: string | null;
}

export interface ClassReportSummary {
  class: string;
  session: string | null;
  /** The term the figures are for, or null for the whole session. */
  term: Term | null;
  students: number;
  /** Paid in full. */
  paid: number;
  part_paid: number;
  /** Students with a payment still pending with the provider (they are counted in the others too). */
  pending: number;
  /** Nothing paid. */
  unpaid: number;
  amount_due: number;
  amount_paid: number;
  outstanding: number;
}

export interface InitiateResponse {
  status: 'success';
  message: string;
  data: { authorization_url: string; access_code: string | null; reference: string };
}

export interface VerifyResponse {
  status: VerifyStatus;
  message: string;
  reference?: string;
}

export interface PaymentSessionOption {
  id: number;
  name: string;
  is_current: boolean;
}

/** Verify retries: pending up to 3 times (2 s x attempt); request errors up to twice. */
export interface VerifyLoopOptions {
  verify: () => Promise<VerifyResponse>;
  sleep: (ms: number) => Promise<void>;
  pendingRetries?: number;
  pendingDelayPerAttempt?: number;
  errorRetries?: number;
}

export async function verifyWithRetries(o: VerifyLoopOptions): Promise<VerifyResponse> {
  const pendingRetries = o.pendingRetries ?? 3;
  const perAttempt = o.pendingDelayPerAttempt ?? 2000;
  const errorRetries = o.errorRetries ?? 2;
  let pendingAttempts = 0;
  let errorAttempts = 0;
  for (;;) {
    let res: VerifyResponse;
    try {
      res = await o.verify();
    } catch (err) {
      if (errorAttempts >= errorRetries) throw err;
      errorAttempts++;
      continue;
    }
    if (res.status !== 'pending' || pendingAttempts >= pendingRetries) return res;
    pendingAttempts++;
    await o.sleep(perAttempt * pendingAttempts);
  }
}
