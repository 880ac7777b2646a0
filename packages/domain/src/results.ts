// One file (about 470 lines): the results' fields, schemas, sessions, scales, publications and
// response shapes. The web imports its names through the '@portal/domain/results' subpath, so moving a
// name out needs the web's imports changed first.
import { z } from 'zod';
import { SCORE_MAX, SCORE_MIN, TERM_VALUES, type Level } from './constants';
import { isClassName, MAX_SUBJECTS_PER_SAVE, SUBJECT_NAME_MAX } from './teaching';
import { LEVELS, SCALE_MESSAGES, scaleProblems, type GradeBand } from './grading';
import { AUTH_MESSAGES } from './auth-constants';
import { admissionNumberWith, ID_MAX } from './ids';
import { textField } from './text';
import { componentScoresSchema, type AssessmentComponent, type ComponentScores } from './assessment';

export * from './ranking';

/** Every user-visible message of sessions, results, grading, report cards and publishing. */
export const RESULT_MESSAGES = {
  // Field rules
  admissionNumberRequired: 'Admission number is required',
  admissionNumberFormat: 'Must be alphanumeric with optional hyphens',
  sessionRequired: 'Academic session is required',
  termRequired: 'Academic term is required',
  classRequired: 'Class is required',
  scoreRequired: 'Score is required',
  scoreMin: 'Score must be at least 0',
  scoreMax: 'Score cannot exceed 100',
  selectSessionAndTerm: 'Please select a session and term.',
  searchNeedsAll: 'Please enter admission number, select session, and term to search.',
  searchNeedsAllShort: 'Please enter admission number, select session, and term.',
  // Toasts and states
  saved: 'Results saved successfully!',
  saveFailed: 'Failed to save results. Please check your inputs.',
  sessionsFailed: 'Failed to load academic sessions',
  pleaseLoginAgain: 'Please login again',
  studentsFailed: 'Error fetching students. Please try again.',
  studentResultsFailed: 'Failed to fetch student results.',
  noResultsForCriteria: 'No results found for the given criteria.',
  fetchResultsFailed: 'Failed to fetch results.',
  unauthorized: 'Unauthorized access. Please login again.',
  noStudentsFound: 'No students found for the selected criteria.',
  noResultsForStudent: 'No results found for this student.',
  noResultsForStudentInTerm: 'No results found for this student in the selected session and term.',
  updateFailed: 'Failed to update results. Please check your inputs.',
  networkTryAgain: 'Network error. Please try again.',
  updated: 'Results updated successfully!',
  combinedNotFound: (n: string) => `Student with admission number ${n} not found, or no results found for the given criteria.`,
  combinedFailed: 'Failed to fetch student and/or results.',
  networkCheckConnection: 'Network error. Please check your connection.',
  combinedEmpty: (student: string) => `No results found for ${student} in the selected session and term.`,
  confirmDelete: 'Are you sure you want to delete this result?',
  deleted: 'Result deleted successfully',
  deleteFailed: 'Failed to delete result',
  // beyond the spec
  studentNotFound: (n: string) => `Student with admission number ${n} not found.`,
  sessionNotFound: 'Academic session not found.',
  resultNotFound: 'Result not found.',
  unknownSubject: 'Choose a subject from the list',
  subjectsRequired: 'Enter a score for at least one subject.',
  duplicateSubject: 'Each subject may appear only once.',
  subjectRequired: 'Subject is required',
  remarksTooLong: 'Remarks must be at most 300 characters',
  identityLocked: 'The student, session and term of a result cannot be changed; delete it and enter it again.',
  subjectTaken: 'This student already has a result for that subject in this term.',
  classMismatch: (cls: string) => `This student's results for this term are recorded in ${cls}. Choose ${cls} as the class.`,
  auditNeedsFilter: 'Choose a student or a class to see its result history.',
  changedByOther: (subject: string) =>
    `The ${subject} result was changed by someone else since you loaded it. Reload the results and try again.`,
  createdByOther: (subject: string) =>
    `Someone else has just entered a ${subject} result for this student. Reload the results and try again.`,
  /** The one own-record message (AUTH_MESSAGES.ownRecordOnly); kept under this name for callers. */
  ownResultsOnly: AUTH_MESSAGES.ownRecordOnly,
  notReleased: 'Results for this term have not been released yet. Please check back later.',
  notReleasedShort: 'Not yet released',
  sessionNameFormat: 'Session name must look like 2025/2026 (two consecutive years)',
  sessionNameTaken: 'A session with this name already exists.',
  sessionNameRequired: 'Session name is required',
  keepOneCurrent: 'Mark another session as current instead: one session is always current.',
  sessionCreated: 'Session created',
  sessionUpdated: 'Session updated',
  scaleSaved: 'Grading scale saved; all results of this level were regraded.',
  published: 'Results published',
  unpublished: 'Results unpublished',
  publicationNotFound: 'This class has not been published for that term.',
  noReportCard: 'No report card: this student has no results for the selected session and term.',
  pdfFailed: 'Failed to download the PDF.',
  // Own class, released results and scales per session
  classNotStudents: (cls: string) => `This student is in ${cls}. Results can only be entered under the student's own class.`,
  reasonRequired: 'These results have been released to the student: give a reason for the change.',
  /** The admin changing scores of a session that is not the current one. */
  reasonRequiredPastSession: 'This is not the current session: give a reason for the change (it is kept in the result history).',
  reasonTooLong: 'The reason must be at most 300 characters',
  regradeReason: 'Grading scale changed',
  regradeNeedsConfirm: (changes: number, released: number, session: string) =>
    `This change regrades ${changes} result${changes === 1 ? '' : 's'} of ${session}` +
    (released ? `, ${released} of them on released report cards` : '') +
    '. Confirm to apply it; past sessions keep their grades.',
  scaleSavedForSession: (session: string, regraded: number) =>
    `Grading scale saved for ${session}; ${regraded} result${regraded === 1 ? '' : 's'} regraded. Past sessions keep their grades.`,
  revisedOn: (date: string) => `Revised on ${date}`,
  invalidScore: (subject: string) => `Enter a number from 0 to 100 for ${subject}.`,
  clearedScoreDeletes: (subjects: string) =>
    `You cleared the score of ${subjects}. Saving deletes ${subjects.includes(',') ? 'these results' : 'this result'}. Continue?`,
  draftRestored: 'Your unsaved scores were restored.',
  noResultsToPublish: 'No results entered for this class and term yet.',
} as const;

