/**
 * The bursar's office, first part: the bursar capability, offline payments (bank
 * transfer, bank teller, cash, POS) recorded beside online payments with one receipt sequence,
 * the teller's scan, reversals, and a student's statement of account. Types, messages, schemas
 * and pure rules shared by the server and the web client. Money is integer kobo inside; naira in
 * the API, as elsewhere (`amountSchema` turns a naira amount into kobo).
 *
 * API (all under /api; "bursar" = a staff member holding the capability, or the admin):
 *   GET  /staff-capabilities/                     admin   → StaffCapabilities[] (every staff member)
 *   PUT  /staff-capabilities/{staff_id}/          admin   { capabilities: StaffCapability[] } → StaffCapabilities
 *   GET  /me/capabilities/                        staff, admin → { capabilities: StaffCapability[] } (admin: all)
 *   POST /bursary/payments/                       bursar  OfflinePaymentInput → LedgerEntry (201)
 *   POST /bursary/payments/{reference}/reverse/   bursar  { reason } → LedgerEntry (the reversal, 201)
 *   GET  /bursary/payments/?admission_number&bank_reference&session_id&method&from&to&page   bursar → LedgerPage
 *   GET  /bursary/payments/{reference}/scan/      bursar  → the stored teller scan (image or PDF)
 *   GET  /bursary/statement/?admission_number&session_id   bursar; the student their own → Statement
 *   GET  /bursary/ledger.csv?from&to              bursar  → every ledger entry as CSV (the accountant's)
 * The fee items' screens and calls (`/api/fee-items/…`, `/api/payments/report/…`) also admit the
 * bursar. A recorded payment credits the balance at once (it is a `successful` payment) and has the
 * same receipt as an online one (`GET /api/payments/receipt/{reference}/`), numbered from the one
 * receipt sequence. A reversal is a new entry of the negative amount, never an edit or a delete.
 */
import { z } from 'zod';
import type { Term } from './constants';
import { TERM_VALUES } from './constants';
import { textField } from './text';
import { amountSchema } from './payments';
import { isoDateField } from './report-card-schemas';
import { admissionNumberField, sessionIdField } from './result-schemas';
import { referenceKey, referenceProblem } from './bank-references';
import { paymentAllocationField, type PaymentAllocation } from './arrears';

// ---------- capabilities ----------

/** What a staff member may do beyond teaching, granted by the admin. The admin holds every one. */
export const STAFF_CAPABILITIES = ['bursar'] as const;
export type StaffCapability = (typeof STAFF_CAPABILITIES)[number];
export const STAFF_CAPABILITY_LABELS: Record<StaffCapability, string> = { bursar: 'Bursar' };
export const STAFF_CAPABILITY_DESCRIPTIONS: Record<StaffCapability, string> = {
  bursar: 'Fee items, recording and reversing payments, statements and fee reports',
};

export const staffCapabilitiesSchema = z.object({ capabilities: z.array(z.enum(STAFF_CAPABILITIES)).max(10) });
export interface StaffCapabilities {
  staff_id: string;
  name: string;
  email: string;
  capabilities: StaffCapability[];
}

// ---------- offline payments ----------

/** What the bursar records by hand (online payments come through the provider). */
export const OFFLINE_METHODS = ['bank_transfer', 'bank_teller', 'cash', 'pos'] as const;
export type OfflineMethod = (typeof OFFLINE_METHODS)[number];
export const PAYMENT_METHODS = ['online', ...OFFLINE_METHODS] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  online: 'Online (card)',
  bank_transfer: 'Bank transfer',
  bank_teller: 'Bank teller',
  cash: 'Cash',
  pos: 'POS',
};
/** Methods that go through a bank and so carry the bank's name and reference. */
export const BANKED_METHODS: readonly OfflineMethod[] = ['bank_transfer', 'bank_teller', 'pos'];

/** The teller scan: a PNG, JPEG or PDF as a data URL, at most this many bytes once decoded. */
export const SCAN_MAX_BYTES = 2 * 1024 * 1024;
export const SCAN_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;

