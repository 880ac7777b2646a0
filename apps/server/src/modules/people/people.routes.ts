import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  studentPhotoSchema,
  admissionNumberParams,
  idParams,
  staffIdParams,
  ADMIN_ONLY,
  type Role,
  ANY_ROLE,
  importRequestSchema,
  newAccountsQuerySchema,
  STAFF_OR_ADMIN,
  staffCreateSchema,
  staffListQuerySchema,
  staffUpdateSchema,
  studentCreateSchema,
  studentListQuerySchema,
  studentUpdateSchema,
  importPreviewSchema,
  importResultSchema,
  importTooLargeSchema,
  legacyStaffSchema,
  legacyStudentSchema,
  newAccountsDaySchema,
  passwordResetResponseSchema,
  staffDetailSchema,
  staffListSchema,
  staffRegistrationSchema,
  studentHistorySchema,
  studentListSchema,
  studentPageSchema,
  studentPhotoResponseSchema,
  studentRecordSchema,
  studentRegistrationSchema,
} from '@portal/domain';
import { sendAttachment } from '../../http/attachment';
import { binaryResponse, noContent } from '../../http/response-schemas';
import { currentUser } from '../../http/auth';
import { writeRoutes } from '../../http/write-route';
import { staffCsv, studentsCsv, type ImportKind, type ImportService } from './import.service';
import type { NewAccountsService } from './new-accounts.service';
import type { StaffService } from './staff.service';
import type { StudentPhotosService } from './student-photos.service';
import type { StudentsService } from './students.service';

/** CSV bodies (sent as JSON `{csv}`) may be far bigger than the app-wide 1 MB limit: only here. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

/** The people services the routes call (built once by the composition root, src/composition.ts). */
export interface PeopleRoutesDeps {
  students: StudentsService;
  staff: StaffService;
  studentPhotos: StudentPhotosService;
  imports: ImportService;
  newAccounts: NewAccountsService;
}

/**
 * Students and staff: the documented calls at their paths under /api, plus paging, CSV
 * import/export and password resets. Roles: admin everything; staff students (all) and staff
 * (view); a student only their own record.
 */