export const REGRADE_CONFIRM_CODE = 'regrade_confirmation_required';

/** Averages are shown with two decimals everywhere: 65.1 reads "65.10" on every screen. */
export function formatAverage(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(2);
}

export const NOT_RELEASED_CODE = 'results_not_released';

// ---------- field schemas (used by the API and the forms) ----------

/** The admission number rule of every screen (ids.ts), with the results form's messages. */
export const admissionNumberField = admissionNumberWith({
  required: RESULT_MESSAGES.admissionNumberRequired,
  invalid: RESULT_MESSAGES.admissionNumberFormat,
});

/** Accepts a number or a numeric string (form and query values). */
const toNumber = (v: unknown) => {
  if (v === '' || v === null || v === undefined) return undefined;
  if (typeof v === 'string') return Number(v.trim());
  return v;
};

export const sessionIdField = z.preprocess(
  toNumber,
  z
    .number({ error: RESULT_MESSAGES.sessionRequired })
    .int(RESULT_MESSAGES.sessionRequired)
    .positive(RESULT_MESSAGES.sessionRequired)
    // Larger than any row id: a 400 here, not an out-of-range error from PostgreSQL.
    .max(ID_MAX, RESULT_MESSAGES.sessionRequired),
);
export const termField = z.enum(TERM_VALUES, { error: RESULT_MESSAGES.termRequired });
/** The form of a class name; the server checks the school has the class. */
export const classField = z.string({ error: RESULT_MESSAGES.classRequired }).refine(isClassName, RESULT_MESSAGES.classRequired);
/** A subject name's form; the server checks it is in the school's catalogue. */
export const subjectField = z
  .string({ error: RESULT_MESSAGES.unknownSubject })
  .trim()
  .min(1, RESULT_MESSAGES.unknownSubject)
  .max(SUBJECT_NAME_MAX, RESULT_MESSAGES.unknownSubject);
