import { z } from 'zod';
import { TERM_VALUES, type Term } from './constants';
import { isClassName, MAX_CLASSES_PER_REQUEST } from './teaching';
import { amountSchema, feeScheduleInputSchema, feeScheduleUpdateSchema, PAYMENT_MESSAGES } from './payments';

/**
 * Fee items and what a student owes. A term's fees are
 * several items per class (tuition, PTA levy, books, optional bus); the balance due is the sum of
 * the compulsory items. When each falls due (and so what is owed on a given day): fees-due.ts.
 * Money is integer kobo in every rule here.
 */

export const FEE_MESSAGES = {
  nameRequired: 'Item name is required',
  nameTooLong: 'Item name must be at most 80 characters',
  classesRequired: 'Choose at least one class',
  itemsRequired: 'Add at least one fee item',
  itemsTooMany: 'At most 30 items at a time',
  duplicateInList: 'This item is listed twice',
  feeItemNotFound: 'Fee item not found.',
  sameTerm: 'Choose a different term to copy from',
  nothingToCopy: 'There are no fee items in that term to copy.',
  /** 409 for a real duplicate: says what clashes, in a fee's words (not a payment's). */
  itemExists: (name: string, cls: string, term: string) =>
    `${cls} already has a fee item called "${name}" for the ${term} of this session. Edit that item instead.`,
  // The payment form's confirm step and the server's refusals
  termAlreadyPaid: (term: string) => `The ${term} fees are already paid in full.`,
  exceedsBalance: (amount: string, balance: string) => `${amount} is more than the outstanding balance of ${balance}.`,
  nothingOutstanding: 'There is no outstanding balance for this session.',
  confirmQuestion: 'Do you still want to pay this amount?',
  // The fee items screen
  noFeesForTerm: 'No fees set for this term yet.',
  saveFailed: 'Failed to save the fees',
  saved: (classes: number, created: number, updated: number) =>
    `Fees saved for ${classes} ${classes === 1 ? 'class' : 'classes'}: ${created} added, ${updated} updated`,
  copied: (copied: number, from: string, skipped: number) =>
    `Copied ${copied} ${copied === 1 ? 'item' : 'items'} from ${from}${skipped ? ` (${skipped} already set, kept)` : ''}`,
  confirmDelete: (name: string, term: string, cls: string) => `Delete "${name}" (${term}) for ${cls}?`,
  // When an item falls due (fees-due.ts)
  dueOnInvalid: 'Enter the due date as a day (YYYY-MM-DD).',
  dueOnLabel: 'Due date (optional)',
  dueOnHint: 'Leave empty: due when the term begins (school calendar).',
  dueFrom: (date: string) => `Due ${date}`,
  dueAtTermStart: 'Due when the term begins',
} as const;

export const FEE_ITEM_NAME_MAX = 80;

/** One key per item name: case, spaces and punctuation-free comparison ("PTA levy" = "pta  Levy"). */
export function feeItemKey(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
}

const itemName = z.preprocess(
  (v) => (v === null || v === undefined ? '' : v),
  z
    .string({ error: FEE_MESSAGES.nameRequired })
    .trim()
    .min(1, FEE_MESSAGES.nameRequired)
    .max(FEE_ITEM_NAME_MAX, FEE_MESSAGES.nameTooLong)
    .transform((s) => s.replace(/\s+/g, ' ')),
);
/** The form of a class name; the server checks the school has it. */
const classField = z.string().refine(isClassName, PAYMENT_MESSAGES.classInvalid);
const sessionId = z.coerce
  .number({ error: PAYMENT_MESSAGES.sessionRequired })
  .int(PAYMENT_MESSAGES.sessionRequired)
  .positive(PAYMENT_MESSAGES.sessionRequired);
