import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EVERY_ACCOUNT,
  ADMIN_ONLY,
  admissionNumberParams,
  ANY_ROLE,
  armCreateSchema,
  armPatchSchema,
  assignmentsSchema,
  classLevelField,
  copyAssignmentsSchema,
  enforcementSchema,
  formTeachersSchema,
  idParams,
  offeringsSchema,
  scoreWindowSchema,
  sessionQuerySchema,
  STAFF_OR_ADMIN,
  streamSchema,
  studentSubjectsQuerySchema,
  studentSubjectsSchema,
  subjectCreateSchema,
  subjectOfferingsSchema,
  subjectPatchSchema,
  assignmentsCopiedSchema,
  catalogueSubjectListSchema,
  catalogueSubjectSchema,
  classArmListSchema,
  classArmSchema,
  levelOfferingListSchema,
  levelOfferingSchema,
  myClassesSchema,
  sessionAssignmentsSchema,
  streamResponseSchema,
  studentSubjectsAccessSchema,
  studentSubjectsResponseSchema,
  teachingStructureSchema,
} from '@portal/domain';
import { currentUser } from '../../http/auth';
import { noContent } from '../../http/response-schemas';
import { writeRoutes } from '../../http/write-route';
import type { AssignmentsService } from './assignments.service';
import type { StructureService } from './structure.service';

const levelParam = z.object({ level: classLevelField });

/**
 * The school's classes (arms) and subjects, what each level offers, streams, a student's subjects,
 * and who teaches what in a session. Lists are readable by every signed-in user (every class and
 * subject select uses them); the structure by staff; every change by the admin only.
 */
