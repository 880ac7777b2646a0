import { z } from 'zod';
import { valuesOf } from './choices';
import { TERM_VALUES, type Level, type Role } from './constants';
import { ID_MAX } from './ids';
import { textField } from './text';

/**
 * Teaching structure: class arms, the subject catalogue, what each class level offers, streams,
 * per-student subject choices, subject and form teachers per session, and who may write a score.
 * Class and subject names stay the keys stored on students and results; these are the school's
 * lists of them.
 */

/** The six class levels every Nigerian secondary school has; arms hang under them. */
export const CLASS_LEVELS = ['JSS 1', 'JSS 2', 'JSS 3', 'SSS 1', 'SSS 2', 'SSS 3'] as const;
export type ClassLevel = (typeof CLASS_LEVELS)[number];

/** Which part of the school a catalogue subject belongs to: junior, senior, or both. */
export const SUBJECT_SECTIONS = ['JSS', 'SSS', 'ALL'] as const;
export type SubjectSection = (typeof SUBJECT_SECTIONS)[number];

/** Arm labels: a letter (A, B, C) or a short name (Gold, Science 1). */
export const ARM_LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ]{0,19}$/;
/** Any class name the school may hold: a level then its arm ("JSS 1A", "SSS 2 Gold"). */
export const CLASS_NAME_PATTERN = /^((?:JSS|SSS) [1-3])\s*([A-Za-z0-9][A-Za-z0-9 ]{0,19})$/;

/** Whether a value has the form of a class name; whether the school has that class is the server's check. */
export function isClassName(v: string): boolean {
  return CLASS_NAME_PATTERN.test(v);
}

/** Longest subject name the catalogue holds. */
export const SUBJECT_NAME_MAX = 60;
/** Ceilings for lists sent in one request (subjects in a bulk score save, classes in a fee save). */
export const MAX_SUBJECTS_PER_SAVE = 40;
export const MAX_CLASSES_PER_REQUEST = 200;

/** The stored name of an arm: a one-character label joins the level ("JSS 1A"), a longer one follows a space ("JSS 1 Gold"). */
export function armName(level: ClassLevel, arm: string): string {
  const label = arm.trim();
  return label.length === 1 ? `${level}${label.toUpperCase()}` : `${level} ${label}`;
}

/** The class level of a class name ("JSS 1A" -> "JSS 1"), or null when it is not a class name. */
export function classLevelOf(name: string): ClassLevel | null {
  const m = CLASS_NAME_PATTERN.exec(name);
  return m ? (m[1] as ClassLevel) : null;
}

/** Whether a catalogue subject may be offered at a class level. */
export function sectionAllows(section: SubjectSection, level: ClassLevel): boolean {
  return section === 'ALL' || level.startsWith(section);
}