export const BURSARY_MESSAGES = {
  bursarOnly: 'Only the bursar (or the admin) can do this.',
  methodRequired: 'Choose how the money was paid.',
  bankRequired: 'Name the bank.',
  referenceRequired: 'Give the bank reference (teller or transfer number).',
  referenceTaken: (receipt: string) => `This bank reference is already recorded (receipt ${receipt}).`,
  paidOnFuture: 'The payment date cannot be in the future.',
  scanTooLarge: 'The scan is too large (at most 2 MB).',
  scanInvalid: 'The scan must be a PNG or JPEG image or a PDF.',
  reasonRequired: 'Give the reason for the reversal.',
  notReversible: 'Only a successful payment can be reversed.',
  alreadyReversed: (receipt: string) => `This payment was already reversed (${receipt}).`,
  reversalNotReversible: 'A reversal cannot itself be reversed: record the payment again instead.',
  recorded: (receipt: string) => `Payment recorded: receipt ${receipt}.`,
  reversed: (receipt: string) => `Payment ${receipt} reversed.`,
  noScan: 'This payment has no scan.',
  capabilitiesSaved: 'Capabilities saved.',
  staffNotFound: 'No staff member with this id.',
} as const;

/** Receipt numbers: R-000001, one sequence for online and offline payments alike. */
export function formatReceiptNumber(n: number): string {
  return `R-${String(n).padStart(6, '0')}`;
}

/**
 * What an offline payment and a student's transfer report both check of the slip: the one bank
 * reference rule (bank-references.ts: a look-alike letter of another script is refused) and the
 * scan's type (PNG, JPEG or PDF data URL). A scan that is empty is not checked here.
 */
export function checkSlip(v: { bank_reference: string; scan: string }, ctx: z.RefinementCtx): void {
  const problem = v.bank_reference ? referenceProblem(v.bank_reference) : null;
  if (problem) ctx.addIssue({ code: 'custom', path: ['bank_reference'], message: problem });
  if (v.scan && !/^data:(image\/png|image\/jpeg|application\/pdf);base64,[A-Za-z0-9+/=]+$/.test(v.scan))
    ctx.addIssue({ code: 'custom', path: ['scan'], message: BURSARY_MESSAGES.scanInvalid });
}

export const offlinePaymentSchema = z
  .object({
    admission_number: admissionNumberField,
    session_id: sessionIdField,
    /** The term the payment is for; null = general (applied to the session's balance). */
    term: z.enum(TERM_VALUES).nullable(),
    amount: amountSchema,
    method: z.enum(OFFLINE_METHODS, { error: BURSARY_MESSAGES.methodRequired }),
    bank: textField('Bank').trim().max(80).default(''),
    bank_reference: textField('Bank reference').trim().max(60).default(''),
    paid_on: isoDateField,
    note: textField('Note').trim().max(300).default(''),
    /** Data URL of the teller or transfer slip, or '' for none. */
    scan: z.string().max(3_000_000, BURSARY_MESSAGES.scanTooLarge).default(''),
    /** The bursar's yes to "a second cash payment of this amount today?". */
    confirm: z.boolean().default(false),
    /** Arrears first (the default), or this term first (decision 041); stored on the payment. */
    allocation: paymentAllocationField,
  })
  .superRefine((v, ctx) => {
    if ((BANKED_METHODS as readonly string[]).includes(v.method)) {
      if (!v.bank) ctx.addIssue({ code: 'custom', path: ['bank'], message: BURSARY_MESSAGES.bankRequired });
      if (!referenceKey(v.bank_reference))
        ctx.addIssue({ code: 'custom', path: ['bank_reference'], message: BURSARY_MESSAGES.referenceRequired });
    }
    checkSlip(v, ctx);
  });
export type OfflinePaymentInput = z.input<typeof offlinePaymentSchema>;
export type OfflinePayment = z.output<typeof offlinePaymentSchema>;

export const reversalSchema = z.object({
  reason: textField('Reason', { required: BURSARY_MESSAGES.reasonRequired }).trim().min(1, BURSARY_MESSAGES.reasonRequired).max(300),
});

