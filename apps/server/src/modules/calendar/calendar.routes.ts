import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  academicSessionListSchema,
  academicSessionSchema,
  attendanceSettingsResponseSchema,
  calendarEventResponseSchema,
  currentTermSchema,
  EVERY_ACCOUNT,
  schoolCalendarViewSchema,
  termDatesResponseSchema,
  idParams,
  ADMIN_ONLY,
  attendanceSettingsSchema,
  calendarEventSchema,
  calendarQuerySchema,
  sessionCreateSchema,
  sessionPatchSchema,
  STAFF_OR_ADMIN,
  termDatesSchema,
} from '@portal/domain';
import { currentUser } from '../../http/auth';
import { noContent } from '../../http/response-schemas';
import type { CalendarEditService } from './calendar-edit.service';
import type { CalendarService } from './calendar.service';
import type { SessionsService } from './sessions.service';

const eventParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/**
 * The school calendar: academic sessions, term dates, events (holidays, breaks, extra school days),
 * the current term. The edits check attendance's saved registers through the port the composition
 * root hands them (`RegisterDays`).
 */
export function calendarRoutes(
  app: FastifyInstance,
  {
    sessions,
    calendar,
    calendarEdits: edits,
  }: { sessions: SessionsService; calendar: CalendarService; calendarEdits: CalendarEditService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const actor = (req: Parameters<typeof currentUser>[0]) => ({ id: currentUser(req).id });
  const tags = ['attendance'];

  r.get(
    '/api/sessions/',
    { config: { auth: EVERY_ACCOUNT }, schema: { tags: ['sessions'], response: { 200: academicSessionListSchema } } },
    () => sessions.list(),
  );
  r.post(
    '/api/sessions/',
    { config: { auth: ADMIN_ONLY }, schema: { tags: ['sessions'], body: sessionCreateSchema, response: { 201: academicSessionSchema } } },
    async (req, reply) => reply.status(201).send(await sessions.create(req.body, currentUser(req).id)),
  );
  r.patch(
    '/api/sessions/:id/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags: ['sessions'], params: idParams, body: sessionPatchSchema, response: { 200: academicSessionSchema } },
    },
    (req) => sessions.update(req.params.id, req.body, currentUser(req).id),
  );

  r.get(
    '/api/attendance/calendar/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: calendarQuerySchema, response: { 200: schoolCalendarViewSchema } } },
    (req) => edits.view(req.query.session_id),
  );
  // The session and term every term-based screen opens on: one rule, for every role (a student's card too).
  r.get('/api/current-term/', { config: { auth: EVERY_ACCOUNT }, schema: { tags, response: { 200: currentTermSchema } } }, () =>
    calendar.currentTerm(),
  );
  r.put(
    '/api/attendance/settings/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, body: attendanceSettingsSchema, response: { 200: attendanceSettingsResponseSchema } } },
    (req) => edits.putSettings(actor(req), req.body),
  );
  r.put(
    '/api/attendance/terms/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, body: termDatesSchema, response: { 200: termDatesResponseSchema } } },
    (req) => edits.putTerm(actor(req), req.body),
  );
  r.post(
    '/api/attendance/events/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, body: calendarEventSchema, response: { 201: calendarEventResponseSchema } } },
    async (req, reply) => reply.status(201).send(await edits.addEvent(actor(req), req.body)),
  );
  r.delete(
    '/api/attendance/events/:id/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, params: eventParams, response: { 204: noContent } } },
    async (req, reply) => {
      await edits.deleteEvent(actor(req), req.params.id);
      return reply.status(204).send(null);
    },
  );
}