export function peopleRoutes(app: FastifyInstance, deps: PeopleRoutesDeps): void {
  const { students, staff, studentPhotos: photos, imports, newAccounts } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = { students: ['students'], staff: ['staff'] };
  const write = { students: writeRoutes(r, tags.students), staff: writeRoutes(r, tags.staff) };

  /** Template, preview and all-or-nothing import of one kind of CSV, at /api/{kind}/import/…. */
  function importRoutes(kind: ImportKind, auth: readonly Role[]): void {
    const noun = kind === 'students' ? 'student' : 'staff';
    r.get(
      `/api/${kind}/import/template/`,
      {
        config: { auth },
        schema: {
          tags: tags[kind],
          summary: `CSV template for a ${noun} import`,
          response: { 200: binaryResponse('text/csv', `The ${noun} CSV template`) },
        },
      },
      async (_request, reply) => sendAttachment(reply, 'csv', `${kind}-template.csv`, imports.template(kind)),
    );
    r.post(
      `/api/${kind}/import/preview/`,
      {
        config: { auth },
        bodyLimit: IMPORT_BODY_LIMIT,
        schema: {
          tags: tags[kind],
          summary: `Check a ${noun} CSV: per-row errors and duplicates`,
          body: importRequestSchema,
          response: { 200: importPreviewSchema, 413: importTooLargeSchema },
        },
      },
      async (request) => imports.preview(kind, request.body.csv),
    );
    write[kind](
      'POST',
      `/api/${kind}/import/`,
      { auth, bodyLimit: IMPORT_BODY_LIMIT, status: 201 },
      {
        summary: `Import ${kind} from CSV (all or nothing)`,
        body: importRequestSchema,
        response: { 201: importResultSchema, 413: importTooLargeSchema },
      },
      (user, { body }) => imports.import(user, kind, body.csv),
    );
  }

  r.get(
    '/api/people/new-accounts/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: {
        tags: tags.students,
        summary: "The day's new accounts, to print their sign-in slips together (no passwords)",
        querystring: newAccountsQuerySchema,
        response: { 200: newAccountsDaySchema },
      },
    },
    async (request) => newAccounts.day(currentUser(request), request.query.date),
  );

  // ---- students -----------------------------------------------------------------------------

  write.students(
    'POST',
    '/api/students/',
    { auth: STAFF_OR_ADMIN, status: 201 },
    { summary: 'Register a student', body: studentCreateSchema, response: { 201: studentRegistrationSchema } },
    (user, { body }) => students.create(user, body),
  );

  r.get(
    '/api/students/list/',
    {
      config: { auth: ANY_ROLE },
      schema: {
        tags: tags.students,
        summary: 'List students (a student gets only their own record)',
        querystring: studentListQuerySchema,
        response: { 200: studentListSchema },
      },
    },
    async (request) => students.list(currentUser(request), request.query),
  );

  r.get(
    '/api/students/search/',
    {
      config: { auth: ANY_ROLE },
      schema: {
        tags: tags.students,
        summary: 'One page of students with the total count',
        querystring: studentListQuerySchema,
        response: { 200: studentPageSchema },
      },
    },
    async (request) => students.search(currentUser(request), request.query),
  );

  r.get(
    '/api/students/export/',
    {
      config: { auth: STAFF_OR_ADMIN, heavy: true },
      schema: {
        tags: tags.students,
        summary: 'Students as CSV',
        querystring: studentListQuerySchema,
        response: { 200: binaryResponse('text/csv', 'The students, as CSV') },
      },
    },
    async (request, reply) =>
      sendAttachment(reply, 'csv', 'students.csv', await studentsCsv(await students.exportRows(currentUser(request), request.query))),
  );

  importRoutes('students', STAFF_OR_ADMIN);

  r.get(
    '/api/students/:admission_number/',
    {
      config: { auth: ANY_ROLE },
      schema: { tags: tags.students, summary: 'One student', params: admissionNumberParams, response: { 200: studentRecordSchema } },
    },
    async (request) => students.get(currentUser(request), request.params.admission_number),
  );

  write.students(
    'PUT',
    '/api/students/:admission_number/',
    { auth: STAFF_OR_ADMIN },
    { summary: 'Update a student', params: admissionNumberParams, body: studentUpdateSchema, response: { 200: studentRecordSchema } },
    (user, { params, body }) => students.update(user, params.admission_number, body),
  );

  // A 2 MB image is about 2.7 MB as a data URL.
  write.students(
    'PUT',
    '/api/students/:admission_number/photo/',
    { auth: ADMIN_ONLY, bodyLimit: 4 * 1024 * 1024 },
    {
      summary: "Set or remove ('') a student's photo",
      params: admissionNumberParams,
      body: studentPhotoSchema,
      response: { 200: studentPhotoResponseSchema },
    },
    (user, { params, body }) => photos.put(user, params.admission_number, body),
  );

  write.students(
    'DELETE',
    '/api/students/:admission_number/',
    { auth: STAFF_OR_ADMIN, status: 204 },
    { summary: 'Delete a student with their results', params: admissionNumberParams, response: { 204: noContent } },
    (user, { params }) => students.delete(user, params.admission_number),
  );

  r.get(
    '/api/students/:admission_number/history/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: {
        tags: tags.students,
        summary: "Counts of a student's results and payments (before a delete)",
        params: admissionNumberParams,
        response: { 200: studentHistorySchema },
      },
    },
    async (request) => students.history(request.params.admission_number),
  );

  write.students(
    'POST',
    '/api/students/:admission_number/withdraw/',
    { auth: STAFF_OR_ADMIN },
    { summary: 'Withdraw a student: kept read-only, sign-in off', params: admissionNumberParams, response: { 200: studentRecordSchema } },
    (user, { params }) => students.withdraw(user, params.admission_number),
  );

  write.students(
    'POST',
    '/api/students/:admission_number/readmit/',
    { auth: STAFF_OR_ADMIN },
    { summary: 'Readmit a withdrawn student', params: admissionNumberParams, response: { 200: studentRecordSchema } },
    (user, { params }) => students.readmit(user, params.admission_number),
  );

  write.students(
    'POST',
    '/api/students/:admission_number/reset-password/',
    { auth: STAFF_OR_ADMIN },
    {
      summary: "Reset a student's password to a new one-time password",
      params: admissionNumberParams,
      response: { 200: passwordResetResponseSchema },
    },
    (user, { params }) => students.resetPassword(user, params.admission_number),
  );

  r.get(
    '/api/studentBase/:id',
    {
      config: { auth: ANY_ROLE },
      schema: { tags: tags.students, summary: 'Legacy student by internal id', params: idParams, response: { 200: legacyStudentSchema } },
    },
    async (request) => students.getLegacy(currentUser(request), request.params.id),
  );

  write.students(
    'DELETE',
    '/api/studentBase/:id',
    { auth: STAFF_OR_ADMIN, status: 204 },
    { summary: 'Legacy student delete', params: idParams, response: { 204: noContent } },
    (user, { params }) => students.deleteLegacy(user, params.id),
  );

  // ---- staff --------------------------------------------------------------------------------

  for (const url of ['/api/staff/', '/api/api/staff/']) {
    write.staff(
      'POST',
      url,
      { auth: ADMIN_ONLY, status: 201 },
      { summary: 'Register a staff member', body: staffCreateSchema, response: { 201: staffRegistrationSchema } },
      (user, { body }) => staff.create(user, body),
    );
  }

  r.get(
    '/api/staff/list/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags: tags.staff, summary: 'List staff', querystring: staffListQuerySchema, response: { 200: staffListSchema } },
    },
    async (request) => staff.list(request.query.q, request.query.limit, request.query.offset),
  );

  r.get(
    '/api/staff/export/',
    {
      config: { auth: STAFF_OR_ADMIN, heavy: true },
      schema: {
        tags: tags.staff,
        summary: 'Staff as CSV (no bank or tax details)',
        response: { 200: binaryResponse('text/csv', 'The staff, as CSV') },
      },
    },
    async (_request, reply) => sendAttachment(reply, 'csv', 'staff.csv', staffCsv(await staff.exportRows())),
  );

  importRoutes('staff', ADMIN_ONLY);

  r.get(
    '/api/staff/id/:id/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags: tags.staff, summary: 'One staff member by internal id', params: idParams, response: { 200: staffDetailSchema } },
    },
    async (request) => staff.getById(currentUser(request), request.params.id),
  );

  r.get(
    '/api/staff/:staff_id/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags: tags.staff, summary: 'One staff member', params: staffIdParams, response: { 200: staffDetailSchema } },
    },
    async (request) => staff.get(currentUser(request), request.params.staff_id),
  );

  write.staff(
    'PUT',
    '/api/staff/:staff_id/',
    { auth: ADMIN_ONLY },
    { summary: 'Update a staff member', params: staffIdParams, body: staffUpdateSchema, response: { 200: staffDetailSchema } },
    (user, { params, body }) => staff.update(user, params.staff_id, body),
  );

  write.staff(
    'DELETE',
    '/api/staff/:staff_id/',
    { auth: ADMIN_ONLY, status: 204 },
    { summary: 'Delete a staff member', params: staffIdParams, response: { 204: noContent } },
    (user, { params }) => staff.delete(user, params.staff_id),
  );

  write.staff(
    'POST',
    '/api/staff/:staff_id/reset-password/',
    { auth: ADMIN_ONLY },
    {
      summary: "Reset a staff member's password to a new one-time password",
      params: staffIdParams,
      response: { 200: passwordResetResponseSchema },
    },
    (user, { params }) => staff.resetPassword(user, params.staff_id),
  );

  r.get(
    '/api/staffBase/:id',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags: tags.staff, summary: 'Legacy staff by internal id', params: idParams, response: { 200: legacyStaffSchema } },
    },
    async (request) => staff.getLegacy(request.params.id),
  );

  write.staff(
    'DELETE',
    '/api/staffBase/:id',
    { auth: ADMIN_ONLY, status: 204 },
    { summary: 'Legacy staff delete', params: idParams, response: { 204: noContent } },
    (user, { params }) => staff.deleteLegacy(user, params.id),
  );
}
