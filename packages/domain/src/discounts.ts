/**
 * The bursar's office, second part: discounts and scholarships. A discount belongs to one
 * student for one session, either for one term or for the whole session; it is a percentage or a
 * fixed amount, on chosen fee items (by name) or on every compulsory item; it has a kind (sibling,
 * staff child, scholarship, other) and a reason. It lowers what the student owes: every balance
 * (payment form, class report, card, statement, debtors, collections) reads the same
 * `discountedDues`. A discount is never edited or deleted: it is revoked with a reason (audited) and
 * stays in the history.
 *
 * How much it takes, per term it covers (pure, in kobo, property-tested):
 * - percent: that share of each chosen item of the term (rounded down to the kobo);
 * - fixed: that amount off the term's chosen items together, item by item in order, each at most what is left of it;
 * - several discounts on one item apply in the order they were given; an item never goes below 0.
 *
 * API (all under /api; "bursar" = staff with the capability, or the admin):
 *   GET    /bursary/discounts/?admission_number&session_id&include_revoked   bursar → Discount[]
 *   POST   /bursary/discounts/                    bursar  DiscountInput → Discount (201)
 *   POST   /bursary/discounts/{id}/revoke/        bursar  { reason } → Discount
 * The student sees their discounts on the payment form's context, the statement and receipts.
 */
import { z } from 'zod';
import { valuesOf } from './choices';
import type { Term } from './constants';
import { TERM_VALUES, termLabel } from './constants';
import { requiredText, textField } from './text';
import { formatNaira } from './money';
import { amountSchema } from './payments';
import { admissionNumberField, sessionIdField } from './result-schemas';
import { feeItemKey } from './fees';

export const DISCOUNT_KIND_LABELS = {
  sibling: 'Sibling discount',
  staff_child: 'Staff child',
  scholarship: 'Scholarship',
  other: 'Other discount',
};
export type DiscountKind = keyof typeof DISCOUNT_KIND_LABELS;
export const DISCOUNT_KINDS = valuesOf(DISCOUNT_KIND_LABELS);
export const DISCOUNT_BASES = ['percent', 'fixed'] as const;
export type DiscountBasis = (typeof DISCOUNT_BASES)[number];

export const DISCOUNT_MESSAGES = {
  kindRequired: 'Choose the kind of discount.',
  basisRequired: 'Choose a percentage or a fixed amount.',
  percentInvalid: 'The percentage must be more than 0 and at most 100 (two decimals at most).',
  amountRequired: 'Enter the amount off each term.',
  reasonRequired: 'Give the reason for the discount.',
  itemsTooMany: 'At most 30 fee items.',
  itemUnknown: (name: string) => `The class has no fee item called "${name}" in this session.`,
  noItems: 'The class has no compulsory fee items in this session to discount.',
  discountNotFound: 'Discount not found.',
  alreadyRevoked: 'This discount was already revoked.',
  revokeReasonRequired: 'Give the reason for revoking the discount.',
  given: (label: string, name: string) => `${label} given to ${name}.`,
  revoked: 'Discount revoked.',
} as const;

const percentField = z
  .number({ error: DISCOUNT_MESSAGES.percentInvalid })
  .gt(0, DISCOUNT_MESSAGES.percentInvalid)
  .max(100, DISCOUNT_MESSAGES.percentInvalid)
  .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-6, DISCOUNT_MESSAGES.percentInvalid);

export const discountSchema = z
  .object({
    admission_number: admissionNumberField,
    session_id: sessionIdField,
    /** One term, or null for the whole session (each term of it). */
    term: z.enum(TERM_VALUES).nullable(),
    kind: z.enum(DISCOUNT_KINDS, { error: DISCOUNT_MESSAGES.kindRequired }),
    basis: z.enum(DISCOUNT_BASES, { error: DISCOUNT_MESSAGES.basisRequired }),
    /** basis percent: e.g. 10 or 12.5. */
    percent: percentField.nullable().default(null),
    /** basis fixed: naira off each term covered (kobo once parsed). */
    amount: z.union([z.null(), amountSchema]).default(null),
    /** Fee item names the discount applies to; empty = every compulsory item. */
    items: z
      .array(textField('Fee item').trim().min(1).max(80))
      .max(30, DISCOUNT_MESSAGES.itemsTooMany)
      .default([])
      .transform((l) => [...new Map(l.map((n) => [feeItemKey(n), n])).values()]),
    reason: requiredText('Reason', DISCOUNT_MESSAGES.reasonRequired).max(300),
  })
  .superRefine((v, ctx) => {
    if (v.basis === 'percent' && v.percent === null)
      ctx.addIssue({ code: 'custom', path: ['percent'], message: DISCOUNT_MESSAGES.percentInvalid });
    if (v.basis === 'fixed' && v.amount === null)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: DISCOUNT_MESSAGES.amountRequired });
  });
export type DiscountInput = z.input<typeof discountSchema>;
export type DiscountData = z.output<typeof discountSchema>;

