import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
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

  // ---- classes (arms) and subjects -------------------------------------------------------------

  r.get(
    '/api/classes/',
    { config: { auth: ANY_ROLE }, schema: { tags, summary: "The school's classes (retired ones flagged)" } },
    async () => structure.classes(),
  );
  r.post(
    '/api/classes/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, summary: 'Add an arm to a class level', body: armCreateSchema } },
    async (request, reply) => reply.status(201).send(await structure.createArm(currentUser(request), request.body)),
  );
  r.patch(
    '/api/classes/:id/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'Rename (everywhere) or retire an arm', params: idParams, body: armPatchSchema },
    },
    async (request) => structure.patchArm(currentUser(request), request.params.id, request.body),
  );

  r.get(
    '/api/subjects/',
    { config: { auth: ANY_ROLE }, schema: { tags, summary: 'The subject catalogue (retired ones flagged)' } },
    async () => structure.subjects(),
  );
  r.post(
    '/api/subjects/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, summary: 'Add a subject to the catalogue', body: subjectCreateSchema } },
    async (request, reply) => reply.status(201).send(await structure.createSubject(currentUser(request), request.body)),
  );
  r.patch(
    '/api/subjects/:id/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'Edit, rename (in results too) or retire a subject', params: idParams, body: subjectPatchSchema },
    },
    async (request) => structure.patchSubject(currentUser(request), request.params.id, request.body),
  );

  // ---- structure, offerings, streams ------------------------------------------------------------

  r.get(
    '/api/teaching/structure/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, summary: 'Arms, subjects, offerings per level and streams' } },
    async () => structure.structure(),
  );
  r.put(
    '/api/teaching/offerings/:level/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'The subjects a class level offers', params: levelParam, body: offeringsSchema },
    },
    async (request) => structure.putOfferings(currentUser(request), request.params.level, request.body),
  );
  r.put(
    '/api/teaching/subjects/:id/offerings/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: "One subject's offering (compulsory, elective, stream, not offered) at several class levels, all or nothing",
        params: idParams,
        body: subjectOfferingsSchema,
      },
    },
    async (request) => structure.putSubjectOfferings(currentUser(request), request.params.id, request.body),
  );
  r.post(
    '/api/teaching/streams/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, summary: 'Add an SSS stream', body: streamSchema } },
    async (request, reply) => reply.status(201).send(await structure.saveStream(currentUser(request), null, request.body)),
  );
  r.put(
    '/api/teaching/streams/:id/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'Rename a stream or change its subjects', params: idParams, body: streamSchema },
    },
    async (request) => structure.saveStream(currentUser(request), request.params.id, request.body),
  );
  r.delete(
    '/api/teaching/streams/:id/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, summary: 'Delete a stream (its students keep their class)', params: idParams } },
    async (request, reply) => {
      await structure.deleteStream(currentUser(request), request.params.id);
      return reply.status(204).send();
    },
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
  r.put(
    '/api/teaching/students/:admission_number/subjects/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: "A student's stream and own subject choices", params: admissionNumberParams, body: studentSubjectsSchema },
    },
    async (request) => structure.putStudentSubjects(currentUser(request), request.params.admission_number, request.body),
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
  r.put(
    '/api/teaching/assignments/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, summary: 'Set the teachers of the arm-subject cells sent', body: assignmentsSchema } },
    async (request) => assignments.putAssignments(currentUser(request), request.body),
  );
  r.put(
    '/api/teaching/form-teachers/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, summary: 'Set form teachers of the arms sent', body: formTeachersSchema } },
    async (request) => assignments.putFormTeachers(currentUser(request), request.body),
  );
  r.post(
    '/api/teaching/assignments/copy/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, summary: "Copy the previous session's assignments", body: copyAssignmentsSchema } },
    async (request) => assignments.copy(currentUser(request), request.body),
  );
  r.put(
    '/api/teaching/windows/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'Open or close score entry for a term (and level)', body: scoreWindowSchema },
    },
    async (request) => assignments.setWindow(currentUser(request), request.body),
  );
  r.put(
    '/api/teaching/enforcement/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'Make assignments binding for score entry in a session', body: enforcementSchema },
    },
    async (request) => assignments.setEnforcement(currentUser(request), request.body),
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
