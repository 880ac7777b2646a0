import { z } from 'zod';
import type { AbsentToday, CarriedImportPreview, MonthGrid, Register, StudentAttendance, TermTotals } from './attendance';
import type { DayInfo } from './attendance-calendar';
import { ATTENDANCE_STATUSES, PERIODS } from './attendance-rules';
import { TERM_VALUES } from './constants';
import { describes } from './response-check';

// Response schemas of the attendance register and its reports (the calendar's are in calendar-responses.ts).

const termField = z.enum(TERM_VALUES);
const statusField = z.enum(ATTENDANCE_STATUSES);
const periodField = z.enum(PERIODS);
const periodsPerDay = z.union([z.literal(1), z.literal(2)]);
const markCountsSchema = z.object({ present: z.number(), late: z.number(), absent: z.number(), excused: z.number() });
const carriedSchema = z.object({ present: z.number(), absent: z.number() }).nullable();

/** Whether a date is a school day, and if not why (with the sentence the screens show). */
export const dayInfoSchema = describes<DayInfo>()(
  z
    .discriminatedUnion('school_day', [
      z.object({ school_day: z.literal(true), session_id: z.number(), term: termField }),
      z.object({
        school_day: z.literal(false),
        reason: z.enum(['weekend', 'holiday', 'outside_term']),
        message: z.string(),
        session_id: z.number().nullable(),
        term: termField.nullable(),
      }),
    ])
    .meta({ id: 'AttendanceDayInfo' }),
);

/** GET and PUT /api/attendance/register/: an arm's register for one date and period. */
export const attendanceRegisterSchema = describes<Register>()(
  z
    .object({
      student_class: z.string(),
      date: z.string(),
      period: periodField,
      periods_per_day: periodsPerDay,
      day: dayInfoSchema,
      today: z.string(),
      saved: z
        .object({
          version: z.number(),
          marked_by: z.string().nullable(),
          marked_at: z.string(),
          updated_by: z.string().nullable(),
          updated_at: z.string(),
        })
        .nullable(),
      may_edit: z.boolean(),
      refusal: z.string().nullable(),
      form_teacher: z.string().nullable(),
      rows: z.array(
        z.object({ admission_number: z.string(), name: z.string(), status: statusField.nullable(), absent_before: z.number() }),
      ),
      unmarked_days: z.array(z.string()),
    })
    .meta({ id: 'AttendanceRegister' }),
);

/** GET /api/attendance/month/: an arm's month of registers. */
export const attendanceMonthSchema = describes<MonthGrid>()(
  z
    .object({
      student_class: z.string(),
      month: z.string(),
      periods_per_day: periodsPerDay,
      days: z.array(z.object({ date: z.string(), school_day: z.boolean(), note: z.string().nullable(), registers: z.number() })),
      rows: z.array(
        z.object({
          admission_number: z.string(),
          name: z.string(),
          marks: z.record(z.string(), z.array(statusField.nullable())),
          counts: markCountsSchema,
          longest_streak: z.number(),
          flagged: z.boolean(),
        }),
      ),
    })
    .meta({ id: 'AttendanceMonth' }),
);

/** GET /api/attendance/student/: one student's term. */
export const studentAttendanceSchema = describes<StudentAttendance>()(
  z
    .object({
      admission_number: z.string(),
      name: z.string(),
      student_class: z.string(),
      session_id: z.number(),
      session_name: z.string(),
      term: termField,
      times_opened: z.number().nullable(),
      counts: markCountsSchema,
      carried: carriedSchema,
      present: z.number(),
      absent: z.number(),
      days: z.array(z.object({ date: z.string(), period: periodField, status: statusField })),
      current_streak: z.number(),
      flagged: z.boolean(),
    })
    .meta({ id: 'StudentAttendance' }),
);

/** GET /api/attendance/absent/ (admin): who is absent on a date across the school. */
export const absentTodaySchema = describes<AbsentToday>()(
  z
    .object({
      date: z.string(),
      day: dayInfoSchema,
      absentees: z.array(
        z.object({
          admission_number: z.string(),
          name: z.string(),
          student_class: z.string(),
          period: periodField,
          status: statusField,
          streak: z.number(),
          flagged: z.boolean(),
        }),
      ),
      arms_not_marked: z.array(z.string()),
      arms_marked: z.number(),
    })
    .meta({ id: 'AbsentToday' }),
);

/** GET /api/attendance/totals/: a term's totals per student (register plus carried-in days). */
export const termTotalsSchema = describes<TermTotals>()(
  z
    .object({
      session_id: z.number(),
      term: termField,
      times_opened: z.number().nullable(),
      rows: z.array(
        z.object({
          admission_number: z.string(),
          name: z.string(),
          student_class: z.string(),
          counts: markCountsSchema,
          carried: carriedSchema,
          present: z.number(),
          absent: z.number(),
        }),
      ),
    })
    .meta({ id: 'AttendanceTermTotals' }),
);

/** POST /api/attendance/carried/import/: the rows read and their errors; `applied` once stored (also the body of its 400). */
export const carriedImportPreviewSchema = describes<CarriedImportPreview>()(
  z
    .object({
      rows: z.array(
        z.object({
          line: z.number(),
          admission_number: z.string(),
          name: z.string(),
          days_present: z.number(),
          days_absent: z.number(),
          change: z.enum(['new', 'update', 'same']),
        }),
      ),
      errors: z.array(z.object({ line: z.number(), column: z.string().nullable(), message: z.string() })),
      applied: z.boolean(),
    })
    .meta({ id: 'CarriedAttendanceImportPreview' }),
);