export const scoreField = z.preprocess(
  toNumber,
  z.number({ error: RESULT_MESSAGES.scoreRequired }).min(SCORE_MIN, RESULT_MESSAGES.scoreMin).max(SCORE_MAX, RESULT_MESSAGES.scoreMax),
);
export const remarksField = textField('Remarks').trim().max(300, RESULT_MESSAGES.remarksTooLong).default('');
/**
 * Optimistic lock (docs/decisions/004): the `version` the client read. 0 means "I saw no result for
 * this subject"; absent means an unconditional save (the spec's legacy payload), still audited.
 */
export const expectedVersionField = z.number().int().min(0).optional();
/** Why a released result is changed: required by the server for released results. */
export const reasonField = z.string().trim().max(300, RESULT_MESSAGES.reasonTooLong).optional();

export const subjectEntrySchema = z
  .object({
    name: subjectField,
    /** The total; with `components` it may be left out (the server computes it). */
    score: scoreField.optional(),
    /** Component scores by label, for a class whose scheme has components. */
    components: componentScoresSchema.optional(),
    remarks: remarksField,
    version: expectedVersionField,
  })
  .superRefine((v, ctx) => {
    if (v.score === undefined && v.components === undefined)
      ctx.addIssue({ code: 'custom', path: ['score'], message: RESULT_MESSAGES.scoreRequired });
  });

const resultHead = {
  admission_number: admissionNumberField,
  session_id: sessionIdField,
  term: termField,
  student_class: classField,
};

/** POST /api/results/: bulk (`subjects`) or single (`subject`, `score`, `remarks`). */
export const resultSaveSchema = z
  .object({
    ...resultHead,
    subjects: z.array(subjectEntrySchema).max(MAX_SUBJECTS_PER_SAVE, RESULT_MESSAGES.duplicateSubject).optional(),
    subject: subjectField.optional(),
    score: scoreField.optional(),
    components: componentScoresSchema.optional(),
    remarks: remarksField,
    version: expectedVersionField,
    reason: reasonField,
  })
  .superRefine((v, ctx) => {
    if (v.subjects) {
      if (!v.subjects.length) ctx.addIssue({ code: 'custom', path: ['subjects'], message: RESULT_MESSAGES.subjectsRequired });
      const names = v.subjects.map((s) => s.name);
      if (new Set(names).size !== names.length)
        ctx.addIssue({ code: 'custom', path: ['subjects'], message: RESULT_MESSAGES.duplicateSubject });
      return;
    }
    if (v.subject === undefined) ctx.addIssue({ code: 'custom', path: ['subject'], message: RESULT_MESSAGES.subjectRequired });
    if (v.score === undefined && v.components === undefined)
      ctx.addIssue({ code: 'custom', path: ['score'], message: RESULT_MESSAGES.scoreRequired });
  });
export type ResultSaveRequest = z.infer<typeof resultSaveSchema>;

/** PATCH /api/results/{id}/: the single-create fields, all optional; student, session and term stay. */
export const resultPatchSchema = z.object({
  admission_number: admissionNumberField.optional(),
  session_id: sessionIdField.optional(),
  term: termField.optional(),
  student_class: classField.optional(),
  subject: subjectField.optional(),
  score: scoreField.optional(),
  components: componentScoresSchema.optional(),
  remarks: textField('Remarks').trim().max(300, RESULT_MESSAGES.remarksTooLong).optional(),
  version: expectedVersionField,
  reason: reasonField,
});
export type ResultPatchRequest = z.infer<typeof resultPatchSchema>;

