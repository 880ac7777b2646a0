import { z } from 'zod';
import type { AttendanceSettings } from './attendance-rules';
import { CALENDAR_EVENT_KINDS, type CalendarEvent, type TermDates } from './attendance-calendar';
import type { SchoolCalendarView } from './attendance';
import { TERM_VALUES } from './constants';
import type { CurrentTerm } from './current-term';
import type { AcademicSession } from './results';
import { describes } from './response-check';

// Response schemas of the school calendar: academic sessions, term dates, events, the current term.

/** An academic session ("2025/2026"): GET /api/sessions/ lists them; a create or an edit answers one. */
export const academicSessionSchema = describes<AcademicSession>()(
  z.object({ id: z.number(), name: z.string(), is_current: z.boolean() }).meta({ id: 'AcademicSession' }),
);
export const academicSessionListSchema = z.array(academicSessionSchema).meta({ id: 'AcademicSessionList' });

const termField = z.enum(TERM_VALUES);

/** The attendance register's settings: PUT /api/attendance/settings/ answers them. */
export const attendanceSettingsResponseSchema = describes<AttendanceSettings>()(
  z.object({ periods_per_day: z.union([z.literal(1), z.literal(2)]), saturday_classes: z.boolean() }).meta({ id: 'AttendanceSettings' }),
);

/** A term's dates: PUT /api/attendance/terms/ answers them. */
export const termDatesResponseSchema = describes<TermDates>()(
  z.object({ session_id: z.number(), term: termField, starts_on: z.string(), ends_on: z.string() }).meta({ id: 'TermDates' }),
);

/** A holiday, a break or an extra school day: POST /api/attendance/events/ answers the one added. */
export const calendarEventResponseSchema = describes<CalendarEvent>()(
  z
    .object({ id: z.number(), name: z.string(), kind: z.enum(CALENDAR_EVENT_KINDS), starts_on: z.string(), ends_on: z.string() })
    .meta({ id: 'CalendarEvent' }),
);

/** GET /api/attendance/calendar/: one session's settings, terms (with school days and registers saved) and events. */
export const schoolCalendarViewSchema = describes<SchoolCalendarView>()(
  z
    .object({
      session_id: z.number(),
      session_name: z.string(),
      settings: attendanceSettingsResponseSchema,
      terms: z.array(
        z.object({
          session_id: z.number(),
          term: termField,
          starts_on: z.string().nullable(),
          ends_on: z.string().nullable(),
          school_days: z.number().nullable(),
          registers: z.number(),
        }),
      ),
      events: z.array(calendarEventResponseSchema),
      today: z.string(),
    })
    .meta({ id: 'SchoolCalendarView' }),
);

/** GET /api/current-term/: the session and term every term-based screen opens on. */
export const currentTermSchema = describes<CurrentTerm>()(
  z
    .object({
      session_id: z.number().nullable(),
      session_name: z.string().nullable(),
      term: termField.nullable(),
      starts_on: z.string().nullable(),
      ends_on: z.string().nullable(),
      today: z.string(),
      basis: z.enum(['in_term', 'term_ended', 'term_ahead', 'no_calendar']),
    })
    .meta({ id: 'CurrentTerm' }),
);
