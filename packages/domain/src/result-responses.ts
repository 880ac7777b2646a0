/**
 * The results' answers as zod schemas (issue 37 item 12): results, scales and schemes, publications,
 * history, the score sheet, broadsheets and cards opened regardless of fees. The response types of
 * results.ts, assessment.ts and card-fee-gate.ts are inferred from these (they re-export them as
 * types only), so the server's presenters, the OpenAPI document and the web client read one shape.
 * Plain schemas (no refinements or transforms): they serialise answers on hot paths.
 */
import { z } from 'zod';
import { TERM_VALUES } from './constants';

const level = z.enum(['JSS', 'SSS']);
const term = z.enum(TERM_VALUES);

/** One component score: a number, or "ABS" for a student absent from it. */
export const componentScoresAnswerSchema = z.record(z.string(), z.union([z.number(), z.literal('ABS')]));

export const assessmentComponentResponseSchema = z
  .object({
    /** "Continuous Assessment 1": what the card's key and the scheme screen show. */
    name: z.string(),
    /** "CA1": the column heading, the key of the stored scores, the CSV column. Unique in a scheme. */
    label: z.string(),
    /** Whole marks, at least 1; a scheme's maxima sum to 100. */
    max: z.number(),
  })
  .meta({ id: 'AssessmentComponent' });

export const gradeBandResponseSchema = z
  .object({ grade: z.string(), min: z.number(), max: z.number(), remark: z.string() })
  .meta({ id: 'GradeBand' });

// ---------- results ----------

/** A result as the API gives it, plus what the screens need (student name, version). */
export const resultSchema = z
  .object({
    id: z.number(),
    admission_number: z.string(),
    student_name: z.string(),
    session_id: z.number(),
    term: z.string(),
    student_class: z.string(),
    subject: z.string(),
    /** The total of the components (or the one score of a single-component scheme). */
    score: z.number(),
    /** Component scores by label; null for a result entered as one score. */
    components: componentScoresAnswerSchema.nullable(),
    remarks: z.string(),
    grade: z.string(),
    version: z.number(),
    updated_at: z.string(),
  })
  .meta({ id: 'Result' });
export type Result = z.infer<typeof resultSchema>;

/** POST /api/results/: one result (one subject sent) or the list (several). */
export const resultSaveResponseSchema = z.union([resultSchema, z.array(resultSchema)]).meta({ id: 'ResultSaved' });

export const resultStudentSchema = z
  .object({
    admission_number: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    student_class: z.string(),
    subjects: z.number(),
  })
  .meta({ id: 'ResultStudent' });
export type ResultStudent = z.infer<typeof resultStudentSchema>;

export const resultTermStatusSchema = z
  .object({
    session_id: z.number(),
    session_name: z.string(),
    term: z.string(),
    student_class: z.string(),
    subjects: z.number(),
    released: z.boolean(),
  })
  .meta({ id: 'ResultTermStatus' });
export type ResultTermStatus = z.infer<typeof resultTermStatusSchema>;

export const resultAuditEntrySchema = z
  .object({
    id: z.number(),
    action: z.enum(['create', 'update', 'delete', 'regrade']),
    admission_number: z.string(),
    student_name: z.string(),
    session_id: z.number(),
    session_name: z.string(),
    term: z.string(),
    student_class: z.string(),
    subject: z.string(),
    old_score: z.number().nullable(),
    new_score: z.number().nullable(),
    /** Component scores before and after, for results entered by component; null otherwise. */
    old_components: componentScoresAnswerSchema.nullable(),
    new_components: componentScoresAnswerSchema.nullable(),
    old_remarks: z.string().nullable(),
    new_remarks: z.string().nullable(),
    old_grade: z.string().nullable(),
    new_grade: z.string().nullable(),
    actor: z.string().nullable(),
    actor_role: z.string().nullable(),
    created_at: z.string(),
    /** Why a released result was changed, or why it was regraded; null otherwise. */
    reason: z.string().nullable(),
  })
  .meta({ id: 'ResultAuditEntry' });
export type ResultAuditEntry = z.infer<typeof resultAuditEntrySchema>;

export const publicationResponseSchema = z
  .object({
    id: z.number(),
    session_id: z.number(),
    term: z.string(),
    student_class: z.string(),
    published_at: z.string(),
    published_by: z.string().nullable(),
  })
  .meta({ id: 'ResultPublication' });
export type Publication = z.infer<typeof publicationResponseSchema>;

// ---------- grading scales ----------

