/**
 * The bursar's office, second part: the debtors list and the collection summary. Both
 * read the one balance rule: the class's compulsory items less the student's discounts
 * (`discountedDues`), against payments net of reversals, settling terms in order (`termBalances`).
 *
 * API (all under /api; bursar = staff with the capability, or the admin):
 *   GET /bursary/debtors/?session_id&term&level&student_class&sort&order&page   → DebtorsPage
 *   GET /bursary/debtors.csv?…same filters (every row)                            → CSV
 *   GET /bursary/debtors.pdf?…same filters (every row)                            → PDF (A4, the school's header)
 *   GET /bursary/collections/?session_id&term&from&to                             → CollectionSummary
 * A debtor is a student of the session's class list (active students) who owes more than 0 of what
 * has fallen due (`owedAsOf`, fees-due.ts) up to the chosen term, or in the whole session
 * (`term=session`); without a term the list opens on the current term. Days overdue count from the
 * day the oldest unpaid fee fell due to the school's today.
 */
import { z } from 'zod';
import type { Term } from './constants';
import { TERM_VALUES } from './constants';
import { dayNumber } from './attendance-rules';
import { allocateCollected, isDue } from './fees-due';
import { isoDateField } from './report-card-schemas';
import { sessionIdField } from './result-schemas';
import type { FeeStatus } from './fees';
import type { PaymentMethod } from './bursary';

export const DEBTOR_SORTS = ['balance', 'days_overdue', 'name', 'class'] as const;
export type DebtorSort = (typeof DEBTOR_SORTS)[number];

/** The debtors' term choice: a term (what has fallen due up to it) or the whole session; none = the current term. */
export const DEBTOR_TERMS = [...TERM_VALUES, 'session'] as const;
export type DebtorTerm = (typeof DEBTOR_TERMS)[number];

export const debtorsQuerySchema = z.object({
  session_id: sessionIdField.optional(),
  term: z.enum(DEBTOR_TERMS).optional(),
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
  /** Naira: what has fallen due up to the chosen term (or in the session), discounts applied. */
  due: number;
  discount: number;
  paid: number;
  balance: number;
  status: FeeStatus;
  days_overdue: number;
  /** Day of the last payment received, or null. */
  last_paid_on: string | null;
  /** Naira brought forward from the previous session (decision 041), counted in `due` (arrears) or `paid` (credit). */
  brought_forward: number;
}
export interface DebtorsPage {
  session_id: number;
  session: string;
  /** The term shown (the current term unless another was chosen); null for the whole session. */
  term: Term | null;
  /** The school's today: what is due is counted as of it. */
  as_of: string;
  /** The day the term shown begins, when known (fees of a term not begun are not owed yet). */
  term_begins: string | null;
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
  /** Naira: expected is what has fallen due (discounts applied); upcoming, what has not yet. */
  expected: number;
  collected: number;
  outstanding: number;
  upcoming: number;
}
export interface CollectionSummary {
  session_id: number;
  session: string;
  term: Term | null;
  /** The school's today: expected counts the fees fallen due by it. */
  as_of: string;
  /** Expected = compulsory fees fallen due less discounts; collected = payments net of reversals, settling terms in order. */
  totals: CollectionRow & {
    discounts: number;
    students: number;
    /** Paid beyond what is due (kept as the students' credit): collected + credit = the money received. */
    credit: number;
    /** Arrears brought forward from the previous session (naira), counted in expected (decision 041). */
    brought_forward: number;
  };
  by_class: (CollectionRow & { student_class: string; students: number })[];
  /** Collected per item: a student's payments settle their items term by term in item order. */
  by_item: (CollectionRow & { name: string })[];
  /** Money received per day and per method (net of reversals) in the from–to range. */
  by_day: { date: string; count: number; amount: number }[];
  by_method: { method: PaymentMethod; count: number; amount: number }[];
}

// ---------------------------------------------------------------- the rules (kobo)

/**
 * Days a debt is overdue: from the day the oldest unpaid fee fell due (`owedAsOf`'s `owedSince`) to
 * the school's today; 0 when nothing is owed.
 */
export function daysOverdue(start: string | null, today: string): number {
  if (!start) return 0;
  return Math.max(0, dayNumber(today) - dayNumber(start));
}

/** One student as the collection summary reads them: each compulsory item before and after discounts, and the day it falls due. */
export interface CollectionStudent {
  student_class: string;
  /** `arrears`: the balance brought forward, settled first and counted in every term's view. */
  items: readonly { term: Term; name_key: string; gross: number; net: number; falls_due_on: string; arrears?: boolean }[];
  /** Payments net of reversals in the session. */
  paidKobo: number;
}
/** A row of the summary in kobo. */
export interface CollectionFigure {
  expected: number;
  collected: number;
  outstanding: number;
  upcoming: number;
}

/**
 * The collection summary's figures for a term (or the session when `term` is null) as of `asOf`, in
 * kobo: the totals, by class and by fee item (keyed by name_key, in the order items first appear).
 * Expected is what has fallen due (`isDue`); what has not is upcoming. Each student's money settles
 * their due items by `allocateCollected`; what is left is credit (paid in advance counts there until
 * the fees it meets fall due). In a term's view the credit counts only on the student's last term
 * with anything due, as `termBalances` keeps it.
 */
export function collectionFigures(
  students: readonly CollectionStudent[],
  term: Term | null,
  asOf: string,
): {
  totals: CollectionFigure & { discounts: number; credit: number; students: number };
  by_class: (CollectionFigure & { student_class: string; students: number })[];
  by_item: (CollectionFigure & { name_key: string })[];
} {
  const zero = (): CollectionFigure => ({ expected: 0, collected: 0, outstanding: 0, upcoming: 0 });
  const totals = { ...zero(), discounts: 0, credit: 0, students: students.length };
  const byClass = new Map<string, CollectionFigure & { student_class: string; students: number }>();
  const byItem = new Map<string, CollectionFigure & { name_key: string }>();
  for (const s of students) {
    const due = s.items.map((i) => isDue(i, asOf));
    const { collected, credit } = allocateCollected(
      s.items.map((i, k) => ({ term: i.term, kobo: due[k] ? i.net : 0 })),
      s.paidKobo,
    );
    const cls = byClass.get(s.student_class) ?? { ...zero(), student_class: s.student_class, students: 0 };
    cls.students++;
    byClass.set(s.student_class, cls);
    s.items.forEach((it, i) => {
      if (term !== null && it.term !== term && !it.arrears) return;
      const got = collected[i]!;
      const net = Math.max(0, it.net);
      const row = byItem.get(it.name_key) ?? { ...zero(), name_key: it.name_key };
      for (const r of [totals, cls, row]) {
        if (due[i]) {
          r.expected += net;
          r.collected += got;
          r.outstanding += net - got;
        } else r.upcoming += net;
      }
      if (due[i]) totals.discounts += Math.max(0, it.gross - net);
      byItem.set(it.name_key, row);
    });
    const lastTermDue = [...TERM_VALUES].reverse().find((t) => s.items.some((i, k) => due[k] && i.term === t && i.net > 0));
    if (term === null || term === lastTermDue) totals.credit += credit;
  }
  return { totals, by_class: [...byClass.values()], by_item: [...byItem.values()] };
}

/** Debtors in the order asked: by the key, ties by admission number (so pages never shuffle). */
export function sortDebtors<T extends Pick<Debtor, 'admission_number' | 'full_name' | 'student_class' | 'balance' | 'days_overdue'>>(
  rows: readonly T[],
  sort: DebtorSort,
  order: 'asc' | 'desc',
): T[] {
  const key = (r: T): number | string =>
    sort === 'balance'
      ? r.balance
      : sort === 'days_overdue'
        ? r.days_overdue
        : sort === 'name'
          ? r.full_name.toLowerCase()
          : r.student_class;
  const sign = order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x < y) return -sign;
    if (x > y) return sign;
    return a.admission_number < b.admission_number ? -1 : a.admission_number > b.admission_number ? 1 : 0;
  });
}

