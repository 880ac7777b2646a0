/**
 * The report card's request schemas: settings, term dates, rating and comment sheets, approval
 * actions and the student photo. Rules and messages are in report-card-rules.ts.
 */
import { z } from 'zod';
import { textField } from './text';
import { sessionIdField, termField, classField, admissionNumberField } from './result-schemas';
import {
  type RatingDomain,
  RATING_MIN,
  RATING_MAX,
  DEFAULT_RATING_LABELS,
  type RatingTrait,
  DEFAULT_TRAITS,
  MAX_TRAITS_PER_DOMAIN,
  COMMENT_KINDS,
  COMMENT_MAX,
  type BankComment,
  DEFAULT_COMMENT_BANK,
  PROMOTION_DECISIONS,
  type PromotionRule,
  DEFAULT_PROMOTION_RULE,
  REPORT_MESSAGES,
} from './report-card-rules';
export type { ReportTerm } from './report-card-responses';

// ---------- settings ----------

const traitNameField = textField('Trait name', { required: REPORT_MESSAGES.traitNameRequired })
  .trim()
  .min(1, REPORT_MESSAGES.traitNameRequired)
  .max(40);
const traitSchema = z.object({
  /** Absent for a new trait: the server makes one from the name. */
  id: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,40}$/)
    .optional(),
  name: traitNameField,
});
const traitListSchema = z
  .array(traitSchema)
  .max(MAX_TRAITS_PER_DOMAIN, REPORT_MESSAGES.traitsTooMany)
  .superRefine((list, ctx) => {
    const names = list.map((t) => t.name.toLowerCase());
    const ids = list.map((t) => t.id).filter(Boolean);
    if (new Set(names).size !== names.length || new Set(ids).size !== ids.length)
      ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.traitsDuplicate });
  });

const averageField = z
  .number({ error: REPORT_MESSAGES.averageRange })
  .min(0, REPORT_MESSAGES.averageRange)
  .max(100, REPORT_MESSAGES.averageRange);
export const bankCommentSchema = z
  .object({
    kind: z.enum(COMMENT_KINDS),
    min: averageField,
    max: averageField,
    text: textField('Comment', { required: REPORT_MESSAGES.bankTextRequired })
      .trim()
      .min(1, REPORT_MESSAGES.bankTextRequired)
      .max(COMMENT_MAX, REPORT_MESSAGES.commentTooLong),
  })
  .refine((c) => c.min <= c.max, { message: REPORT_MESSAGES.bandRange, path: ['max'] });

/** A signature or stamp image: a data URL (PNG or JPEG), or '' for none. Normalised by the server. */
export const cardImageField = z
  .string()
  .max(3_000_000, REPORT_MESSAGES.photoTooLarge)
  .refine((v) => v === '' || /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/.test(v), REPORT_MESSAGES.imageInvalid);

export const promotionRuleSchema = z.object({
  min_average: averageField,
  trial_average: averageField.nullable(),
  pass_mark: averageField,
  required_subjects: z.array(z.string().trim().min(1).max(80)).max(20),
});

export const reportSettingsSchema = z.object({
  traits: z.object({ affective: traitListSchema, psychomotor: traitListSchema }),
  rating_labels: z
    .array(
      textField('Rating label', { required: REPORT_MESSAGES.ratingLabelRequired })
        .trim()
        .min(1, REPORT_MESSAGES.ratingLabelRequired)
        .max(30),
    )
    .length(RATING_MAX),
  /** Both comments must exist before a form teacher may submit the arm's cards. */
  require_comments: z.boolean(),
  promotion: promotionRuleSchema,
  comment_bank: z.array(bankCommentSchema).max(60),
  signature: cardImageField,
  stamp: cardImageField,
});
export type ReportSettingsInput = z.infer<typeof reportSettingsSchema>;

export interface ReportSettings {
  traits: Record<RatingDomain, RatingTrait[]>;
  rating_labels: string[];
  require_comments: boolean;
  promotion: PromotionRule;
  comment_bank: BankComment[];
  /** Data URLs ('' = none). */
  signature: string;
  stamp: string;
}

export const DEFAULT_REPORT_SETTINGS: ReportSettings = {
  traits: DEFAULT_TRAITS,
  rating_labels: [...DEFAULT_RATING_LABELS],
  require_comments: false,
  promotion: DEFAULT_PROMOTION_RULE,
  comment_bank: DEFAULT_COMMENT_BANK,
  signature: '',
  stamp: '',
};