export const TEACHING_MESSAGES = {
  levelInvalid: 'Choose a class level (JSS 1 to SSS 3)',
  armLabelInvalid: 'Arm must be 1 to 20 letters, digits or spaces, starting with a letter or digit',
  armTaken: (name: string) => `${name} already exists.`,
  armNotFound: 'Class arm not found.',
  armHasStudents: (name: string, n: number) =>
    `${name} still has ${n} active ${n === 1 ? 'student' : 'students'}. Move them to another arm before retiring it.`,
  classUnknown: (name: string) => `${name} is not one of the school's classes.`,
  classRetired: (name: string) => `${name} has been retired. Choose a current class.`,
  subjectNameRequired: 'Subject name is required',
  subjectNameTooLong: 'Subject name must be at most 60 characters',
  subjectCodeInvalid: 'Code must be 2 to 10 letters or digits',
  subjectSectionInvalid: 'Choose JSS, SSS or both',
  subjectNameTaken: (name: string) => `A subject named ${name} already exists.`,
  subjectCodeTaken: (code: string) => `The code ${code} is already used by another subject.`,
  subjectNotFound: 'Subject not found.',
  subjectNotForLevel: (subject: string, level: string) => `${subject} is not a subject for ${level}.`,
  subjectNotOffered: (subject: string, student: string) => `${subject} is not one of ${student}'s subjects this term.`,
  streamNameRequired: 'Stream name is required',
  streamNameTaken: (name: string) => `A stream named ${name} already exists.`,
  streamNotFound: 'Stream not found.',
  streamOnlySenior: 'Streams apply to senior (SSS) students only.',
  staffNotFound: 'Staff member not found.',
  assignmentsSaved: 'Assignments saved.',
  formTeachersSaved: 'Form teachers saved.',
  copiedAssignments: (n: number, from: string) => `${n} ${n === 1 ? 'assignment' : 'assignments'} copied from ${from}.`,
  nothingToCopy: 'The previous session has no assignments to copy.',
  noPreviousSession: 'There is no earlier session to copy from.',
  structureSaved: 'Saved.',
  // Who may write a score: the 403 says why, so a teacher knows whom to ask.
  notYourSubject: (subject: string, cls: string) =>
    `You are not assigned to teach ${subject} in ${cls} this session. Ask the admin to assign you.`,
  entryClosed: (term: string, level: string) => `Score entry for ${term}, ${level}, is closed. Only the admin can change scores now.`,
  /** A teacher writing into a session that is not the current one. */
  sessionClosed:
    'This is not the current session: its scores, comments, ratings and registers are closed to teachers. Only the admin can change them now, giving a reason.',
  enforcementOn: 'Only assigned teachers may now enter scores this session.',
  enforcementOff: 'Every staff member may enter every score this session.',
  tooMany: (n: number, what: string) => `At most ${n.toLocaleString('en-NG')} ${what} in one request.`,
  streamNameTooLong: 'Stream name must be at most 40 characters',
  noClassesYet: 'You have no classes assigned this session.',
  noSession: 'There is no academic session yet. Create one first.',
  sessionNotFound: 'Academic session not found.',
  subjectSectionInUse: (subject: string, level: string) =>
    `${subject} is offered at ${level}. Remove it there before changing its section.`,
  armRetired: (name: string) => `${name} has been retired. Assign teachers to current arms only.`,
  offeringInvalid: 'Choose compulsory, elective, stream or not offered',
  levelsRequired: 'Choose at least one class level',
  subjectRetired: (subject: string) => `${subject} has been retired. Restore it before offering it.`,
  streamOfferingSenior: (subject: string, level: string) =>
    `${subject} cannot be a stream subject in ${level}: streams apply to senior (SSS) classes only.`,
  offeringsSetForLevels: (subject: string, offering: string, levels: readonly string[]) =>
    `${subject}: ${offering.toLowerCase()} in ${levels.join(', ')}.`,
} as const;

/**
 * How a class level offers a subject, as the offerings screen sets it for several levels at once:
 * every student takes it (compulsory), a student opts in (elective), the students of a stream whose
 * subjects include it take it (stream: senior levels only), or not at all. Elective and stream are
 * stored alike (offered, not compulsory): the stream's subject list is what gives it to its students.
 */
export const OFFERING_KIND_LABELS = { compulsory: 'Compulsory', elective: 'Elective', stream: 'Stream', none: 'Not offered' };
export type OfferingKind = keyof typeof OFFERING_KIND_LABELS;
export const OFFERING_KINDS = valuesOf(OFFERING_KIND_LABELS);

export const NOT_YOUR_SUBJECT_CODE = 'not_assigned';
export const ENTRY_CLOSED_CODE = 'score_entry_closed';
/** A teacher's write into a session that is not the current one (only the admin writes there, with a reason). */
export const SESSION_CLOSED_CODE = 'session_closed';

const idField = z.coerce.number({ error: 'Must be a whole number' }).int().positive().max(ID_MAX);
export const classLevelField = z.enum(CLASS_LEVELS, { error: TEACHING_MESSAGES.levelInvalid });
const armLabelField = textField('Arm').trim().regex(ARM_LABEL_PATTERN, TEACHING_MESSAGES.armLabelInvalid);

export const armCreateSchema = z.object({ level: classLevelField, arm: armLabelField });
export const armPatchSchema = z
  .object({ arm: armLabelField.optional(), retired: z.boolean().optional() })
  .refine((v) => v.arm !== undefined || v.retired !== undefined, { message: 'Nothing to change' });

export const subjectCreateSchema = z.object({
  name: textField('Subject name', { required: TEACHING_MESSAGES.subjectNameRequired })
    .trim()
    .min(1, TEACHING_MESSAGES.subjectNameRequired)
    .max(60, TEACHING_MESSAGES.subjectNameTooLong),
  code: z
    .string({ error: TEACHING_MESSAGES.subjectCodeInvalid })
    .trim()
    .regex(/^[A-Za-z0-9]{2,10}$/, TEACHING_MESSAGES.subjectCodeInvalid)
    .transform((c) => c.toUpperCase()),
  section: z.enum(SUBJECT_SECTIONS, { error: TEACHING_MESSAGES.subjectSectionInvalid }),
});
export const subjectPatchSchema = subjectCreateSchema.partial().extend({ retired: z.boolean().optional() });

