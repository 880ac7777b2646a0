import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  absentQuerySchema,
  absentTodaySchema,
  ADMIN_ONLY,
  attendanceMonthSchema,
  attendanceRegisterSchema,
  carriedImportPreviewSchema,
  studentAttendanceSchema,
  termTotalsSchema,
  ANY_ROLE,
  carriedImportSchema,
  monthQuerySchema,
  registerQuerySchema,
  registerSaveSchema,
  STAFF_OR_ADMIN,
  studentAttendanceQuerySchema,
  totalsQuerySchema,
} from '@portal/domain';
import { currentActor } from '../../http/auth';
import type { AccessScope } from '../access/scope.service';
import { documentRoutes, sendImportPreview } from '../../http/document-routes';
import type { AttendanceService } from './attendance.service';
import type { RegisterService } from './register.service';
import type { CarriedImportService } from './carried-import.service';

/** The attendance register and its reports (the school calendar's routes are the calendar module's). Staff here are form teachers: the service refuses anyone else (403). */
export function attendanceRoutes(
  app: FastifyInstance,
  {
    attendance: service,
    registers,
    carriedImport: carried,
    scope,
  }: { attendance: AttendanceService; registers: RegisterService; carriedImport: CarriedImportService; scope: AccessScope },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['attendance'];

  documentRoutes(r, tags)('/api/attendance/register/', STAFF_OR_ADMIN, {
    load: [registerQuerySchema, (actor, query) => registers.register(actor, query), attendanceRegisterSchema],
    save: [registerSaveSchema, (actor, body) => registers.saveRegister(actor, body), attendanceRegisterSchema],
  });

  r.get(
    '/api/attendance/month/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: monthQuerySchema, response: { 200: attendanceMonthSchema } } },
    (req) => service.month(currentActor(req), req.query),
  );
  // A parent names one of their children (decision 035) and sees what the child sees.
  r.get(
    '/api/attendance/student/',
    {
      config: { auth: [...ANY_ROLE, 'parent'] },
      schema: { tags, querystring: studentAttendanceQuerySchema, response: { 200: studentAttendanceSchema } },
    },
    async (req) => service.student(await scope.actingFor(currentActor(req), req.query.admission_number), req.query),
  );
  r.get(
    '/api/attendance/absent/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, querystring: absentQuerySchema, response: { 200: absentTodaySchema } } },
    (req) => service.absent(req.query),
  );
  r.get(
    '/api/attendance/totals/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: totalsQuerySchema, response: { 200: termTotalsSchema } } },
    (req) => service.totals(currentActor(req), req.query),
  );
  // A refused import answers 400 with the same preview (its errors): apicore's 400 envelope is joined to it.
  r.post(
    '/api/attendance/carried/import/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, body: carriedImportSchema, response: { 200: carriedImportPreviewSchema } } },
    async (req, reply) => {
      await sendImportPreview(reply, carried.import(currentActor(req), req.body));
    },
  );
}
