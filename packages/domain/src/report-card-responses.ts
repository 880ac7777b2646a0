/**
 * The report card's answers as zod schemas (issue 37 item 12): the card with its sections, the
 * rating and comment sheets, the term's dates and the approval of an arm's cards. The types of
 * report-cards.ts, report-card-schemas.ts (ReportTerm) and results.ts (ReportCardSubject) are inferred
 * from these. The card is the hot path (GET /api/report-card/, p50 < 5 ms): plain objects, no
 * refinements or transforms.
 */
import { z } from 'zod';
import { TERM_VALUES } from './constants';
import { CARD_STATUSES, PROMOTION_DECISIONS, RATING_DOMAINS } from './report-card-rules';
import { assessmentComponentResponseSchema, componentScoresAnswerSchema } from './result-responses';

const term = z.enum(TERM_VALUES);
const cardStatus = z.enum(CARD_STATUSES);
const promotionDecision = z.enum(PROMOTION_DECISIONS);
/** Ratings by trait id. */
const ratings = z.record(z.string(), z.number());

// ---------- the term's dates ----------

export const reportTermResponseSchema = z
  .object({
    session_id: z.number(),
    term,
    next_term_begins: z.string().nullable(),
    times_opened: z.number().nullable(),
  })
  .meta({ id: 'ReportTerm' });
export type ReportTerm = z.infer<typeof reportTermResponseSchema>;

// ---------- sheets ----------

/** Who is looking at a sheet, and what they may change on it. */
export const sheetAccessSchema = z.object({
  status: cardStatus,
  /** Ratings, form comments, attendance: the form teacher while draft; the admin always. */
  may_edit_form: z.boolean(),
  /** Principal comments and promotion overrides: the admin. */
  may_edit_principal: z.boolean(),
  form_teacher: z.string().nullable(),
});
export type SheetAccess = z.infer<typeof sheetAccessSchema>;

export const ratingSheetRowSchema = z.object({
  admission_number: z.string(),
  name: z.string(),
  ratings,
  version: z.number(),
});
export type RatingSheetRow = z.infer<typeof ratingSheetRowSchema>;

export const ratingSheetSchema = sheetAccessSchema
  .extend({
    session_id: z.number(),
    term,
    student_class: z.string(),
    traits: z.record(z.enum(RATING_DOMAINS), z.array(z.object({ id: z.string(), name: z.string() }))),
    rating_labels: z.array(z.string()),
    rows: z.array(ratingSheetRowSchema),
  })
  .meta({ id: 'RatingSheet' });
export type RatingSheet = z.infer<typeof ratingSheetSchema>;

export const ratingSheetSavedSchema = z
  .object({ rows: z.array(z.object({ admission_number: z.string(), version: z.number(), ratings })) })
  .meta({ id: 'RatingSheetSaved' });
export type RatingSheetSaved = z.infer<typeof ratingSheetSavedSchema>;

export const commentSheetRowSchema = z
  .object({
    admission_number: z.string(),
    name: z.string(),
    /** The term average and position (null: no scores yet). */
    average: z.number().nullable(),
    position: z.number().nullable(),
    form_comment: z.string(),
    principal_comment: z.string(),
    suggested_form: z.string(),
    suggested_principal: z.string(),
    /** The form teacher's totals, overriding the register's when set (null: not overridden). */
    days_present: z.number().nullable(),
    days_absent: z.number().nullable(),
    /** The register's totals for the term, with any carried in from paper (null: no marks and nothing carried). */
    register: z.object({ present: z.number(), absent: z.number() }).nullable(),
    /** Times school opened the register does not account for; null when the form teacher's totals are set or times opened is unknown. */
    unmarked: z.number().nullable(),
    /** Third term: the rule's decision, the override and its reason. Null in other terms. */
    promotion: z
      .object({
        computed: promotionDecision,
        override: promotionDecision.nullable(),
        reason: z.string(),
        annual_average: z.number().nullable(),
      })
      .nullable(),
    version: z.number(),
  })
  .meta({ id: 'CommentSheetRow' });
export type CommentSheetRow = z.infer<typeof commentSheetRowSchema>;

