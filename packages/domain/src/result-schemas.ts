/**
 * The results' field rules and request schemas (used by the API and the forms): results, sessions,
 * grading scales and publications. Messages are in result-messages.ts, response shapes in results.ts.
 */
import { z } from 'zod';
import { SCORE_MAX, SCORE_MIN, TERM_VALUES, type Level } from './constants';
import { isClassName, MAX_SUBJECTS_PER_SAVE, SUBJECT_NAME_MAX } from './teaching';
import { LEVELS, SCALE_MESSAGES, scaleProblems } from './grading';
import { admissionNumberWith, ID_MAX } from './ids';
import { requiredText, textField } from './text';
import { componentScoresSchema } from './assessment';
import { RESULT_MESSAGES } from './result-messages';

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
export const resultPatchSchema = z
  .object({
    ...resultHead,
    subject: subjectField,
    score: scoreField,
    components: componentScoresSchema,
    remarks: textField('Remarks').trim().max(300, RESULT_MESSAGES.remarksTooLong),
  })
  .partial()
  .extend({ version: expectedVersionField, reason: reasonField });
export type ResultPatchRequest = z.infer<typeof resultPatchSchema>;

export const resultQuerySchema = z
  .object(resultHead)
  .partial()
  .extend({ limit: z.coerce.number().int().min(1).max(50_000).optional(), offset: z.coerce.number().int().min(0).optional() });

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
  grade: requiredText('Grade', SCALE_MESSAGES.gradeRequired).max(5),
  min: z.number({ error: SCALE_MESSAGES.minRange }).min(0, SCALE_MESSAGES.minRange).max(100, SCALE_MESSAGES.minRange),
  remark: requiredText('Remark', SCALE_MESSAGES.remarkRequired).max(40),
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