export const resultQuerySchema = z.object({
  session_id: sessionIdField.optional(),
  term: termField.optional(),
  admission_number: admissionNumberField.optional(),
  student_class: classField.optional(),
  limit: z.coerce.number().int().min(1).max(50_000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** A class for one term: broadsheets, class report cards, publications. */
export const classTermQuerySchema = z.object({
  session_id: sessionIdField,
  term: termField,
  student_class: classField,
});
export const termQuerySchema = z.object({
  session_id: sessionIdField,
  term: termField,
  student_class: classField.optional(),
});
export const reportCardQuerySchema = z.object({
  admission_number: admissionNumberField,
  session_id: sessionIdField,
  term: termField,
});

// ---------- sessions ----------

export const sessionNameField = z
  .string({ error: RESULT_MESSAGES.sessionNameRequired })
  .trim()
  .min(1, RESULT_MESSAGES.sessionNameRequired)
  .regex(/^\d{4}\/\d{4}$/, RESULT_MESSAGES.sessionNameFormat)
  .refine((v) => {
    const [a, b] = v.split('/').map(Number);
    return a !== undefined && b !== undefined && b === a + 1;
  }, RESULT_MESSAGES.sessionNameFormat);

export const sessionCreateSchema = z.object({ name: sessionNameField, is_current: z.boolean().optional() });
export const sessionPatchSchema = z.object({ name: sessionNameField.optional(), is_current: z.boolean().optional() });

// ---------- grading scales ----------

export const gradeBandInputSchema = z.object({
  grade: textField('Grade', { error: SCALE_MESSAGES.gradeRequired, required: SCALE_MESSAGES.gradeRequired })
    .trim()
    .min(1, SCALE_MESSAGES.gradeRequired)
    .max(5),
  min: z.number({ error: SCALE_MESSAGES.minRange }).min(0, SCALE_MESSAGES.minRange).max(100, SCALE_MESSAGES.minRange),
  remark: textField('Remark', { error: SCALE_MESSAGES.remarkRequired, required: SCALE_MESSAGES.remarkRequired })
    .trim()
    .min(1, SCALE_MESSAGES.remarkRequired)
    .max(40),
});
export const gradingScaleSchema = z
  .object({
    bands: z.array(gradeBandInputSchema).min(1, SCALE_MESSAGES.empty).max(20),
    /** Required (true) once the preview says results of the current session will be regraded. */
    confirm: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    for (const message of scaleProblems(v.bands)) ctx.addIssue({ code: 'custom', path: ['bands'], message });
  });
export const levelParamSchema = z.object({ level: z.enum(LEVELS as [Level, ...Level[]], { error: SCALE_MESSAGES.levelInvalid }) });

// ---------- publications ----------

export const publicationSchema = classTermQuerySchema;

// ---------- response shapes ----------

export interface AcademicSession {
  id: number;
  name: string;
  is_current: boolean;
}

/** A result as the API gives it, plus what the screens need (student name, version). */
export interface Result {
  id: number;
  admission_number: string;
  student_name: string;
  session_id: number;
  term: string;
  student_class: string;
  subject: string;
  /** The total of the components (or the one score of a single-component scheme). */
  score: number;
  /** Component scores by label; null for a result entered as one score. */
  components: ComponentScores | null;
  remarks: string;
  grade: string;
  version: number;
  updated_at: string;
}

export interface ResultStudent {
  admission_number: string;
  first_name: string;
  last_name: string;
  student_class: string;
  subjects: number;
}

export interface GradingScaleResponse {
  level: Level;
  bands: GradeBand[];
  is_default: boolean;
  updated_at: string | null;
  /** The session this scale grades (the current one unless asked otherwise); null with no session. */
  session_id?: number | null;
  session_name?: string | null;
}

/** What saving a scale would do to the current session's results. */
export interface GradingScalePreview {
  level: Level;
  session_id: number | null;
  session_name: string | null;
  /** Results whose grade would change. */
  changes: number;
  /** Of those, results on released (published) report cards. */
  released_changes: number;
}

export interface Publication {
  id: number;
  session_id: number;
  term: string;
  student_class: string;
  published_at: string;
  published_by: string | null;
}

export interface ResultTermStatus {
  session_id: number;
  session_name: string;
  term: string;
  student_class: string;
  subjects: number;
  released: boolean;
}

/**
 * One subject of a report card. The card lists every subject the student takes; one with no score
 * yet has a null score and position, an empty grade and remark, and null class figures when no one
 * in the class has a score in it.
 */
export interface ReportCardSubject {
  subject: string;
  score: number | null;
  /** Component scores by label (the card's `components`); null when entered as one score or not yet. */
  components: ComponentScores | null;
  /** Labels the student was absent from (shown "ABS", not a zero). */
  absent: string[];
  grade: string;
  remark: string;
  teacher_remarks: string;
  position: number | null;
  class_average: number | null;
  class_highest: number | null;
  class_lowest: number | null;
  /** Third term only: this subject's scores in each term of the session, and their average (null without any). */
  term_scores?: { '1st': number | null; '2nd': number | null; '3rd': number | null; average: number | null };
}

export interface BroadsheetRow {
  admission_number: string;
  name: string;
  /** null: no score, either not entered yet or (when listed in `not_taken`) a subject the student does not take. */
  scores: Record<string, number | null>;
  /** The class's subjects (columns) this student does not take. */
  not_taken: string[];
  /** Component scores by subject, for subjects entered by component. */
  components: Record<string, ComponentScores>;
  total: number;
  subjects_taken: number;
  average: number;
  position: number;
}

export interface BroadsheetClass {
  student_class: string;
  /** The class level's assessment scheme for the session. */
  components: AssessmentComponent[];
  subjects: string[];
  rows: BroadsheetRow[];
  subject_stats: Record<string, { average: number; highest: number; lowest: number; count: number }>;
  /** Each student's position in each subject (ties 1, 1, 3), by admission number then subject. */
  subject_positions: Record<string, Record<string, number>>;
  class_average: number;
  class_size: number;
}

export interface Broadsheet {
  session: { id: number; name: string };
  term: string;
  /** Every class's subjects together, in catalogue order (the whole-school sheet's columns). */
  subjects: string[];
  classes: BroadsheetClass[];
}

export interface ResultAuditEntry {
  id: number;
  action: 'create' | 'update' | 'delete' | 'regrade';
  admission_number: string;
  student_name: string;
  session_id: number;
  session_name: string;
  term: string;
  student_class: string;
  subject: string;
  old_score: number | null;
  new_score: number | null;
  /** Component scores before and after, for results entered by component; null otherwise. */
  old_components: ComponentScores | null;
  new_components: ComponentScores | null;
  old_remarks: string | null;
  new_remarks: string | null;
  old_grade: string | null;
  new_grade: string | null;
  actor: string | null;
  actor_role: string | null;
  created_at: string;
  /** Why a released result was changed, or why it was regraded; null otherwise. */
  reason: string | null;
}

/** More messages of the results screens (publishing, grading scales, history, sessions, broadsheet, corrections). */
export const RESULT_ADMIN_MESSAGES = {
  /** A broadsheet cell of a subject the student does not take (distinct from a missing score). */
  notTaken: 'n/a',
  notTakenTitle: 'Does not take this subject',
  publicationFailed: 'Failed to change publication.',
  publicationsFailed: 'Failed to load publications.',
  publishExplain: "Students see a class's results for a term only after it is published.",
  scalesFailed: 'Failed to load grading scales.',
  scaleSaveFailed: 'Failed to save the grading scale.',
  gradeRequired: 'Grade is required',
  remarkRequired: 'Remark is required',
  bandStartRange: 'A band must start between 0 and 100.',
  historyFailed: 'Failed to load the history.',
  noHistory: 'No changes recorded.',
  sessionSaveFailed: 'Failed to save the session.',
  noSessions: 'No sessions yet.',
  noChangesToSave: 'No changes to save.',
  csvFailed: 'Failed to download the CSV.',
} as const;