export const commentSheetSchema = sheetAccessSchema
  .extend({
    session_id: z.number(),
    term,
    student_class: z.string(),
    times_opened: z.number().nullable(),
    require_comments: z.boolean(),
    rows: z.array(commentSheetRowSchema),
  })
  .meta({ id: 'CommentSheet' });
export type CommentSheet = z.infer<typeof commentSheetSchema>;

export const commentSheetSavedSchema = z.object({ rows: z.array(commentSheetRowSchema) }).meta({ id: 'CommentSheetSaved' });
export type CommentSheetSaved = z.infer<typeof commentSheetSavedSchema>;

/** POST /api/class-comments/suggestions/: how many comments the suggestions filled in. */
export const commentSuggestionsAppliedSchema = z.object({ applied: z.number() }).meta({ id: 'CommentSuggestionsApplied' });

// ---------- approval ----------

export const scoreChangeSinceApprovalSchema = z.object({
  admission_number: z.string(),
  student_name: z.string(),
  subject: z.string(),
  action: z.enum(['create', 'update', 'delete', 'regrade']).describe('regrade: a grading-scale change moved the grade'),
  old_score: z.number().nullable(),
  new_score: z.number().nullable(),
  /** Who changed it: the staff member's or admin's name, else the account's email. */
  by: z.string(),
  at: z.string(),
});
export type ScoreChangeSinceApproval = z.infer<typeof scoreChangeSinceApprovalSchema>;

export const armApprovalSchema = z
  .object({
    student_class: z.string(),
    status: cardStatus,
    students: z.number(),
    /** Students with every trait rated / with a form comment / with a principal comment. */
    rated: z.number(),
    form_comments: z.number(),
    principal_comments: z.number(),
    form_teacher: z.string().nullable(),
    submitted_at: z.string().nullable(),
    submitted_by: z.string().nullable(),
    approved_at: z.string().nullable(),
    approved_by: z.string().nullable(),
    returned_reason: z.string().nullable(),
    returned_at: z.string().nullable(),
    released_at: z.string().nullable(),
    /**
     * Scores changed since the arm was approved and before its release (decision 009 allows them;
     * the approvals page shows them): what changed and who changed it, oldest first. Empty otherwise.
     */
    changes_since_approval: z.array(scoreChangeSinceApprovalSchema),
  })
  .meta({ id: 'ArmApproval' });
export type ArmApproval = z.infer<typeof armApprovalSchema>;

export const releaseResultSchema = z.object({ released: z.array(z.string()), students: z.number() }).meta({ id: 'ReportCardsReleased' });
export type ReleaseResult = z.infer<typeof releaseResultSchema>;

// ---------- the card ----------

/**
 * One subject of a report card. The card lists every subject the student takes; one with no score
 * yet has a null score and position, an empty grade and remark, and null class figures when no one
 * in the class has a score in it.
 */
export const reportCardSubjectSchema = z.object({
  subject: z.string(),
  score: z.number().nullable(),
  /** Component scores by label (the card's `components`); null when entered as one score or not yet. */
  components: componentScoresAnswerSchema.nullable(),
  /** Labels the student was absent from (shown "ABS", not a zero). */
  absent: z.array(z.string()),
  grade: z.string(),
  remark: z.string(),
  teacher_remarks: z.string(),
  position: z.number().nullable(),
  class_average: z.number().nullable(),
  class_highest: z.number().nullable(),
  class_lowest: z.number().nullable(),
  /** Third term only: this subject's scores in each term of the session, and their average (null without any). */
  term_scores: z
    .object({ '1st': z.number().nullable(), '2nd': z.number().nullable(), '3rd': z.number().nullable(), average: z.number().nullable() })
    .optional(),
});
export type ReportCardSubject = z.infer<typeof reportCardSubjectSchema>;

export const cardAttendanceSchema = z.object({
  times_opened: z.number().nullable(),
  present: z.number().nullable(),
  absent: z.number().nullable(),
  /** 'register': counted from the attendance register (and carried-in totals); 'form_teacher': entered on the comment sheet. */
  source: z.enum(['register', 'form_teacher']),
  /**
   * Times school opened the register does not account for (never marked); null when the form
   * teacher entered (confirmed) the totals or times opened is not known.
   */
  unmarked: z.number().nullable(),
});
export type CardAttendance = z.infer<typeof cardAttendanceSchema>;

