import { z } from 'zod';
import { ATTENDANCE_STATUSES, PERIODS } from './attendance-rules';
import { PAYMENT_METHODS } from './bursary';
import { TERM_VALUES } from './constants';
import { CLASS_LEVELS } from './teaching';
import { CARD_STATUSES } from './report-card-rules';
import { RESULT_MESSAGES } from './result-messages';
import { sessionIdField, termField } from './result-schemas';

/**
 * The bursar's and the staff's dashboards (issue 36, items 2 and 3): the responses of
 * `GET /api/dashboards/bursar/` and `GET /api/dashboards/staff/`, and their query.
 */

/**
 * `?session=&term=`: both optional, today's term of the school calendar when absent. `session` is a
 * session's id ("7") or its name ("2025/2026"), as the spec's other `session` parameters name it;
 * `session_id` (an id) is taken too, as the admin's dashboard asks it.
 */
export const dashboardTermQuerySchema = z.object({
  session_id: sessionIdField.optional(),
  session: z
    .string({ error: RESULT_MESSAGES.sessionRequired })
    .trim()
    .regex(/^(\d{1,9}|\d{4}\/\d{4})$/, RESULT_MESSAGES.sessionNotFound)
    .optional(),
  term: termField.optional(),
});
export type DashboardTermQuery = z.output<typeof dashboardTermQuerySchema>;

const termOrNull = z.enum(TERM_VALUES).nullable();
const date = z.string();

// ---------- the bursar ----------

/** The debtors' ageing bands: days since the oldest unpaid fee fell due (the debtors report's "days overdue"). */
export const AGEING_BANDS = ['0-30', '31-60', '60+'] as const;
export type AgeingBand = (typeof AGEING_BANDS)[number];
export const AGEING_BAND_LABELS: Record<AgeingBand, string> = {
  '0-30': '0–30 days',
  '31-60': '31–60 days',
  '60+': 'Over 60 days',
};
/** The band of a debtor owing for `days` days (0–30, 31–60, 61 and more). */
export function ageingBandOf(days: number): AgeingBand {
  return days <= 30 ? '0-30' : days <= 60 ? '31-60' : '60+';
}

export const bursarDashboardSchema = z
  .object({
    session_id: z.number(),
    session: z.string(),
    term: termOrNull,
    as_of: date,
    /** The term's days the collections cover (its first day to today, or its last day once over). */
    from: date.nullable(),
    to: date.nullable(),
    collections_by_day: z.array(z.object({ date, count: z.number(), amount: z.number() })),
    collections_by_method: z.array(z.object({ method: z.enum(PAYMENT_METHODS), count: z.number(), amount: z.number() })),
    /** The collection summary's classes added up by level (expected = due this term, brought forward included). */
    by_level: z.array(
      z.object({
        level: z.enum(CLASS_LEVELS),
        students: z.number(),
        expected: z.number(),
        collected: z.number(),
        outstanding: z.number(),
      }),
    ),
    totals: z.object({ expected: z.number(), collected: z.number(), outstanding: z.number(), brought_forward: z.number() }),
    debtors: z.object({ count: z.number(), total_balance: z.number() }),
    debtors_ageing: z.array(z.object({ band: z.enum(AGEING_BANDS), label: z.string(), debtors: z.number(), balance: z.number() })),
    transfers_waiting: z.object({ count: z.number(), amount: z.number(), oldest_reported_at: z.string().nullable() }),
  })
  .meta({ id: 'BursarDashboard' });
export type BursarDashboard = z.output<typeof bursarDashboardSchema>;

// ---------- the subject teacher and the form teacher ----------

export const staffSubjectProgressSchema = z.object({
  student_class: z.string(),
  subject: z.string(),
  /** Students with a score stored this term (the score sheet's rows with a result). */
  entered: z.number(),
  /** Students the sheet expects: the arm's students taking the subject, and anyone with a score in it. */
  expected: z.number(),
  /** The sheet's class average once any score is entered (null before). */
  average: z.number().nullable(),
});
export type StaffSubjectProgress = z.output<typeof staffSubjectProgressSchema>;

export const staffAbsenteeSchema = z.object({
  admission_number: z.string(),
  name: z.string(),
  period: z.enum(PERIODS),
  status: z.enum(ATTENDANCE_STATUSES),
  /** School days absent in a row up to today (the absent-today report's streak). */
  streak: z.number(),
  flagged: z.boolean(),
});

export const staffFormClassSchema = z.object({
  student_class: z.string(),
  students: z.number(),
  /** Today is a school day (no register is due otherwise). */
  school_day: z.boolean(),
  register_done: z.boolean(),
  absentees: z.array(staffAbsenteeSchema),
  /**
   * The arm's report cards this term (a card per student with a score, as the approvals count them),
   * and what the form teacher still owes on them before submitting.
   */
  cards: z.number(),
  card_status: z.enum(CARD_STATUSES),
  ratings_missing: z.number(),
  form_comments_missing: z.number(),
  comments_required: z.boolean(),
});
export type StaffFormClass = z.output<typeof staffFormClassSchema>;

export const staffDashboardSchema = z
  .object({
    session_id: z.number().nullable(),
    session: z.string().nullable(),
    term: termOrNull,
    today: date,
    subjects: z.array(staffSubjectProgressSchema),
    form_classes: z.array(staffFormClassSchema),
  })
  .meta({ id: 'StaffDashboard' });
export type StaffDashboard = z.output<typeof staffDashboardSchema>;