/** One entry of the ledger: a payment (online or offline) or a reversal of one. */
export interface LedgerEntry {
  reference: string;
  /** R-000123; reversals carry their own number from the same sequence. */
  receipt_number: string;
  kind: 'payment' | 'reversal';
  admission_number: string;
  full_name: string;
  student_class: string;
  session: string;
  term: Term | null;
  /** Naira; negative for a reversal. */
  amount: number;
  method: PaymentMethod;
  bank: string;
  bank_reference: string;
  /** The day the money was paid (offline: as recorded; online: the provider's date). */
  paid_on: string;
  note: string;
  has_scan: boolean;
  /** For a reversal: the reversed payment's reference and receipt, and the reason. */
  reverses: { reference: string; receipt_number: string } | null;
  reason: string;
  /** For a payment: its reversal's receipt number, once reversed. */
  reversed_by: string | null;
  /** For a payment: the reversed payment of the same bank reference it replaces, else null. */
  replaces: { reference: string; receipt_number: string } | null;
  /** Who recorded it: their name (staff or admin record), else their email; null for online payments. */
  recorded_by: string | null;
  recorded_at: string;
  /** How the payment settles the arrears and the terms (decision 041); online payments: arrears first. */
  allocation: PaymentAllocation;
}

export const ledgerQuerySchema = z.object({
  admission_number: admissionNumberField.optional(),
  /** Entries of this bank reference, compared by the one reference rule (bank-references.ts); a reversal comes with its payment. */
  bank_reference: textField('Bank reference')
    .trim()
    .max(60)
    .superRefine((v, ctx) => {
      const problem = referenceProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  session_id: sessionIdField.optional(),
  method: z.enum(PAYMENT_METHODS).optional(),
  from: isoDateField.optional(),
  to: isoDateField.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const LEDGER_PAGE_SIZE = 50;
export interface LedgerPage {
  entries: LedgerEntry[];
  page: number;
  pages: number;
  total: number;
  /** Sum of the filtered entries in naira (reversals subtract). */
  total_amount: number;
}

// ---------- statement of account ----------

export const statementQuerySchema = z.object({ admission_number: admissionNumberField.optional(), session_id: sessionIdField.optional() });

export interface StatementLine {
  date: string;
  /**
   * A discount (second part) is a credit against its term's charges, dated like them; the balance
   * brought forward from the previous session (decision 041) opens the statement: a debit when
   * owed, a credit when overpaid.
   */
  kind: 'brought_forward' | 'charge' | 'discount' | 'payment' | 'reversal';
  description: string;
  term: Term | null;
  /** Naira: a charge adds to the balance, a discount or a payment subtracts, a reversal adds back. */
  debit: number;
  credit: number;
  /** Running balance after this line (positive = owed); an upcoming line leaves it as it was. */
  balance: number;
  receipt_number: string | null;
  /** A charge (or its discount) not yet fallen due: listed after the rest, outside the balance, dated the day it falls due. */
  upcoming: boolean;
}
export interface Statement {
  admission_number: string;
  full_name: string;
  student_class: string;
  session_id: number;
  session: string;
  lines: StatementLine[];
  /** The compulsory charges fallen due, the discounts on them, the payments net of reversals, and what is owed. */
  charged: number;
  discounts: number;
  paid: number;
  balance: number;
  /** The session's charges not yet due, less their discounts (naira): not part of the balance. */
  upcoming: number;
  /** The school's today: charges are counted as fallen due by it. */
  as_of: string;
  /** The previous session's closing balance, counted in `balance` (naira; negative = credit); 0 when none. */
  brought_forward: number;
  /** The session it was brought forward from (null when nothing was). */
  brought_forward_from: string | null;
  /** The arrears and what the session's payments settled of them (naira), arrears first unless a payment said otherwise. */
  arrears: { charged: number; paid: number; outstanding: number };
  /**
   * Each term's compulsory charges (after discounts, due or not) and the payments allocated to them
   * (naira): what the results fee gate reads as "the term's compulsory fees paid".
   */
  terms: StatementTerm[];
}

export interface StatementTerm {
  term: Term;
  charged: number;
  paid: number;
  outstanding: number;
}

/** A charge or a discount on the statement (kobo); `upcoming` when it has not fallen due yet. */
export interface StatementCharge {
  date: string;
  description: string;
  term: Term | null;
  kobo: number;
  upcoming?: boolean;
}

/**
 * The statement's lines in order (each term's charges fallen due, then the discounts on them, then
 * payments and reversals by date, then receipt number), with the running balance, in kobo; then the
 * charges and discounts not yet due (by the day they fall due), which leave the balance as it is.
 * Pure: the property test checks the closing balance equals charges − discounts − payments +
 * reversals whatever the order.
 */
export function statementLines(
  charges: readonly StatementCharge[],
  entries: readonly {
    date: string;
    description: string;
    term: Term | null;
    kobo: number;
    receipt_number: string;
    kind: 'payment' | 'reversal';
  }[],
  discounts: readonly StatementCharge[] = [],
  /** The balance brought forward (kobo; negative = credit): the first line when not zero. */
  broughtForward: { date: string; description: string; kobo: number } | null = null,
): {
  lines: (Omit<StatementLine, 'debit' | 'credit' | 'balance'> & { debit_kobo: number; credit_kobo: number; balance_kobo: number })[];
  balance_kobo: number;
} {
  // Each term's charges, then that term's discounts (read beside what they reduce), then the money by date.
  const termRank = (t: Term | null) => (t === null ? TERM_VALUES.length : TERM_VALUES.indexOf(t));
  const scheduled = [
    ...charges.map((c) => ({
      date: c.date,
      kind: 'charge' as const,
      description: c.description,
      term: c.term,
      debit: c.kobo,
      credit: 0,
      receipt_number: null as string | null,
      upcoming: c.upcoming === true,
    })),
    ...discounts.map((d) => ({
      date: d.date,
      kind: 'discount' as const,
      description: d.description,
      term: d.term,
      debit: 0,
      credit: d.kobo,
      receipt_number: null as string | null,
      upcoming: d.upcoming === true,
    })),
  ].sort((a, b) => termRank(a.term) - termRank(b.term) || (a.kind === b.kind ? 0 : a.kind === 'charge' ? -1 : 1));
  const opening =
    broughtForward && broughtForward.kobo !== 0
      ? [
          {
            date: broughtForward.date,
            kind: 'brought_forward' as const,
            description: broughtForward.description,
            term: null as Term | null,
            debit: Math.max(0, broughtForward.kobo),
            credit: Math.max(0, -broughtForward.kobo),
            receipt_number: null as string | null,
            upcoming: false,
          },
        ]
      : [];
  const ordered = [
    ...opening,
    ...scheduled.filter((l) => !l.upcoming),
    ...[...entries]
      .sort((a, b) =>
        a.date < b.date ? -1 : a.date > b.date ? 1 : a.receipt_number < b.receipt_number ? -1 : a.receipt_number > b.receipt_number ? 1 : 0,
      )
      .map((e) => ({
        date: e.date,
        kind: e.kind,
        description: e.description,
        term: e.term,
        // A payment (positive kobo) is a credit; a reversal (negative kobo) is a debit of its size.
        debit: e.kobo < 0 ? -e.kobo : 0,
        credit: e.kobo > 0 ? e.kobo : 0,
        receipt_number: e.receipt_number,
        upcoming: false,
      })),
    // Not yet due: by the day each falls due (stable, so a discount stays after its charge).
    ...scheduled.filter((l) => l.upcoming).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
  ];
  let balance = 0;
  const lines = ordered.map((l) => {
    if (!l.upcoming) balance += l.debit - l.credit;
    return {
      date: l.date,
      kind: l.kind,
      description: l.description,
      term: l.term,
      receipt_number: l.receipt_number,
      upcoming: l.upcoming,
      debit_kobo: l.debit,
      credit_kobo: l.credit,
      balance_kobo: balance,
    };
  });
  return { lines, balance_kobo: balance };
}

// ---------- screens ----------

export const BURSARY_SCREENS = {
  record: {
    to: '/bursary/record',
    title: 'Record a Payment',
    label: 'Record a Payment',
    description: 'Bank transfer, teller, cash or POS',
  },
  ledger: {
    to: '/bursary/ledger',
    title: 'Payments Ledger',
    label: 'Payments Ledger',
    description: 'Every payment and reversal, with receipts and scans',
  },
  statement: {
    to: '/bursary/statement',
    title: 'Statement of Account',
    label: 'Statement of Account',
    description: "A student's charges, payments and balance",
  },
  capabilities: { to: '/staff-capabilities', title: 'Staff Capabilities', label: 'Staff Capabilities', description: 'Who is the bursar' },
} as const;