/** A stable id for a new trait named `name`, not clashing with `taken`. */
export function traitIdFor(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 32) || 'trait';
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}-${i}`;
  return id;
}

// ---------- term dates ----------

export const isoDateField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, REPORT_MESSAGES.dateFormat)
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    REPORT_MESSAGES.dateFormat,
  );

export const reportTermsQuerySchema = z.object({ session_id: sessionIdField });

export const reportTermSchema = z.object({
  session_id: sessionIdField,
  term: termField,
  /** When the next term begins (printed on this term's cards). */
  next_term_begins: isoDateField.nullable(),
  /** Times school opened this term (until the attendance register fills it). */
  times_opened: z
    .number({ error: REPORT_MESSAGES.timesOpenedRange })
    .int(REPORT_MESSAGES.timesOpenedRange)
    .min(0, REPORT_MESSAGES.timesOpenedRange)
    .max(200, REPORT_MESSAGES.timesOpenedRange)
    .nullable(),
});
export type ReportTermInput = z.infer<typeof reportTermSchema>;
// ---------- sheets ----------

export const classSheetQuerySchema = z.object({ session_id: sessionIdField, term: termField, student_class: classField });

const versionField = z.number().int().min(0);
const ratingValue = z
  .number({ error: REPORT_MESSAGES.ratingRange })
  .int(REPORT_MESSAGES.ratingRange)
  .min(RATING_MIN, REPORT_MESSAGES.ratingRange)
  .max(RATING_MAX, REPORT_MESSAGES.ratingRange);
export const MAX_SHEET_ROWS = 200;

export const ratingSheetSaveSchema = classSheetQuerySchema.extend({
  rows: z
    .array(
      z.object({
        admission_number: admissionNumberField,
        /** Every trait of the row: a number, or null to clear it. */
        ratings: z.record(z.string().max(40), ratingValue.nullable()),
        /** The version read (0 = no entry yet). */
        version: versionField,
      }),
    )
    .min(1)
    .max(MAX_SHEET_ROWS),
});
export type RatingSheetSave = z.infer<typeof ratingSheetSaveSchema>;

const commentField = textField('Comment', { multiline: true }).trim().max(COMMENT_MAX, REPORT_MESSAGES.commentTooLong);
const daysField = z
  .number({ error: REPORT_MESSAGES.attendanceRange })
  .int(REPORT_MESSAGES.attendanceRange)
  .min(0, REPORT_MESSAGES.attendanceRange)
  .max(200, REPORT_MESSAGES.attendanceRange)
  .nullable();

export const commentSheetSaveSchema = classSheetQuerySchema.extend({
  rows: z
    .array(
      z.object({
        admission_number: admissionNumberField,
        /** Fields left out are not changed. */
        form_comment: commentField.optional(),
        principal_comment: commentField.optional(),
        days_present: daysField.optional(),
        days_absent: daysField.optional(),
        /** null clears an override. */
        promotion_override: z.enum(PROMOTION_DECISIONS).nullable().optional(),
        override_reason: textField('Reason').trim().max(300).optional(),
        version: versionField,
      }),
    )
    .min(1)
    .max(MAX_SHEET_ROWS),
});
export type CommentSheetSave = z.infer<typeof commentSheetSaveSchema>;

export const applySuggestionsSchema = classSheetQuerySchema.extend({
  kind: z.enum(COMMENT_KINDS),
  /** false: only students without a comment get one; true: every student's comment is replaced. */
  overwrite: z.boolean().default(false),
});

export const armActionSchema = classSheetQuerySchema;
export const armReturnSchema = classSheetQuerySchema.extend({
  reason: textField('Reason', { required: REPORT_MESSAGES.returnReasonRequired })
    .trim()
    .min(1, REPORT_MESSAGES.returnReasonRequired)
    .max(300),
});
export const releaseSchema = z.object({
  session_id: sessionIdField,
  term: termField,
  /** Arms to release (approving any not yet approved); absent: every approved arm of the term. */
  student_classes: z.array(classField).max(500).optional(),
});

export const studentPhotoSchema = z.object({
  photo: z
    .string()
    .max(3_000_000, REPORT_MESSAGES.photoTooLarge)
    .refine((v) => v === '' || /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/.test(v), REPORT_MESSAGES.photoInvalid),
});