export const discountRevokeSchema = z.object({
  reason: requiredText('Reason', DISCOUNT_MESSAGES.revokeReasonRequired).max(300),
});
export const discountQuerySchema = z.object({
  admission_number: admissionNumberField.optional(),
  session_id: sessionIdField.optional(),
  include_revoked: z.enum(['true', 'false']).optional(),
});

export interface Discount {
  id: number;
  admission_number: string;
  full_name: string;
  student_class: string;
  session_id: number;
  session: string;
  term: Term | null;
  kind: DiscountKind;
  /** "Sibling discount, 10% on Tuition" — what statements and receipts print. */
  label: string;
  basis: DiscountBasis;
  percent: number | null;
  /** Naira off each term covered (fixed), else null. */
  amount: number | null;
  items: string[];
  reason: string;
  /** What it takes off this session's compulsory fees now, in naira. */
  value: number;
  given_by: string | null;
  given_at: string;
  revoked_at: string | null;
  revoked_by: string | null;
  revoke_reason: string;
}

// ---------------------------------------------------------------- the rule

/** A discount as the rule sees it (kobo; percent in hundredths of a percent). */
export interface DiscountRule {
  id: number;
  term: Term | null;
  basis: DiscountBasis;
  /** 1250 = 12.5 %. */
  percent_bp: number;
  amount_kobo: number;
  /** feeItemKey of the chosen items; empty = every compulsory item. */
  item_keys: readonly string[];
}
/** A compulsory fee item of the student's class (kobo), in the class's item order. */
export interface DueItem {
  term: Term;
  name_key: string;
  kobo: number;
}
export interface DiscountTake {
  discount_id: number;
  term: Term;
  name_key: string;
  kobo: number;
}

/** Percent as stored: hundredths of a percent (exact integers). */
export function percentToBasisPoints(percent: number): number {
  return Math.round(percent * 100);
}

/**
 * What a student owes per term once discounts apply, what each discount takes of which item, and
 * each item's amount after discounts (each item kept as given, its amount replaced). Discounts apply
 * in `id` order; an item never goes below 0.
 */
export function discountedDues<I extends DueItem>(
  items: readonly I[],
  discounts: readonly DiscountRule[],
): { due: Partial<Record<Term, number>>; takes: DiscountTake[]; itemsAfter: I[] } {
  const left = items.map((i) => Math.max(0, Math.trunc(i.kobo)));
  const takes: DiscountTake[] = [];
  for (const d of [...discounts].sort((a, b) => a.id - b.id)) {
    const keys = new Set(d.item_keys);
    for (const term of TERM_VALUES) {
      if (d.term !== null && d.term !== term) continue;
      let budget = d.basis === 'fixed' ? Math.max(0, Math.trunc(d.amount_kobo)) : Infinity;
      items.forEach((it, i) => {
        if (it.term !== term || (keys.size > 0 && !keys.has(it.name_key)) || budget <= 0) return;
        const want = d.basis === 'percent' ? Math.floor((Math.max(0, Math.trunc(it.kobo)) * d.percent_bp) / 10_000) : budget;
        const take = Math.min(want, left[i]!);
        if (take <= 0) return;
        left[i]! -= take;
        if (d.basis === 'fixed') budget -= take;
        takes.push({ discount_id: d.id, term, name_key: it.name_key, kobo: take });
      });
    }
  }
  const due: Partial<Record<Term, number>> = {};
  items.forEach((it, i) => {
    due[it.term] = (due[it.term] ?? 0) + left[i]!;
  });
  return { due, takes, itemsAfter: items.map((it, i) => ({ ...it, kobo: left[i]! })) };
}

/** What a student sees of one discount in force (payment form, receipt): its label and what it takes, in naira. */
export interface DiscountShare {
  label: string;
  amount: number;
}

/** Naira without ".00" when whole: "₦20,000", "₦1,250.50". */
function nairaShort(kobo: number): string {
  const text = formatNaira(kobo / 100);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
}

/**
 * What statements, receipts and the payment form print for a discount: "Sibling discount, 10% on
 * Tuition", "Scholarship, ₦20,000 off each term", "Staff child, 50% on all fees (2nd Term)".
 * `items` are the fee items' own names (as the class's schedule spells them).
 */
export function discountLabel(d: {
  kind: DiscountKind;
  term: Term | null;
  basis: DiscountBasis;
  percent_bp: number;
  amount_kobo: number;
  items: readonly string[];
}): string {
  const on = d.items.length ? d.items.join(', ') : 'all fees';
  const pct = `${d.percent_bp / 100}%`;
  const what =
    d.basis === 'percent'
      ? `${pct} on ${on}${d.term ? ` (${termLabel(d.term)})` : ''}`
      : d.items.length
        ? `${nairaShort(d.amount_kobo)} off ${on} ${d.term ? `(${termLabel(d.term)})` : 'each term'}`
        : `${nairaShort(d.amount_kobo)} off ${d.term ? termLabel(d.term) : 'each term'}`;
  return `${DISCOUNT_KIND_LABELS[d.kind]}, ${what}`;
}

export const DISCOUNT_SCREEN = {
  to: '/bursary/discounts',
  title: 'Discounts and Scholarships',
  label: 'Discounts',
  description: 'Sibling, staff child and scholarship discounts',
} as const;