export function teachingRoutes(
  app: FastifyInstance,
  { structure, assignments }: { structure: StructureService; assignments: AssignmentsService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['teaching'];
  const write = writeRoutes(r, tags);

  // ---- classes (arms) and subjects -------------------------------------------------------------

  r.get(
    '/api/classes/',
    {
      config: { auth: EVERY_ACCOUNT },
      schema: { tags, summary: "The school's classes (retired ones flagged)", response: { 200: classArmListSchema } },
    },
    async () => structure.classes(),
  );
  write(
    'POST',
    '/api/classes/',
    { auth: ADMIN_ONLY, status: 201 },
    { summary: 'Add an arm to a class level', body: armCreateSchema, response: { 201: classArmSchema } },
    (user, { body }) => structure.createArm(user, body),
  );
  write(
    'PATCH',
    '/api/classes/:id/',
    { auth: ADMIN_ONLY },
    { summary: 'Rename (everywhere) or retire an arm', params: idParams, body: armPatchSchema, response: { 200: classArmSchema } },
    (user, { params, body }) => structure.patchArm(user, params.id, body),
  );

  r.get(
    '/api/subjects/',
    {
      config: { auth: ANY_ROLE },
      schema: { tags, summary: 'The subject catalogue (retired ones flagged)', response: { 200: catalogueSubjectListSchema } },
    },
    async () => structure.subjects(),
  );
  write(
    'POST',
    '/api/subjects/',
    { auth: ADMIN_ONLY, status: 201 },
    { summary: 'Add a subject to the catalogue', body: subjectCreateSchema, response: { 201: catalogueSubjectSchema } },
    (user, { body }) => structure.createSubject(user, body),
  );
  write(
    'PATCH',
    '/api/subjects/:id/',
    { auth: ADMIN_ONLY },
    {
      summary: 'Edit, rename (in results too) or retire a subject',
      params: idParams,
      body: subjectPatchSchema,
      response: { 200: catalogueSubjectSchema },
    },
    (user, { params, body }) => structure.patchSubject(user, params.id, body),
  );

  // ---- structure, offerings, streams ------------------------------------------------------------

  r.get(
    '/api/teaching/structure/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags, summary: 'Arms, subjects, offerings per level and streams', response: { 200: teachingStructureSchema } },
    },
    async () => structure.structure(),
  );
  write(
    'PUT',
    '/api/teaching/offerings/:level/',
    { auth: ADMIN_ONLY },
    { summary: 'The subjects a class level offers', params: levelParam, body: offeringsSchema, response: { 200: levelOfferingSchema } },
    (user, { params, body }) => structure.putOfferings(user, params.level, body),
  );
  write(
    'PUT',
    '/api/teaching/subjects/:id/offerings/',
    { auth: ADMIN_ONLY },
    {
      summary: "One subject's offering (compulsory, elective, stream, not offered) at several class levels, all or nothing",
      params: idParams,
      body: subjectOfferingsSchema,
      response: { 200: levelOfferingListSchema },
    },
    (user, { params, body }) => structure.putSubjectOfferings(user, params.id, body),
  );
  write(
    'POST',
    '/api/teaching/streams/',
    { auth: ADMIN_ONLY, status: 201 },
    { summary: 'Add an SSS stream', body: streamSchema, response: { 201: streamResponseSchema } },
    (user, { body }) => structure.saveStream(user, null, body),
  );
  write(
    'PUT',
    '/api/teaching/streams/:id/',
    { auth: ADMIN_ONLY },
    { summary: 'Rename a stream or change its subjects', params: idParams, body: streamSchema, response: { 200: streamResponseSchema } },
    (user, { params, body }) => structure.saveStream(user, params.id, body),
  );
  write(
    'DELETE',
    '/api/teaching/streams/:id/',
    { auth: ADMIN_ONLY, status: 204 },
    { summary: 'Delete a stream (its students keep their class)', params: idParams, response: { 204: noContent } },
    (user, { params }) => structure.deleteStream(user, params.id),
  );

  // ---- one student's subjects -------------------------------------------------------------------

  r.get(
    '/api/teaching/students/:admission_number/subjects/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: {
        tags,
        summary: "A student's subjects and which the caller may score now",
        params: admissionNumberParams,
        querystring: studentSubjectsQuerySchema,
        response: { 200: studentSubjectsAccessSchema },
      },
    },
    async (request) => structure.studentSubjects(currentUser(request), request.params.admission_number, request.query),
  );
  write(
    'PUT',
    '/api/teaching/students/:admission_number/subjects/',
    { auth: ADMIN_ONLY },
    {
      summary: "A student's stream and own subject choices",
      params: admissionNumberParams,
      body: studentSubjectsSchema,
      response: { 200: studentSubjectsResponseSchema },
    },
    (user, { params, body }) => structure.putStudentSubjects(user, params.admission_number, body),
  );

  // ---- assignments, form teachers, windows, enforcement -----------------------------------------

  r.get(
    '/api/teaching/assignments/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: "A session's assignments, form teachers, windows and switch",
        querystring: sessionQuerySchema,
        response: { 200: sessionAssignmentsSchema },
      },
    },
    async (request) => assignments.get(request.query.session_id),
  );
  write(
    'PUT',
    '/api/teaching/assignments/',
    { auth: ADMIN_ONLY },
    { summary: 'Set the teachers of the arm-subject cells sent', body: assignmentsSchema, response: { 200: sessionAssignmentsSchema } },
    (user, { body }) => assignments.putAssignments(user, body),
  );
  write(
    'PUT',
    '/api/teaching/form-teachers/',
    { auth: ADMIN_ONLY },
    { summary: 'Set form teachers of the arms sent', body: formTeachersSchema, response: { 200: sessionAssignmentsSchema } },
    (user, { body }) => assignments.putFormTeachers(user, body),
  );
  write(
    'POST',
    '/api/teaching/assignments/copy/',
    { auth: ADMIN_ONLY },
    { summary: "Copy the previous session's assignments", body: copyAssignmentsSchema, response: { 200: assignmentsCopiedSchema } },
    (user, { body }) => assignments.copy(user, body),
  );
  write(
    'PUT',
    '/api/teaching/windows/',
    { auth: ADMIN_ONLY },
    { summary: 'Open or close score entry for a term (and level)', body: scoreWindowSchema, response: { 200: sessionAssignmentsSchema } },
    (user, { body }) => assignments.setWindow(user, body),
  );
  write(
    'PUT',
    '/api/teaching/enforcement/',
    { auth: ADMIN_ONLY },
    {
      summary: 'Make assignments binding for score entry in a session',
      body: enforcementSchema,
      response: { 200: sessionAssignmentsSchema },
    },
    (user, { body }) => assignments.setEnforcement(user, body),
  );
  r.get(
    '/api/teaching/my-classes/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: {
        tags,
        summary: "The signed-in teacher's classes this session",
        querystring: sessionQuerySchema,
        response: { 200: myClassesSchema },
      },
    },
    async (request) => assignments.myClasses(currentUser(request), request.query.session_id),
  );
}
