/**
 * The bursar's office (issue 17), second part: the debtors list and the collection summary. Both
 * read the one balance rule: the class's compulsory items less the student's discounts
 * (`discountedDues`), against payments net of reversals, settling terms in order (`termBalances`).
 *
 * API (all under /api; bursar = staff with the capability, or the admin):
 *   GET /bursary/debtors/?session_id&term&level&student_class&sort&order&page   → DebtorsPage
 *   GET /bursary/debtors.csv?…same filters (every row)                            → CSV
 *   GET /bursary/debtors.pdf?…same filters (every row)                            → PDF (A4, the school's header)
 *   GET /bursary/collections/?session_id&term&from&to                             → CollectionSummary
 * A debtor is a student of the session's class list (active students) who owes more than 0 for the
 * chosen term (or the session). Days overdue count from the start of the earliest term still owed
 * (the school calendar; else that term's first fee item's date) to the school's today, 0 if not yet begun.
 */
import { z } from 'zod';
import type { Term } from './constants';
import { TERM_VALUES } from './constants';
import { isoDateField } from './report-cards';
import { sessionIdField } from './results';
import type { FeeStatus } from './fees';
import type { PaymentMethod } from './bursary';

export const DEBTOR_SORTS = ['balance', 'days_overdue', 'name', 'class'] as const;
export type DebtorSort = (typeof DEBTOR_SORTS)[number];

export const debtorsQuerySchema = z.object({
  session_id: sessionIdField.optional(),
  term: z.enum(TERM_VALUES).optional(),
  /** "JSS 1" … "SSS 3": every arm of the level. */
  level: z.string().trim().max(20).optional(),
  /** One arm, "JSS 1A". */
  student_class: z.string().trim().max(20).optional(),
  sort: z.enum(DEBTOR_SORTS).default('balance'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type DebtorsQuery = z.output<typeof debtorsQuerySchema>;
export const DEBTORS_PAGE_SIZE = 100;

export interface Debtor {
  admission_number: string;
  full_name: string;
  student_class: string;
  /** Naira, for the chosen term (or the session). */
  due: number;
  discount: number;
  paid: number;
  balance: number;
  status: FeeStatus;
  days_overdue: number;
  /** Day of the last payment received, or null. */
  last_paid_on: string | null;
}
export interface DebtorsPage {
  session_id: number;
  session: string;
  term: Term | null;
  debtors: Debtor[];
  page: number;
  pages: number;
  total: number;
  /** Over every debtor of the filter, not just the page (naira). */
  total_balance: number;
}

export const collectionsQuerySchema = z.object({
  session_id: sessionIdField.optional(),
  term: z.enum(TERM_VALUES).optional(),
  /** The days of money received (paid_on) counted in by_day and by_method; default: the whole session. */
  from: isoDateField.optional(),
  to: isoDateField.optional(),
});

export interface CollectionRow {
  /** Naira. */
  expected: number;
  collected: number;
  outstanding: number;
}
export interface CollectionSummary {
  session_id: number;
  session: string;
  term: Term | null;
  /** Expected = compulsory fees less discounts; collected = payments net of reversals, settling terms in order. */
  totals: CollectionRow & { discounts: number; students: number };
  by_class: (CollectionRow & { student_class: string; students: number })[];
  /** Collected per item: a student's payments settle their items term by term in item order. */
  by_item: (CollectionRow & { name: string })[];
  /** Money received per day and per method (net of reversals) in the from–to range. */
  by_day: { date: string; count: number; amount: number }[];
  by_method: { method: PaymentMethod; count: number; amount: number }[];
}

export const FEE_REPORT_MESSAGES = {
  levelInvalid: 'Choose a class level such as JSS 1.',
  classInvalid: 'Choose a class such as JSS 1A.',
  noDebtors: 'No one owes fees for this choice.',
  rangeInvalid: 'The start date must not be after the end date.',
} as const;

export const FEE_REPORT_SCREENS = {
  debtors: { to: '/bursary/debtors', title: 'Debtors', label: 'Debtors', description: 'Who owes what, by class, with days overdue' },
  collections: {
    to: '/bursary/collections',
    title: 'Collection Summary',
    label: 'Collection Summary',
    description: 'Expected against collected, by day, method, class and fee item',
  },
} as const;