const termField = z.enum(TERM_VALUES, { error: PAYMENT_MESSAGES.termInvalid });
const description = z.string().trim().max(200, PAYMENT_MESSAGES.descriptionTooLong).default('');
const compulsory = z.boolean({ error: 'Compulsory must be true or false' }).default(true);
/**
 * The day the school wants an item paid by; null: when its term begins. Omitted on an update: kept as
 * it is. (The rule reading it: `owedAsOf` in fees-due.ts.)
 */
const dueOn = z
  .union([
    z.null(),
    z
      .string({ error: FEE_MESSAGES.dueOnInvalid })
      .regex(/^\d{4}-\d{2}-\d{2}$/, FEE_MESSAGES.dueOnInvalid)
      .refine((v) => {
        const t = Date.parse(`${v}T00:00:00Z`);
        return !Number.isNaN(t) && new Date(t).toISOString().startsWith(v);
      }, FEE_MESSAGES.dueOnInvalid),
  ])
  .optional();

/** One item in a bulk save. */
export const feeItemLineSchema = z.object({ name: itemName, amount: amountSchema, compulsory, description, due_on: dueOn });

/**
 * POST /api/payments/fee-items/bulk/: the same items for many classes of one session and term.
 * An item whose name a class already has is updated (its amount, compulsory flag, description);
 * the others are added. Nothing else of the term changes.
 */
export const feeItemsBulkSchema = z
  .object({
    session_id: sessionId,
    term: termField,
    classes: z
      .array(classField, { error: FEE_MESSAGES.classesRequired })
      .min(1, FEE_MESSAGES.classesRequired)
      .max(MAX_CLASSES_PER_REQUEST)
      .transform((l) => [...new Set(l)]),
    items: z
      .array(feeItemLineSchema, { error: FEE_MESSAGES.itemsRequired })
      .min(1, FEE_MESSAGES.itemsRequired)
      .max(30, FEE_MESSAGES.itemsTooMany),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.items.forEach((it, i) => {
      const k = feeItemKey(it.name);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: ['items', i, 'name'], message: FEE_MESSAGES.duplicateInList });
      seen.add(k);
    });
  });
export type FeeItemsBulk = z.output<typeof feeItemsBulkSchema>;

/** POST /api/payments/fee-items/copy/: copies one term's items into another (existing names are kept). */
export const feeItemsCopySchema = z
  .object({
    from_session_id: sessionId,
    from_term: termField,
    to_session_id: sessionId,
    to_term: termField,
    /** Only these classes; every class when omitted. */
    classes: z.array(classField).max(MAX_CLASSES_PER_REQUEST).optional(),
  })
  .refine((v) => v.from_session_id !== v.to_session_id || v.from_term !== v.to_term, {
    path: ['from_term'],
    message: FEE_MESSAGES.sameTerm,
  });
export type FeeItemsCopy = z.output<typeof feeItemsCopySchema>;

/**
 * POST /api/payments/fee-schedules/ and PUT …/{id}/ keep their fields; an item may also carry
 * `name` (default: the description, else "School fees") and `compulsory` (default true).
 */
const extra = {
  name: itemName.optional(),
  compulsory: z.boolean({ error: 'Compulsory must be true or false' }).optional(),
  due_on: dueOn,
};
export const feeItemCreateSchema = feeScheduleInputSchema.extend(extra);
export const feeItemUpdateSchema = feeScheduleUpdateSchema.extend(extra);
export type FeeItemCreate = z.output<typeof feeItemCreateSchema>;
export type FeeItemUpdate = z.output<typeof feeItemUpdateSchema>;

/** The name an item gets when a caller of the original fee-schedule call gives none. */
export function defaultFeeItemName(description: string): string {
  const d = description.trim().replace(/\s+/g, ' ');
  return d ? d.slice(0, FEE_ITEM_NAME_MAX) : 'School fees';
}

export interface FeeItemsBulkResult {
  created: number;
  updated: number;
}
export interface FeeItemsCopyResult {
  copied: number;
  skipped: number;
}

