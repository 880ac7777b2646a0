import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  absentQuerySchema,
  ADMIN_ONLY,
  ANY_ROLE,
  attendanceSettingsSchema,
  calendarEventSchema,
  calendarQuerySchema,
  carriedImportSchema,
  monthQuerySchema,
  registerQuerySchema,
  registerSaveSchema,
  STAFF_OR_ADMIN,
  studentAttendanceQuerySchema,
  termDatesSchema,
  totalsQuerySchema,
} from '@portal/domain';
import { currentUser } from '../../http/auth';
import type { AttendanceService } from './attendance.service';
import type { CarriedImportService } from './carried-import.service';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The attendance register and the school calendar. Staff here are form teachers: the service refuses anyone else (403). */
export function attendanceRoutes(
  app: FastifyInstance,
  { attendance: service, carriedImport: carried }: { attendance: AttendanceService; carriedImport: CarriedImportService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const actor = (req: Parameters<typeof currentUser>[0]) => {
    const u = currentUser(req);
    return { id: u.id, role: u.role };
  };
  const tags = ['attendance'];

  r.get('/api/attendance/calendar/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: calendarQuerySchema } }, (req) =>
    service.calendar(req.query.session_id),
  );
  // The session and term every term-based screen opens on: one rule, for every role (a student's card too).
  r.get('/api/current-term/', { config: { auth: ANY_ROLE }, schema: { tags } }, () => service.currentTerm());
  r.put('/api/attendance/settings/', { config: { auth: ADMIN_ONLY }, schema: { tags, body: attendanceSettingsSchema } }, (req) =>
    service.putSettings(actor(req), req.body),
  );
  r.put('/api/attendance/terms/', { config: { auth: ADMIN_ONLY }, schema: { tags, body: termDatesSchema } }, (req) =>
    service.putTerm(actor(req), req.body),
  );
  r.post('/api/attendance/events/', { config: { auth: ADMIN_ONLY }, schema: { tags, body: calendarEventSchema } }, async (req, reply) =>
    reply.status(201).send(await service.addEvent(actor(req), req.body)),
  );
  r.delete('/api/attendance/events/:id/', { config: { auth: ADMIN_ONLY }, schema: { tags, params: idParams } }, async (req, reply) => {
    await service.deleteEvent(actor(req), req.params.id);
    return reply.status(204).send();
  });

  r.get('/api/attendance/register/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: registerQuerySchema } }, (req) =>
    service.register(actor(req), req.query),
  );
  r.put('/api/attendance/register/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, body: registerSaveSchema } }, (req) =>
    service.saveRegister(actor(req), req.body),
  );

  r.get('/api/attendance/month/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: monthQuerySchema } }, (req) =>
    service.month(actor(req), req.query),
  );
  r.get('/api/attendance/student/', { config: { auth: ANY_ROLE }, schema: { tags, querystring: studentAttendanceQuerySchema } }, (req) =>
    service.student(actor(req), req.query),
  );
  r.get('/api/attendance/absent/', { config: { auth: ADMIN_ONLY }, schema: { tags, querystring: absentQuerySchema } }, (req) =>
    service.absent(req.query),
  );
  r.get('/api/attendance/totals/', { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: totalsQuerySchema } }, (req) =>
    service.totals(actor(req), req.query),
  );
  r.post(
    '/api/attendance/carried/import/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, body: carriedImportSchema } },
    async (req, reply) => {
      const out = await carried.import(actor(req), req.body);
      return reply.status(out.status).send(out.preview);
    },
  );
}