export const gradingScaleResponseSchema = z
  .object({
    level,
    bands: z.array(gradeBandResponseSchema),
    is_default: z.boolean(),
    updated_at: z.string().nullable(),
    /** The session this scale grades (the current one unless asked otherwise); null with no session. */
    session_id: z.number().nullable().optional(),
    session_name: z.string().nullable().optional(),
  })
  .meta({ id: 'GradingScale' });
export type GradingScaleResponse = z.infer<typeof gradingScaleResponseSchema>;

/** PUT /api/grading-scales/{level}/: the saved scale, the results regraded and the message shown. */
export const gradingScaleSavedSchema = gradingScaleResponseSchema
  .extend({ regraded: z.number(), message: z.string() })
  .meta({ id: 'GradingScaleSaved' });

/** What saving a scale would do to the current session's results. */
export const gradingScalePreviewSchema = z
  .object({
    level,
    session_id: z.number().nullable(),
    session_name: z.string().nullable(),
    /** Results whose grade would change. */
    changes: z.number(),
    /** Of those, results on released (published) report cards. */
    released_changes: z.number(),
  })
  .meta({ id: 'GradingScalePreview' });
export type GradingScalePreview = z.infer<typeof gradingScalePreviewSchema>;

// ---------- assessment schemes ----------