/** PUT /api/teaching/offerings/{level}/: the whole list of subjects a level offers. */
export const offeringsSchema = z.object({
  subjects: z.array(z.object({ subject_id: idField, compulsory: z.boolean() })).max(200, TEACHING_MESSAGES.tooMany(200, 'subjects')),
});

/** PUT /api/teaching/subjects/{id}/offerings/: one subject's offering at several levels, all or nothing. */
export const subjectOfferingsSchema = z.object({
  offering: z.enum(OFFERING_KINDS, { error: TEACHING_MESSAGES.offeringInvalid }),
  levels: z
    .array(classLevelField, { error: TEACHING_MESSAGES.levelsRequired })
    .min(1, TEACHING_MESSAGES.levelsRequired)
    .max(CLASS_LEVELS.length, TEACHING_MESSAGES.tooMany(CLASS_LEVELS.length, 'class levels'))
    .transform((levels) => [...new Set(levels)]),
});
export type SubjectOfferingsInput = z.infer<typeof subjectOfferingsSchema>;

export const streamSchema = z.object({
  name: textField('Stream name', { required: TEACHING_MESSAGES.streamNameRequired })
    .trim()
    .min(1, TEACHING_MESSAGES.streamNameRequired)
    .max(40, TEACHING_MESSAGES.streamNameTooLong),
  subject_ids: z.array(idField).max(200, TEACHING_MESSAGES.tooMany(200, 'subjects')),
});

/** PUT /api/teaching/students/{admission_number}/subjects/: a student's stream and own choices. */
export const studentSubjectsSchema = z.object({
  stream_id: idField.nullable(),
  add: z.array(idField).max(200, TEACHING_MESSAGES.tooMany(200, 'subjects')),
  drop: z.array(idField).max(200, TEACHING_MESSAGES.tooMany(200, 'subjects')),
});

/** PUT /api/teaching/assignments/: the whole grid of one session (every arm-subject cell sent replaces it). */
export const assignmentsSchema = z.object({
  session_id: idField,
  cells: z
    .array(
      z.object({
        arm_id: idField,
        subject_id: idField,
        staff_ids: z.array(idField).max(10, TEACHING_MESSAGES.tooMany(10, 'teachers per subject')),
      }),
    )
    .max(5000, TEACHING_MESSAGES.tooMany(5000, 'cells')),
});
export const formTeachersSchema = z.object({
  session_id: idField,
  arms: z.array(z.object({ arm_id: idField, staff_id: idField.nullable() })).max(500, TEACHING_MESSAGES.tooMany(500, 'arms')),
});
export const copyAssignmentsSchema = z.object({ session_id: idField });

/** PUT /api/teaching/windows/: open or close score entry for a term, for every level ('') or one. */
export const scoreWindowSchema = z.object({
  session_id: idField,
  term: z.enum(TERM_VALUES),
  class_level: z.union([classLevelField, z.literal('')]),
  is_open: z.boolean(),
});
export const enforcementSchema = z.object({ session_id: idField, enforce_assignments: z.boolean() });

export type ArmCreate = z.infer<typeof armCreateSchema>;
export type SubjectCreate = z.infer<typeof subjectCreateSchema>;
export type AssignmentsInput = z.infer<typeof assignmentsSchema>;

// API shapes

export interface ClassArm {
  id: number;
  /** '' for an arm retired by migration 0022 from a name that had no level (no row lost). */
  level: ClassLevel | '';
  arm: string;
  name: string;
  retired: boolean;
  /** Active students in the arm now. */
  students: number;
}
export interface CatalogueSubject {
  id: number;
  name: string;
  code: string;
  section: SubjectSection;
  retired: boolean;
}
export interface LevelOffering {
  class_level: ClassLevel;
  subjects: { subject_id: number; compulsory: boolean }[];
}
export interface Stream {
  id: number;
  name: string;
  subject_ids: number[];
}
export interface TeachingStructure {
  arms: ClassArm[];
  subjects: CatalogueSubject[];
  offerings: LevelOffering[];
  streams: Stream[];
}
export interface AssignmentCell {
  arm_id: number;
  subject_id: number;
  staff: { id: number; staff_id: string; name: string }[];
}
export interface SessionAssignments {
  session_id: number;
  enforce_assignments: boolean;
  cells: AssignmentCell[];
  form_teachers: { arm_id: number; staff: { id: number; staff_id: string; name: string } | null }[];
  windows: { term: string; class_level: string; is_open: boolean }[];
}
export interface MyClasses {
  session: { id: number; name: string } | null;
  enforce_assignments: boolean;
  /** The teacher's arm-subject pairs, in class then subject order. */
  subjects: { arm_id: number; class_name: string; subject: string; students: number }[];
  form_classes: { arm_id: number; class_name: string; students: number }[];
}
export interface StudentSubjects {
  admission_number: string;
  student_class: string;
  stream_id: number | null;
  add: number[];
  drop: number[];
  /** The subjects the student takes, derived from their level, stream and choices. */
  subjects: string[];
}
/** GET /api/teaching/students/{admission_number}/subjects/: the list plus what the caller may write now. */
export interface StudentSubjectsAccess extends StudentSubjects {
  session_id: number | null;
  term: string;
  /** The subjects the signed-in user may write scores for, for this student, in that session and term. */
  writable: string[];
  /** Why some or all subjects are not writable (entry closed, not assigned); null when all are. */
  refusal: string | null;
}
/** Query of the student subjects call: both optional (current session, first term). */
export const studentSubjectsQuerySchema = z.object({
  session_id: idField.optional(),
  term: z.enum(TERM_VALUES).optional(),
});
export const sessionQuerySchema = z.object({ session_id: idField.optional() });