// ---------------------------------------------------------------- the balance rule

/** What a student's fees look like against what they paid. */
export type FeeStatus = 'paid' | 'part_paid' | 'unpaid';

export interface FeeBalance {
  due: number;
  paid: number;
  /** What is still owed: never negative. */
  balance: number;
  /** Paid beyond what is due (kept as a credit, never lost). */
  credit: number;
  status: FeeStatus;
}

/**
 * The one rule, in kobo: `paid` when something was paid and nothing is owed; `part_paid` when
 * something was paid and something is still owed; `unpaid` when nothing was paid. With no fees set
 * (`due` 0) a payment counts as paid: nothing is owed.
 */
export function feeBalance(dueKobo: number, paidKobo: number): FeeBalance {
  const due = Math.max(0, Math.trunc(dueKobo));
  const paid = Math.max(0, Math.trunc(paidKobo));
  const balance = Math.max(0, due - paid);
  const credit = Math.max(0, paid - due);
  const status: FeeStatus = paid === 0 ? 'unpaid' : balance === 0 ? 'paid' : 'part_paid';
  return { due, paid, balance, credit, status };
}

export interface TermBalance extends FeeBalance {
  term: Term;
}

/**
 * Per term: payments settle the terms in order (1st, then 2nd, then 3rd), whatever term they name,
 * so a student is never shown owing an earlier term while a later one is marked paid. What is
 * paid beyond the whole session's fees stays as credit on the last term with fees.
 */
export function termBalances(dueByTerm: Partial<Record<Term, number>>, paidKobo: number): TermBalance[] {
  let left = Math.max(0, Math.trunc(paidKobo));
  const terms = TERM_VALUES.filter((t) => (dueByTerm[t] ?? 0) > 0);
  return terms.map((term, i) => {
    const due = Math.max(0, Math.trunc(dueByTerm[term] ?? 0));
    const take = i === terms.length - 1 ? left : Math.min(left, due);
    left -= take;
    return { term, ...feeBalance(due, take) };
  });
}

/** What a student should be offered to pay now: the first term not yet paid in full. */
export function nextTermDue(terms: readonly TermBalance[]): { term: Term; amount: number } | null {
  const t = terms.find((x) => x.balance > 0);
  return t ? { term: t.term, amount: t.balance } : null;
}

/**
 * What needs an explicit confirmation before paying `amountKobo` (null when nothing does).
 * Only when fees are set for the session; a school that has set none takes any amount.
 */
export type PaymentWarning = 'term_already_paid' | 'exceeds_balance';
export function paymentWarning(
  session: FeeBalance,
  terms: readonly TermBalance[],
  amountKobo: number,
  term: Term | null,
): PaymentWarning | null {
  if (session.due === 0) return null;
  if (term) {
    const t = terms.find((x) => x.term === term);
    if (t && t.due > 0 && t.balance === 0) return 'term_already_paid';
  }
  if (amountKobo > session.balance) return 'exceeds_balance';
  return null;
}

// ---------------------------------------------------------------- API shapes

/** A fee item: the spec-era fee-schedule shape plus `name` and `compulsory`. */
export interface FeeItem {
  id: number;
  student_class: string;
  session_id: number;
  session: string;
  term: Term;
  name: string;
  amount: number;
  compulsory: boolean;
  description: string;
  /** The day the school set for paying it, or null: due when its term begins. */
  due_on: string | null;
  updated_at: string;
}

/** A term's figures in a report row or the payment context (naira). */
export interface TermFees {
  term: Term;
  amount_due: number;
  amount_paid: number;
  balance: number;
  status: FeeStatus;
}

/** The `code` of a 409 that asks the payer to confirm (see paymentWarning). */
export const TERM_ALREADY_PAID_CODE: PaymentWarning = 'term_already_paid';
export const EXCEEDS_BALANCE_CODE: PaymentWarning = 'exceeds_balance';
