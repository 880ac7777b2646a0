import { z } from 'zod';
import { describes } from './response-check';
import {
  CLASS_LEVELS,
  SUBJECT_SECTIONS,
  type CatalogueSubject,
  type ClassArm,
  type LevelOffering,
  type MyClasses,
  type SessionAssignments,
  type Stream,
  type StudentSubjects,
  type StudentSubjectsAccess,
  type TeachingStructure,
} from './teaching';

// Response schemas of the teaching routes: arms, the subject catalogue, offerings, streams, a student's
// subjects, assignments and a teacher's classes.

/** An arm ("JSS 2B"): GET /api/classes/ lists them; a create or an edit answers one. */
export const classArmSchema = describes<ClassArm>()(
  z
    .object({
      id: z.number(),
      level: z.union([z.enum(CLASS_LEVELS), z.literal('')]).describe("'' for an arm retired from a name without a level"),
      arm: z.string(),
      name: z.string(),
      retired: z.boolean(),
      students: z.number().describe('Active students in the arm now'),
    })
    .meta({ id: 'ClassArm' }),
);
export const classArmListSchema = z.array(classArmSchema).meta({ id: 'ClassArmList' });

/** A subject of the catalogue: GET /api/subjects/ lists them; a create or an edit answers one. */
export const catalogueSubjectSchema = describes<CatalogueSubject>()(
  z
    .object({ id: z.number(), name: z.string(), code: z.string(), section: z.enum(SUBJECT_SECTIONS), retired: z.boolean() })
    .meta({ id: 'CatalogueSubject' }),
);
export const catalogueSubjectListSchema = z.array(catalogueSubjectSchema).meta({ id: 'CatalogueSubjectList' });

/** The subjects a class level offers: PUT /api/teaching/offerings/{level}/ answers it. */
export const levelOfferingSchema = describes<LevelOffering>()(
  z
    .object({ class_level: z.enum(CLASS_LEVELS), subjects: z.array(z.object({ subject_id: z.number(), compulsory: z.boolean() })) })
    .meta({ id: 'LevelOffering' }),
);
/** PUT /api/teaching/subjects/{id}/offerings/: every level's offering after the change. */
export const levelOfferingListSchema = z.array(levelOfferingSchema).meta({ id: 'LevelOfferingList' });

/** An SSS stream: its create or edit answers it. */
export const streamResponseSchema = describes<Stream>()(
  z.object({ id: z.number(), name: z.string(), subject_ids: z.array(z.number()) }).meta({ id: 'Stream' }),
);

/** GET /api/teaching/structure/: arms, subjects, offerings per level and streams. */
export const teachingStructureSchema = describes<TeachingStructure>()(
  z
    .object({
      arms: z.array(classArmSchema),
      subjects: z.array(catalogueSubjectSchema),
      offerings: z.array(levelOfferingSchema),
      streams: z.array(streamResponseSchema),
    })
    .meta({ id: 'TeachingStructure' }),
);

const studentSubjectsShape = {
  admission_number: z.string(),
  student_class: z.string(),
  stream_id: z.number().nullable(),
  add: z.array(z.number()),
  drop: z.array(z.number()),
  subjects: z.array(z.string()).describe('The subjects the student takes, from their level, stream and choices'),
};

/** PUT /api/teaching/students/{admission_number}/subjects/: the student's subjects after the change. */
export const studentSubjectsResponseSchema = describes<StudentSubjects>()(z.object(studentSubjectsShape).meta({ id: 'StudentSubjects' }));

/** GET /api/teaching/students/{admission_number}/subjects/: the subjects and which the caller may score now. */
export const studentSubjectsAccessSchema = describes<StudentSubjectsAccess>()(
  z
    .object({
      ...studentSubjectsShape,
      session_id: z.number().nullable(),
      term: z.string(),
      writable: z.array(z.string()),
      refusal: z.string().nullable(),
    })
    .meta({ id: 'StudentSubjectsAccess' }),
);

const staffNameSchema = z.object({ id: z.number(), staff_id: z.string(), name: z.string() });

/** A session's assignments, form teachers, score-entry windows and switch (GET and every edit of them). */
export const sessionAssignmentsSchema = describes<SessionAssignments>()(
  z
    .object({
      session_id: z.number(),
      enforce_assignments: z.boolean(),
      cells: z.array(z.object({ arm_id: z.number(), subject_id: z.number(), staff: z.array(staffNameSchema) })),
      form_teachers: z.array(z.object({ arm_id: z.number(), staff: staffNameSchema.nullable() })),
      windows: z.array(z.object({ term: z.string(), class_level: z.string(), is_open: z.boolean() })),
    })
    .meta({ id: 'SessionAssignments' }),
);

/** POST /api/teaching/assignments/copy/: how many were copied, and from which session. */
export const assignmentsCopiedSchema = z.object({ copied: z.number(), from: z.string() }).meta({ id: 'AssignmentsCopied' });

/** GET /api/teaching/my-classes/: the signed-in teacher's classes this session. */
export const myClassesSchema = describes<MyClasses>()(
  z
    .object({
      session: z.object({ id: z.number(), name: z.string() }).nullable(),
      enforce_assignments: z.boolean(),
      subjects: z.array(z.object({ arm_id: z.number(), class_name: z.string(), subject: z.string(), students: z.number() })),
      form_classes: z.array(z.object({ arm_id: z.number(), class_name: z.string(), students: z.number() })),
    })
    .meta({ id: 'MyClasses' }),
);
