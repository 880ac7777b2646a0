/**
 * The student's dashboard (issue 36 item 4), also the parent's view of each child: the query, the
 * response shape (zod, so tests and the client read the same contract) and the words it shows.
 */
import { z } from 'zod';
import { TERM_VALUES } from './constants';
import { admissionNumberField, sessionIdField, termField } from './result-schemas';

/** GET /api/dashboards/student/?student=&session_id=&term= (the student: their own; a parent: a linked child; the admin: any). */
export const studentDashboardQuerySchema = z.object({
  student: admissionNumberField.optional(),
  session_id: sessionIdField.optional(),
  term: termField.optional(),
});
export type StudentDashboardQuery = z.infer<typeof studentDashboardQuerySchema>;

const term = z.enum(TERM_VALUES);

/** One released term card the viewer may see: its average and position in the arm of that term. */
export const dashboardTermPointSchema = z.object({
  session_id: z.number().int(),
  session: z.string(),
  term,
  arm: z.string(),
  average: z.number(),
  position: z.number().int(),
  out_of: z.number().int(),
  /** The arm's average that term (the mean of its students' averages, as the card prints it). */
  class_average: z.number(),
});
export type DashboardTermPoint = z.infer<typeof dashboardTermPointSchema>;

export const dashboardSubjectSchema = z.object({
  subject: z.string(),
  score: z.number(),
  class_average: z.number(),
});

export const studentDashboardSchema = z
  .object({
    student: z.object({
      admission_number: z.string(),
      name: z.string(),
      /** The arm now (a graduated student's last arm). */
      arm: z.string(),
      status: z.string(),
    }),
    /** The term shown: the one asked for, else today's term (school calendar); null before any session. */
    session_id: z.number().int().nullable(),
    session: z.string().nullable(),
    term: term.nullable(),
    /** Every released term card the viewer may see, oldest first (a line). */
    history: z.array(dashboardTermPointSchema),
    /** Released cards withheld by the fee gate (decision 042): named, never with their figures. */
    withheld: z.array(z.object({ session_id: z.number().int(), session: z.string(), term })),
    /**
     * This term's subjects against the class average (bars): only once the card is released and not
     * withheld; `state` says which.
     */
    subjects: z.object({
      state: z.enum(['released', 'not_released', 'withheld', 'no_results']),
      arm: z.string().nullable(),
      rows: z.array(dashboardSubjectSchema),
    }),
    /** This term's register: null when the student was in no arm this term (e.g. graduated) or the term has no dates. */
    attendance: z
      .object({
        present: z.number().int(),
        late: z.number().int(),
        absent: z.number().int(),
        /** Present (on time or late, carried-in included) out of the days marked, as the card counts them; null when none. */
        percent: z.number().nullable(),
      })
      .nullable(),
    /** The statement's balance for the session (naira, arrears brought forward included; negative = credit). */
    fees: z
      .object({
        session_id: z.number().int(),
        session: z.string(),
        balance: z.number(),
        brought_forward: z.number(),
        as_of: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'StudentDashboard' });
export type StudentDashboard = z.infer<typeof studentDashboardSchema>;

/** The dashboard's words (server and client). */
export const STUDENT_DASHBOARD_TEXT = {
  title: 'My term at a glance',
  childTitle: (name: string) => `${name}: the term at a glance`,
  historyTitle: 'Average and position, term by term',
  historyAlt: (n: number) =>
    n === 0 ? 'No released report card yet.' : `Average of ${n} released term${n === 1 ? '' : 's'}, oldest first.`,
  subjectsTitle: 'Subjects this term against the class average',
  subjectsNotReleased: 'This term’s report card is not released yet.',
  subjectsWithheld: 'This term’s report card is withheld until the term’s fees are paid.',
  subjectsNone: 'No results this term.',
  withheld: (n: number) => `${n} released card${n === 1 ? ' is' : 's are'} withheld until fees are paid.`,
  attendanceTitle: 'Attendance this term',
  attendanceNone: 'No register this term.',
  feesTitle: 'School fees',
  graduated: 'Graduated: the report cards of the years in school are below.',
} as const;

/** Present on time or late as a share of the days marked (one decimal), as the card counts days; null when none are marked. */
export function attendancePercent(presentDays: number, absentDays: number): number | null {
  const marked = presentDays + absentDays;
  if (marked <= 0) return null;
  return Math.round((presentDays / marked) * 1000) / 10;
}