export const FEE_REPORT_MESSAGES = {
  levelInvalid: 'Choose a class level such as JSS 1.',
  classInvalid: 'Choose a class such as JSS 1A.',
  noDebtors: 'No one owes fees for this choice.',
  /** The chosen term has not begun: its fees are upcoming, not owed (those with an earlier due date count). */
  termNotBegun: (term: string, date: string) => `The ${term} begins on ${date}: its fees are not owed before they fall due.`,
  rangeInvalid: 'The start date must not be after the end date.',
} as const;

/** Words of the debtors and collections screens, CSV and PDF (the server's messages are above). */
export const FEE_REPORT_LABELS = {
  session: 'Session',
  term: 'Term',
  wholeSession: 'Whole session',
  level: 'Class level',
  anyLevel: 'Every level',
  arm: 'Arm',
  anyClass: 'Every arm',
  show: 'Show',
  admissionNumber: 'Adm. no',
  name: 'Name',
  class: 'Class',
  due: 'Due',
  broughtForward: 'B/F',
  discount: 'Discount',
  paid: 'Paid',
  balance: 'Balance',
  status: 'Status',
  daysOverdue: 'Days overdue',
  days: 'Days',
  lastPaid: 'Last paid',
  never: 'Never',
  downloadCsv: 'Download CSV',
  downloadPdf: 'Download PDF',
  totalOwed: 'Total owed',
  debtors: (n: number) => `${n} ${n === 1 ? 'debtor' : 'debtors'}`,
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  sortBy: (column: string) => `Sort by ${column}`,
  from: 'From',
  to: 'To',
  expected: 'Expected',
  collected: 'Collected',
  outstanding: 'Outstanding',
  upcoming: 'Not yet due',
  /** Under the debtors' term choice: what a term's figures count. */
  termHint: 'A term shows what has fallen due up to it and is unpaid; fees not yet due are not counted.',
  asOf: (date: string) => `As of ${date}`,
  discounts: 'Discounts given',
  credit: 'Paid in advance (credit)',
  students: 'Students',
  totals: 'Totals',
  byClass: 'By class',
  byItem: 'By fee item',
  byMethod: 'By method',
  byDay: 'By day',
  item: 'Fee item',
  method: 'Method',
  date: 'Date',
  count: 'Payments',
  amount: 'Amount',
  total: 'Total',
  /** The heading of a printed or downloaded list: "Debtors: SSS 2B, 2025/2026, 1st Term". */
  debtorsTitle: (scope: string | null, session: string, term: string | null) =>
    `Debtors: ${scope ?? 'whole school'}, ${session}, ${term ?? 'whole session'}`,
  printed: (when: string) => `Printed ${when}`,
} as const;

export const FEE_REPORT_SCREEN_MESSAGES = {
  debtorsFailed: 'Could not load the debtors. Please try again.',
  collectionsFailed: 'Could not load the collection summary. Please try again.',
  downloadFailed: 'Could not download the file. Please try again.',
  noMoney: 'No money received in these dates.',
  noFees: 'No compulsory fees are set for this choice.',
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