export const cardRatingsSchema = z.object({
  labels: z.array(z.string()),
  domains: z.array(
    z.object({
      domain: z.enum(RATING_DOMAINS),
      title: z.string(),
      traits: z.array(z.object({ name: z.string(), rating: z.number().nullable() })),
    }),
  ),
});
export type CardRatings = z.infer<typeof cardRatingsSchema>;

export const cardCommentsSchema = z.object({
  form_teacher: z.string(),
  form_teacher_name: z.string().nullable(),
  principal: z.string(),
});
export type CardComments = z.infer<typeof cardCommentsSchema>;

export const cardNextTermSchema = z.object({
  term_label: z.string(),
  session_name: z.string().nullable(),
  /** ISO date, or null when not set yet. */
  begins: z.string().nullable(),
  /** Next term's compulsory fees for the student's class in naira, or null when not set. */
  fees: z.number().nullable(),
  /** The student's outstanding balance for this session in naira. */
  outstanding: z.number(),
});
export type CardNextTerm = z.infer<typeof cardNextTermSchema>;

export const cardPromotionSchema = z.object({
  decision: promotionDecision,
  label: z.string(),
  overridden: z.boolean(),
  reason: z.string(),
});
export type CardPromotion = z.infer<typeof cardPromotionSchema>;

export const gradingKeyRowSchema = z.object({ grade: z.string(), min: z.number(), max: z.number(), remark: z.string() });
export type GradingKeyRow = z.infer<typeof gradingKeyRowSchema>;

/** One student's report card for a term, as the API returns it. */
export const reportCardSchema = z
  .object({
    school: z.object({
      name: z.string(),
      motto: z.string(),
      address: z.string(),
      logo: z.string(),
      phone: z.string(),
      email: z.string(),
      time_zone: z.string().optional(),
    }),
    student: z.object({
      admission_number: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      gender: z.string().nullable(),
      /** The class and arm ("JSS 1A"). */
      student_class: z.string(),
      /** A data URL, or '' when no photo was uploaded. */
      photo: z.string(),
    }),
    session: z.object({ id: z.number(), name: z.string() }),
    term: z.string(),
    term_label: z.string(),
    /** The class level's assessment scheme for the session (one component of 100 by default). */
    components: z.array(assessmentComponentResponseSchema),
    subjects: z.array(reportCardSubjectSchema),
    total: z.number(),
    subjects_taken: z.number(),
    average: z.number(),
    class_average: z.number(),
    position: z.number(),
    class_size: z.number(),
    position_text: z.string(),
    released: z.boolean(),
    /** Changes made to released results of this term, newest first; empty when none. */
    revisions: z.array(z.object({ subject: z.string(), at: z.string(), reason: z.string() })),
    /** When a released result of this term was last revised, or null. */
    revised_at: z.string().nullable(),
    /** Third term: totals and averages of each term, and the annual average. */
    cumulative: z
      .object({
        terms: z.array(
          z.object({ term: z.string(), total: z.number().nullable(), average: z.number().nullable(), subjects_taken: z.number() }),
        ),
        annual_average: z.number().nullable(),
      })
      .nullable(),
    /** Where the arm's cards are in the approval (released = published). */
    status: cardStatus,
    attendance: cardAttendanceSchema,
    ratings: cardRatingsSchema,
    /** Subjects with a score at or above the pass mark, and below it. */
    subjects_passed: z.number(),
    subjects_failed: z.number(),
    /** The session's grading scale for the class level, highest band first. */
    grading_key: z.array(gradingKeyRowSchema),
    comments: cardCommentsSchema,
    /** The principal's signature and the school stamp (data URLs, '' when not uploaded). */
    sign_off: z.object({ signature: z.string(), stamp: z.string() }),
    next_term: cardNextTermSchema,
    /** Third term only: the promotion decision (the rule's, or the principal's override). */
    promotion: cardPromotionSchema.nullable(),
    generated_at: z.string(),
  })
  .meta({ id: 'ReportCard' });
export type ReportCard = z.infer<typeof reportCardSchema>;