/** A level's scheme for one session, as the API gives it. */
export const assessmentSchemeSchema = z
  .object({
    level,
    session_id: z.number().nullable(),
    session_name: z.string().nullable(),
    components: z.array(assessmentComponentResponseSchema),
    precision: z.enum(['one_decimal', 'whole']),
    /** No scheme set: the single component of 100. */
    is_default: z.boolean(),
    /** Results of this session and level stored with component scores (then only names may change). */
    component_results: z.number(),
    /** Results of this session and level entered as one total (before components, or on the default scheme). */
    total_only_results: z.number(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'AssessmentScheme' });
export type AssessmentScheme = z.infer<typeof assessmentSchemeSchema>;

/** PUT /api/assessment-schemes/{level}/: the saved scheme and the message shown. */
export const assessmentSchemeSavedSchema = assessmentSchemeSchema.extend({ message: z.string() }).meta({ id: 'AssessmentSchemeSaved' });

/** What saving a scheme would do: shown before the admin confirms. */
export const assessmentSchemePreviewSchema = z
  .object({
    level,
    session_id: z.number(),
    session_name: z.string(),
    /** Results already entered as one total that keep their totals and grades, components empty. */
    total_only_results: z.number(),
    /** Results with component scores: when > 0, only component names may change. */
    component_results: z.number(),
    /** The change touches labels, maxima or the number of components. */
    structural: z.boolean(),
    /** Saving would be refused (component scores exist and the change is structural). */
    refused: z.boolean(),
  })
  .meta({ id: 'AssessmentSchemePreview' });
export type AssessmentSchemePreview = z.infer<typeof assessmentSchemePreviewSchema>;

// ---------- the score sheet (the class grid) ----------

export const subjectStatisticsSchema = z
  .object({
    /** Students with a score in the subject. */
    count: z.number(),
    highest: z.number(),
    lowest: z.number(),
    /** Mean of the totals, 2 decimals. */
    average: z.number(),
  })
  .meta({ id: 'SubjectStatistics' });
export type SubjectStatistics = z.infer<typeof subjectStatisticsSchema>;

/** A stored result as the grid shows it. */
export const scoreSheetResultSchema = z
  .object({
    id: z.number(),
    /** Component scores; empty for a result entered as one total (then `total_only`). */
    components: componentScoresAnswerSchema,
    total_only: z.boolean(),
    score: z.number(),
    grade: z.string(),
    remarks: z.string(),
    version: z.number(),
    updated_at: z.string(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'ScoreSheetResult' });
export type ScoreSheetResult = z.infer<typeof scoreSheetResultSchema>;

export const scoreSheetRowSchema = z
  .object({
    admission_number: z.string(),
    name: z.string(),
    /** False: the student does not take the subject (read-only row, not a zero). */
    takes: z.boolean(),
    result: scoreSheetResultSchema.nullable(),
    /** Subject position among the arm's scores (ties 1, 1, 3); null without a score. */
    position: z.number().nullable(),
  })
  .meta({ id: 'ScoreSheetRow' });
export type ScoreSheetRow = z.infer<typeof scoreSheetRowSchema>;

export const scoreSheetSchema = z
  .object({
    session: z.object({ id: z.number(), name: z.string() }),
    term: z.string(),
    student_class: z.string(),
    subject: z.string(),
    components: z.array(assessmentComponentResponseSchema),
    precision: z.enum(['one_decimal', 'whole']),
    rows: z.array(scoreSheetRowSchema),
    stats: subjectStatisticsSchema.nullable(),
    /** Whether this user may change these scores now; `refusal` says why not. */
    may_write: z.boolean(),
    refusal: z.string().nullable(),
    /** Released to students: a change needs a reason. */
    released: z.boolean(),
  })
  .meta({ id: 'ScoreSheet' });
export type ScoreSheet = z.infer<typeof scoreSheetSchema>;

export const scoreSheetSaveResultSchema = z
  .object({
    /** The saved rows as stored now (a cleared row has `result: null`). */
    rows: z.array(scoreSheetRowSchema),
    stats: subjectStatisticsSchema.nullable(),
  })
  .meta({ id: 'ScoreSheetSaveResult' });
export type ScoreSheetSaveResult = z.infer<typeof scoreSheetSaveResultSchema>;

export const scoreImportErrorSchema = z.object({
  /** 1-based line of the file (the header is line 1). */
  line: z.number(),
  /** The column (a component label, admission_number, remarks), or null for the whole line. */
  column: z.string().nullable(),
  message: z.string(),
});
export type ScoreImportError = z.infer<typeof scoreImportErrorSchema>;

/** POST /api/score-sheet/import/: 200 applied or a dry run, 400 refused (its errors listed). */
export const scoreImportPreviewSchema = z
  .object({
    rows: z.array(
      z.object({
        line: z.number(),
        admission_number: z.string(),
        name: z.string(),
        components: componentScoresAnswerSchema,
        total: z.number(),
        change: z.enum(['new', 'update', 'same', 'clear']),
      }),
    ),
    errors: z.array(scoreImportErrorSchema),
    /** True once applied (dry_run false and no errors). */
    applied: z.boolean(),
  })
  .meta({ id: 'ScoreImportPreview' });
export type ScoreImportPreview = z.infer<typeof scoreImportPreviewSchema>;

// ---------- broadsheets ----------

export const broadsheetRowSchema = z.object({
  admission_number: z.string(),
  name: z.string(),
  /** null: no score, either not entered yet or (when listed in `not_taken`) a subject the student does not take. */
  scores: z.record(z.string(), z.number().nullable()),
  /** The class's subjects (columns) this student does not take. */
  not_taken: z.array(z.string()),
  /** Component scores by subject, for subjects entered by component. */
  components: z.record(z.string(), componentScoresAnswerSchema),
  total: z.number(),
  subjects_taken: z.number(),
  average: z.number(),
  position: z.number(),
});
export type BroadsheetRow = z.infer<typeof broadsheetRowSchema>;

export const broadsheetClassSchema = z.object({
  student_class: z.string(),
  /** The class level's assessment scheme for the session. */
  components: z.array(assessmentComponentResponseSchema),
  subjects: z.array(z.string()),
  rows: z.array(broadsheetRowSchema),
  /** Each subject's figures, by subject (the subject named again in each). */
  subject_stats: z.record(
    z.string(),
    z.object({ subject: z.string(), average: z.number(), highest: z.number(), lowest: z.number(), count: z.number() }),
  ),
  /** Each student's position in each subject (ties 1, 1, 3), by admission number then subject. */
  subject_positions: z.record(z.string(), z.record(z.string(), z.number())),
  class_average: z.number(),
  class_size: z.number(),
});
export type BroadsheetClass = z.infer<typeof broadsheetClassSchema>;

export const broadsheetSchema = z
  .object({
    session: z.object({ id: z.number(), name: z.string() }),
    term: z.string(),
    /** Every class's subjects together, in catalogue order (the whole-school sheet's columns). */
    subjects: z.array(z.string()),
    classes: z.array(broadsheetClassSchema),
  })
  .meta({ id: 'Broadsheet' });
export type Broadsheet = z.infer<typeof broadsheetSchema>;

// ---------- cards opened regardless of fees ----------

/** A card opened regardless of fees (the releases list). */
export const cardFeeReleaseResponseSchema = z
  .object({
    id: z.number(),
    admission_number: z.string(),
    student_name: z.string(),
    student_class: z.string(),
    session_id: z.number(),
    term,
    reason: z.string(),
    created_by: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'CardFeeRelease' });
export type CardFeeRelease = z.infer<typeof cardFeeReleaseResponseSchema>;