// Pure rules

/** What the derivation needs of the school's structure: small, loaded once per request. */
export interface SubjectPlan {
  /** Subject names in catalogue order, by id. */
  names: Map<number, string>;
  order: Map<number, number>;
  /** class level -> subject id -> compulsory */
  offerings: Map<string, Map<number, boolean>>;
  /** stream id -> subject ids */
  streams: Map<number, Set<number>>;
}

/**
 * A student's subjects for a term: the compulsory subjects their class level offers, plus their
 * stream's subjects (senior students), plus the subjects they opted into, minus those the admin
 * dropped for them. Retired catalogue subjects are not in `plan.names` and fall out. Catalogue order.
 */
export function studentSubjectIds(
  plan: SubjectPlan,
  student: { class_level: string | null; stream_id: number | null; add: readonly number[]; drop: readonly number[] },
): number[] {
  const out = new Set<number>();
  const offered = student.class_level ? plan.offerings.get(student.class_level) : undefined;
  if (offered) for (const [id, compulsory] of offered) if (compulsory) out.add(id);
  const senior = student.class_level?.startsWith('SSS') ?? false;
  if (senior && student.stream_id !== null) for (const id of plan.streams.get(student.stream_id) ?? []) out.add(id);
  for (const id of student.add) out.add(id);
  for (const id of student.drop) out.delete(id);
  return [...out].filter((id) => plan.names.has(id)).sort((a, b) => plan.order.get(a)! - plan.order.get(b)!);
}

/** Everything the write check needs, read in one query per request. */
export interface WriteAccess {
  /**
   * Whether the session is the current one. Enforcement and windows are set per session, so a past
   * session would default to "every teacher, every score": a session that is not current is closed
   * to teachers instead, and the admin's writes there need a reason.
   */
  current: boolean;
  enforced: boolean;
  /** `${class name}|${subject}` pairs the staff member teaches in the session. */
  pairs: Set<string>;
  /** Window state by class level ('' = every level); absent = open. */
  windows: Map<string, boolean>;
}

export type WriteRefusal = {
  code: typeof NOT_YOUR_SUBJECT_CODE | typeof ENTRY_CLOSED_CODE | typeof SESSION_CLOSED_CODE;
  detail: string;
};

/**
 * Whether a signed-in user may write (create, change, delete) one score. The admin always may.
 * Staff may only in the current session, when score entry is open for the term and class level,
 * and, where the session enforces assignments, only for an arm-subject pair they teach.
 */
export function scoreWriteRefusal(
  role: Role,
  access: WriteAccess,
  target: { student_class: string; subject: string; termLabel: string },
): WriteRefusal | null {
  if (role === 'admin') return null;
  if (!access.current) return { code: SESSION_CLOSED_CODE, detail: TEACHING_MESSAGES.sessionClosed };
  const level = classLevelOf(target.student_class) ?? '';
  const open = access.windows.get(level) ?? access.windows.get('') ?? true;
  if (!open) return { code: ENTRY_CLOSED_CODE, detail: TEACHING_MESSAGES.entryClosed(target.termLabel, level || target.student_class) };
  if (access.enforced && !access.pairs.has(`${target.student_class}|${target.subject}`)) {
    return { code: NOT_YOUR_SUBJECT_CODE, detail: TEACHING_MESSAGES.notYourSubject(target.subject, target.student_class) };
  }
  return null;
}

/** The part of the school a class level is in. */
export function sectionOfLevel(level: ClassLevel): Level {
  return level.startsWith('SSS') ? 'SSS' : 'JSS';
}
