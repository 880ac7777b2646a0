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
} from '@portal/domain';
import { currentUser } from '../../http/auth';
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
    { config: { auth: EVERY_ACCOUNT }, schema: { tags, summary: "The school's classes (retired ones flagged)" } },
    async () => structure.classes(),
  );
  write(
    'POST',
    '/api/classes/',
    { auth: ADMIN_ONLY, status: 201 },
    { summary: 'Add an arm to a class level', body: armCreateSchema },
    (user, { body }) => structure.createArm(user, body),
  );
  write(
    'PATCH',
    '/api/classes/:id/',
    { auth: ADMIN_ONLY },
    { summary: 'Rename (everywhere) or retire an arm', params: idParams, body: armPatchSchema },
    (user, { params, body }) => structure.patchArm(user, params.id, body),
  );

  r.get(
    '/api/subjects/',
    { config: { auth: ANY_ROLE }, schema: { tags, summary: 'The subject catalogue (retired ones flagged)' } },
    async () => structure.subjects(),
  );
  write(
    'POST',
    '/api/subjects/',
    { auth: ADMIN_ONLY, status: 201 },
    { summary: 'Add a subject to the catalogue', body: subjectCreateSchema },
    (user, { body }) => structure.createSubject(user, body),
  );
  write(
    'PATCH',
    '/api/subjects/:id/',
    { auth: ADMIN_ONLY },
    { summary: 'Edit, rename (in results too) or retire a subject', params: idParams, body: subjectPatchSchema },
    (user, { params, body }) => structure.patchSubject(user, params.id, body),
  );

  // ---- structure, offerings, streams ------------------------------------------------------------

  r.get(
    '/api/teaching/structure/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, summary: 'Arms, subjects, offerings per level and streams' } },
    async () => structure.structure(),
  );
  write(
    'PUT',
    '/api/teaching/offerings/:level/',
    { auth: ADMIN_ONLY },
    { summary: 'The subjects a class level offers', params: levelParam, body: offeringsSchema },
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
    },
    (user, { params, body }) => structure.putSubjectOfferings(user, params.id, body),
  );
  write(
    'POST',
    '/api/teaching/streams/',
    { auth: ADMIN_ONLY, status: 201 },
    { summary: 'Add an SSS stream', body: streamSchema },
    (user, { body }) => structure.saveStream(user, null, body),
  );
  write(
    'PUT',
    '/api/teaching/streams/:id/',
    { auth: ADMIN_ONLY },
    { summary: 'Rename a stream or change its subjects', params: idParams, body: streamSchema },
    (user, { params, body }) => structure.saveStream(user, params.id, body),
  );
  write(
    'DELETE',
    '/api/teaching/streams/:id/',
    { auth: ADMIN_ONLY, status: 204 },
    { summary: 'Delete a stream (its students keep their class)', params: idParams },
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
      },
    },
    async (request) => structure.studentSubjects(currentUser(request), request.params.admission_number, request.query),
  );
  write(
    'PUT',
    '/api/teaching/students/:admission_number/subjects/',
    { auth: ADMIN_ONLY },
    { summary: "A student's stream and own subject choices", params: admissionNumberParams, body: studentSubjectsSchema },
    (user, { params, body }) => structure.putStudentSubjects(user, params.admission_number, body),
  );

  // ---- assignments, form teachers, windows, enforcement -----------------------------------------

  r.get(
    '/api/teaching/assignments/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: "A session's assignments, form teachers, windows and switch", querystring: sessionQuerySchema },
    },
    async (request) => assignments.get(request.query.session_id),
  );
  write(
    'PUT',
    '/api/teaching/assignments/',
    { auth: ADMIN_ONLY },
    { summary: 'Set the teachers of the arm-subject cells sent', body: assignmentsSchema },
    (user, { body }) => assignments.putAssignments(user, body),
  );
  write(
    'PUT',
    '/api/teaching/form-teachers/',
    { auth: ADMIN_ONLY },
    { summary: 'Set form teachers of the arms sent', body: formTeachersSchema },
    (user, { body }) => assignments.putFormTeachers(user, body),
  );
  write(
    'POST',
    '/api/teaching/assignments/copy/',
    { auth: ADMIN_ONLY },
    { summary: "Copy the previous session's assignments", body: copyAssignmentsSchema },
    (user, { body }) => assignments.copy(user, body),
  );
  write(
    'PUT',
    '/api/teaching/windows/',
    { auth: ADMIN_ONLY },
    { summary: 'Open or close score entry for a term (and level)', body: scoreWindowSchema },
    (user, { body }) => assignments.setWindow(user, body),
  );
  write(
    'PUT',
    '/api/teaching/enforcement/',
    { auth: ADMIN_ONLY },
    { summary: 'Make assignments binding for score entry in a session', body: enforcementSchema },
    (user, { body }) => assignments.setEnforcement(user, body),
  );
  r.get(
    '/api/teaching/my-classes/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: { tags, summary: "The signed-in teacher's classes this session", querystring: sessionQuerySchema },
    },
    async (request) => assignments.myClasses(currentUser(request), request.query.session_id),
  );
}
