// The admin / principal dashboard (issue 36, item 1; docs/decisions/046): the response of
// GET /api/dashboards/admin/, its query, and the words the screen shows. Every figure is one the
// underlying report shows on the same data (its link is beside it on the screen).
import { z } from 'zod';
import { TERM_VALUES } from './constants';
import { CARD_STATUSES } from './report-card-rules';
import { sessionIdField, termField } from './result-schemas';

/** `?session_id=&term=`: both or neither; neither is today's term (the school calendar). */
export const dashboardQuerySchema = z
  .object({ session_id: sessionIdField.optional(), term: termField.optional() })
  .refine((q) => (q.session_id === undefined) === (q.term === undefined), {
    message: 'Give the session and the term together, or neither for today’s term.',
    path: ['term'],
  });
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

const naira = z.number();
const count = z.number().int().nonnegative();

export const adminDashboardSchema = z
  .object({
    session: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    term: z.enum(TERM_VALUES).nullable(),
    today: z.string(),
    attendance: z.object({
      date: z.string(),
      /** Every arm with active students; `marked` once the day's morning register is saved (as Absent Today counts). */
      arms: z.array(
        z.object({
          student_class: z.string(),
          students: count,
          marked: z.boolean(),
          /** Marks of the day's morning register: present and late count as present. */
          present: count,
          marks: count,
          present_pct: z.number().nullable(),
        }),
      ),
    }),
    score_entry: z.object({
      subjects: z.array(z.string()),
      /** One per arm and subject taken there: results entered for the term against students taking it. */
      cells: z.array(z.object({ student_class: z.string(), subject: z.string(), entered: count, expected: count })),
    }),
    report_cards: z.array(z.object({ student_class: z.string(), students: count, status: z.enum(CARD_STATUSES) })),
    fees: z.object({
      expected: naira,
      collected: naira,
      outstanding: naira,
      by_level: z.array(z.object({ level: z.string(), expected: naira, collected: naira })),
      /** The last 30 days to today, every day (0 where nothing was received). */
      by_day: z.array(z.object({ date: z.string(), amount: naira, count })),
      debtors: z.object({ count, total: naira }),
    }),
    grades: z.object({
      /** The newest term of the session with released results (null: none released yet). */
      term: z.enum(TERM_VALUES).nullable(),
      grades: z.array(z.string()),
      subjects: z.array(z.object({ subject: z.string(), counts: z.record(z.string(), count) })),
    }),
    accounts: z.object({ new_today: count, blocked: count }),
  })
  .meta({ id: 'AdminDashboard' });
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;

export const DASHBOARD_MESSAGES = {
  adminTitle: 'The term at a glance',
  termShown: 'Term shown',
  todaysTerm: 'Today’s term',
  allScreens: 'All screens',
  showNumbers: 'Show numbers',
  showChart: 'Show chart',
  openReport: 'Open the report',
  loading: 'Loading the dashboard…',
  failed: 'The dashboard could not be loaded. The screens below still work.',
  noTerm: 'No term holds today in the school calendar: set the term dates to see the term’s figures.',
  notMarked: (arms: readonly string[]) => (arms.length ? `Not yet marked today: ${arms.join(', ')}.` : 'Every arm is marked today.'),
} as const;
