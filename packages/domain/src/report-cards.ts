// One file (about 720 lines): the card's ratings, comments, promotion, approval, settings, sheets and
// sections. The web imports its names through the '@portal/domain/report-cards' subpath, so moving a
// name out needs the web's imports changed first.
/**
 * The full report card: ratings, comments, attendance, the term's dates, the approval of
 * an arm's cards and the third-term promotion decision. Types, messages, schemas and pure rules,
 * shared by the server and the web client.
 *
 * API (all under /api, staff = form teacher of the arm unless said otherwise):
 *   GET  /report-settings/                       staff, admin  → ReportSettings
 *   PUT  /report-settings/                       admin         ReportSettingsInput → ReportSettings
 *   GET  /report-terms/?session_id=              staff, admin  → ReportTerm[] (one per term, always 3)
 *   PUT  /report-terms/                          admin         ReportTermInput → ReportTerm
 *   GET  /class-ratings/?session_id&term&student_class     → RatingSheet  (form teacher of the arm, admin)
 *   PUT  /class-ratings/                         RatingSheetSave → RatingSheetSaved
 *   GET  /class-comments/?session_id&term&student_class    → CommentSheet (form teacher of the arm, admin)
 *   PUT  /class-comments/                        CommentSheetSave → CommentSheetSaved
 *   POST /class-comments/suggestions/            ApplySuggestions → { applied: number } (form: form teacher/admin; principal: admin)
 *   GET  /report-approvals/?session_id&term      staff, admin  → ArmApproval[] (staff: the arms they are form teacher of)
 *   POST /report-approvals/submit/               ArmAction → ArmApproval   (form teacher of the arm, admin)
 *   POST /report-approvals/approve/              ArmAction → ArmApproval   (admin)
 *   POST /report-approvals/return/               ArmReturn → ArmApproval   (admin: sent back with a reason)
 *   POST /report-approvals/release/              ReleaseRequest → ReleaseResult (admin; the spec's publishing is this step)
 *   PUT  /students/{admission_number}/photo/     admin  { photo: data URL | '' } → { photo }
 * The report card itself stays GET /report-card/ (+ /pdf/) and GET /report-cards/ (+ /pdf/), with the
 * sections below added to `ReportCard`.
 */
import { z } from 'zod';
import { TERM_VALUES, type Term } from './constants';
import { textField } from './text';
import { LOGO_MAX_SOURCE_PIXELS } from './settings-constants';
import { sessionIdField, termField, classField, admissionNumberField, type ReportCardSubject } from './results';
import type { AssessmentComponent } from './assessment';
import type { ClassLevel } from './teaching';

// ---------- ratings ----------

export const RATING_DOMAINS = ['affective', 'psychomotor'] as const;
export type RatingDomain = (typeof RATING_DOMAINS)[number];
export const RATING_DOMAIN_LABELS: Record<RatingDomain, string> = {
  affective: 'Affective domain',
  psychomotor: 'Psychomotor skills',
};
export const RATING_MIN = 1;
export const RATING_MAX = 5;
/** Labels of ratings 1 to 5 (index 0 is rating 1). */
export const DEFAULT_RATING_LABELS = ['Poor', 'Fair', 'Good', 'Very good', 'Excellent'] as const;

/** A trait the form teacher rates. `id` is stable (ratings are stored by it); the name may change. */
export interface RatingTrait {
  id: string;
  name: string;
}

export const DEFAULT_TRAITS: Record<RatingDomain, RatingTrait[]> = {
  affective: [
    { id: 'punctuality', name: 'Punctuality' },
    { id: 'neatness', name: 'Neatness' },
    { id: 'politeness', name: 'Politeness' },
    { id: 'honesty', name: 'Honesty' },
    { id: 'self-control', name: 'Self-control' },
    { id: 'cooperation', name: 'Cooperation' },
    { id: 'leadership', name: 'Leadership' },
    { id: 'attentiveness', name: 'Attentiveness' },
  ],
  psychomotor: [
    { id: 'handwriting', name: 'Handwriting' },
    { id: 'sports', name: 'Sports and games' },
    { id: 'arts', name: 'Arts and crafts' },
    { id: 'music', name: 'Music' },
  ],
};
export const MAX_TRAITS_PER_DOMAIN = 12;

/** Ratings of one student by trait id; a trait not rated is absent. */
export type Ratings = Record<string, number>;

// ---------- comments ----------

export const COMMENT_KINDS = ['form', 'principal'] as const;
export type CommentKind = (typeof COMMENT_KINDS)[number];
export const COMMENT_MAX = 400;

/** A comment the bank suggests for a student whose term average is in [min, max]. */
export interface BankComment {
  kind: CommentKind;
  min: number;
  max: number;
  text: string;
}

export const DEFAULT_COMMENT_BANK: BankComment[] = [
  { kind: 'form', min: 70, max: 100, text: 'An excellent result. Keep up the good work.' },
  { kind: 'form', min: 55, max: 69.99, text: 'A very good result. Aim higher next term.' },
  { kind: 'form', min: 40, max: 54.99, text: 'A fair result. More effort is needed.' },
  { kind: 'form', min: 0, max: 39.99, text: 'A weak result. Work much harder and seek help early.' },
  { kind: 'principal', min: 70, max: 100, text: 'Outstanding performance. Well done.' },
  { kind: 'principal', min: 55, max: 69.99, text: 'Good performance. Keep it up.' },
  { kind: 'principal', min: 40, max: 54.99, text: 'Satisfactory. You can do better.' },
  { kind: 'principal', min: 0, max: 39.99, text: 'Poor performance. Parents should see the principal.' },
];

/** The bank's first comment of `kind` whose band holds `average`, or '' (no average, or no band). */
export function suggestComment(bank: readonly BankComment[], kind: CommentKind, average: number | null): string {
  if (average === null || !Number.isFinite(average)) return '';
  return bank.find((c) => c.kind === kind && average >= c.min && average <= c.max)?.text ?? '';
}

// ---------- promotion ----------

export const PROMOTION_DECISIONS = ['promoted', 'trial', 'repeat'] as const;
export type PromotionDecision = (typeof PROMOTION_DECISIONS)[number];

export interface PromotionRule {
  /** Annual average needed for promotion. */
  min_average: number;
  /** Annual average for promotion on trial (below min_average); null: no trial. */
  trial_average: number | null;
  /** A subject is passed when its annual average (or a term score) is at least this. */
  pass_mark: number;
  /** Subjects that must be passed for promotion (catalogue names); a student not taking one is not held to it. */
  required_subjects: string[];
}

export const DEFAULT_PROMOTION_RULE: PromotionRule = {
  min_average: 40,
  trial_average: 35,
  pass_mark: 40,
  required_subjects: ['English Language', 'Mathematics'],
};

/**
 * The third-term decision from the rule: promoted when the annual average reaches `min_average` and
 * every required subject the student takes is passed; on trial when the average reaches
 * `trial_average` (or it reaches `min_average` but a required subject is failed and trial exists);
 * otherwise repeat. No annual average (no scores at all) is repeat.
 */
export function promotionDecision(
  rule: PromotionRule,
  input: { annual_average: number | null; subject_averages: Record<string, number | null> },
): PromotionDecision {
  const avg = input.annual_average;
  if (avg === null || !Number.isFinite(avg)) return 'repeat';
  const failedRequired = rule.required_subjects.some((s) => {
    const v = input.subject_averages[s];
    return v !== undefined && v !== null && v < rule.pass_mark;
  });
  if (avg >= rule.min_average && !failedRequired) return 'promoted';
  if (rule.trial_average !== null && avg >= rule.trial_average) return 'trial';
  return 'repeat';
}

/** How a decision reads on the card: SSS 3 students who pass graduate rather than move up. */
export function promotionLabel(decision: PromotionDecision, level: ClassLevel | null): string {
  if (decision === 'promoted') return level === 'SSS 3' ? 'Graduated' : 'Promoted';
  if (decision === 'trial') return 'Promoted on trial';
  return level === 'SSS 3' ? 'Not graduated: to repeat' : 'To repeat the class';
}

// ---------- approval ----------

export const CARD_STATUSES = ['draft', 'submitted', 'approved', 'released'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];
export const CARD_STATUS_LABELS: Record<CardStatus, string> = {
  draft: 'Draft',
  submitted: 'Submitted',
  approved: 'Approved',
  released: 'Released',
};
export type ArmActionName = 'submit' | 'approve' | 'return' | 'release';

/**
 * Which status an action leads to from `status`, or null when the action is not allowed there.
 * Release from draft or submitted is the admin's "approve and release" (the admin is the approver).
 */
export function nextCardStatus(status: CardStatus, action: ArmActionName): CardStatus | null {
  switch (action) {
    case 'submit':
      return status === 'draft' ? 'submitted' : null;
    case 'approve':
      return status === 'submitted' || status === 'draft' ? 'approved' : null;
    case 'return':
      return status === 'submitted' || status === 'approved' ? 'draft' : null;
    case 'release':
      return status === 'released' ? null : 'released';
  }
}

/** The term after `term`, and whether it is in the next session. */
export function nextTermOf(term: Term): { term: Term; nextSession: boolean } {
  const i = TERM_VALUES.indexOf(term);
  return i < 2 ? { term: TERM_VALUES[i + 1]!, nextSession: false } : { term: '1st', nextSession: true };
}

// ---------- messages ----------

export const REPORT_MESSAGES = {
  settingsSaved: 'Report card settings saved',
  settingsFailed: 'Failed to load the report card settings.',
  termSaved: 'Term dates saved',
  traitNameRequired: 'Trait name is required',
  traitsDuplicate: 'Each trait may appear only once in a list.',
  traitsTooMany: `At most ${MAX_TRAITS_PER_DOMAIN} traits in a list.`,
  ratingLabelRequired: 'Each rating needs a label',
  ratingRange: `A rating is a whole number from ${RATING_MIN} to ${RATING_MAX}.`,
  unknownTrait: 'Unknown trait: reload the sheet.',
  commentTooLong: `A comment must be at most ${COMMENT_MAX} characters`,
  bandRange: 'A comment band runs from 0 to 100, lowest first.',
  bankTextRequired: 'Comment text is required',
  averageRange: 'An average is from 0 to 100.',
  dateFormat: 'Enter a date as YYYY-MM-DD',
  timesOpenedRange: 'Times school opened is a whole number from 0 to 200.',
  attendanceRange: 'Days present and absent are whole numbers from 0 to 200.',
  attendanceOverOpened: (opened: number) => `Present and absent together cannot exceed the ${opened} times school opened.`,
  overrideReasonRequired: 'Give a reason for overriding the promotion decision.',
  promotionThirdTermOnly: 'The promotion decision is on the third-term card only.',
  principalOnly: "Only the principal (an admin) can write the principal's comment or change a promotion decision.",
  formTeacherOnly: (cls: string) => `Only the form teacher of ${cls} or an admin can do this.`,
  /** An arm's cards before release. */
  unreleasedCardsOnly: (cls: string) =>
    `${cls}'s report cards are not released yet: until then only its form teacher, its subject teachers and the admin can read them.`,
  lockedSubmitted: (cls: string, status: string) =>
    `${cls}'s report cards are ${status.toLowerCase()}: ask the principal to send them back before changing them.`,
  commentsMissing: (n: number) =>
    `${n} student${n === 1 ? ' has' : 's have'} no form teacher's or principal's comment yet. The school requires both before submission.`,
  /**
   * "Require both comments": each step asks for the comments of the person who writes
   * them, and the message says what is missing and who adds it.
   */
  formCommentsMissing: (n: number, cls: string) =>
    `${n} student${n === 1 ? '' : 's'} of ${cls} ${n === 1 ? 'has' : 'have'} no form teacher's comment yet. The school requires both comments: the form teacher adds them on the comment sheet before submitting.`,
  principalCommentsMissing: (n: number, cls: string, step: 'approval' | 'release') =>
    `${n} student${n === 1 ? '' : 's'} of ${cls} ${n === 1 ? 'has' : 'have'} no principal's comment yet. The school requires both comments: the principal adds them on the comment sheet before ${step}.`,
  notAllowedNow: (cls: string, status: string, action: string) =>
    `${cls}'s report cards are ${status.toLowerCase()}: they cannot be ${action} now.`,
  returnReasonRequired: 'Give a reason for sending the cards back.',
  submitted: (cls: string) => `${cls}'s report cards submitted for approval`,
  approved: (cls: string) => `${cls}'s report cards approved`,
  returned: (cls: string) => `${cls}'s report cards sent back to the form teacher`,
  released: (n: number) => `Report cards released for ${n} arm${n === 1 ? '' : 's'}`,
  nothingToRelease: 'No approved arm to release for this term.',
  noStudents: 'No students in this class for the selected session and term.',
  changedByOther: (name: string) => `${name}'s entry was changed by someone else since you loaded it. Reload and try again.`,
  saved: 'Saved',
  savedCount: (n: number) => `${n} student${n === 1 ? '' : 's'} saved`,
  suggestionsApplied: (n: number) => `Suggested comment applied to ${n} student${n === 1 ? '' : 's'}`,
  photoSaved: 'Photo saved',
  photoRemoved: 'Photo removed',
  photoInvalid: 'The photo must be a PNG or JPEG image',
  photoTooLarge: 'The photo is too large (at most 2 MB)',
  /** A photo within 2 MB but too many pixels: named by its pixel limit, as the signature and stamp are. */
  photoTooManyPixels: `The photo must be at most ${LOGO_MAX_SOURCE_PIXELS} × ${LOGO_MAX_SOURCE_PIXELS} pixels`,
  imageInvalid: 'The image must be a PNG or JPEG image',
  imageTooLarge: `The image must be at most ${LOGO_MAX_SOURCE_PIXELS} × ${LOGO_MAX_SOURCE_PIXELS} pixels`,
  notInClass: (admission: string, cls: string) => `${admission} is not a student of ${cls} this term.`,
  notSet: 'Not set',
  toBeAnnounced: 'To be announced',
} as const;

export const CARD_CODES = {
  locked: 'cards_locked',
  commentsMissing: 'comments_missing',
  notAllowed: 'status_not_allowed',
  changed: 'changed_by_other',
} as const;

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
export interface ReportTerm {
  session_id: number;
  term: Term;
  next_term_begins: string | null;
  times_opened: number | null;
}

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

/** Who is looking at a sheet, and what they may change on it. */
export interface SheetAccess {
  status: CardStatus;
  /** Ratings, form comments, attendance: the form teacher while draft; the admin always. */
  may_edit_form: boolean;
  /** Principal comments and promotion overrides: the admin. */
  may_edit_principal: boolean;
  form_teacher: string | null;
}

export interface RatingSheetRow {
  admission_number: string;
  name: string;
  ratings: Ratings;
  version: number;
}
export interface RatingSheet extends SheetAccess {
  session_id: number;
  term: Term;
  student_class: string;
  traits: Record<RatingDomain, RatingTrait[]>;
  rating_labels: string[];
  rows: RatingSheetRow[];
}
export interface RatingSheetSaved {
  rows: { admission_number: string; version: number; ratings: Ratings }[];
}

export interface CommentSheetRow {
  admission_number: string;
  name: string;
  /** The term average and position (null: no scores yet). */
  average: number | null;
  position: number | null;
  form_comment: string;
  principal_comment: string;
  suggested_form: string;
  suggested_principal: string;
  /** The form teacher's totals, overriding the register's when set (null: not overridden). */
  days_present: number | null;
  days_absent: number | null;
  /** The register's totals for the term, with any carried in from paper (null: no marks and nothing carried). */
  register: { present: number; absent: number } | null;
  /** Times school opened the register does not account for; null when the form teacher's totals are set or times opened is unknown. */
  unmarked: number | null;
  /** Third term: the rule's decision, the override and its reason. Null in other terms. */
  promotion: null | {
    computed: PromotionDecision;
    override: PromotionDecision | null;
    reason: string;
    annual_average: number | null;
  };
  version: number;
}
export interface CommentSheet extends SheetAccess {
  session_id: number;
  term: Term;
  student_class: string;
  times_opened: number | null;
  require_comments: boolean;
  rows: CommentSheetRow[];
}
export interface CommentSheetSaved {
  rows: CommentSheetRow[];
}

export interface ArmApproval {
  student_class: string;
  status: CardStatus;
  students: number;
  /** Students with every trait rated / with a form comment / with a principal comment. */
  rated: number;
  form_comments: number;
  principal_comments: number;
  form_teacher: string | null;
  submitted_at: string | null;
  submitted_by: string | null;
  approved_at: string | null;
  approved_by: string | null;
  returned_reason: string | null;
  returned_at: string | null;
  released_at: string | null;
  /**
   * Scores changed since the arm was approved and before its release (decision 009 allows them;
   * the approvals page shows them): what changed and who changed it, oldest first. Empty otherwise.
   */
  changes_since_approval: ScoreChangeSinceApproval[];
}
export interface ScoreChangeSinceApproval {
  admission_number: string;
  student_name: string;
  subject: string;
  action: 'create' | 'update' | 'delete';
  old_score: number | null;
  new_score: number | null;
  /** Who changed it: the staff member's or admin's name, else the account's email. */
  by: string;
  at: string;
}
export interface ReleaseResult {
  released: string[];
  students: number;
}

// ---------- the card's new sections (added to ReportCard) ----------

export interface CardAttendance {
  times_opened: number | null;
  present: number | null;
  absent: number | null;
  /** 'register': counted from the attendance register (and carried-in totals); 'form_teacher': entered on the comment sheet. */
  source: 'register' | 'form_teacher';
  /**
   * Times school opened the register does not account for (never marked); null when the form
   * teacher entered (confirmed) the totals or times opened is not known.
   */
  unmarked: number | null;
}
export interface CardRatings {
  labels: string[];
  domains: { domain: RatingDomain; title: string; traits: { name: string; rating: number | null }[] }[];
}
export interface CardComments {
  form_teacher: string;
  form_teacher_name: string | null;
  principal: string;
}
export interface CardNextTerm {
  term_label: string;
  session_name: string | null;
  /** ISO date, or null when not set yet. */
  begins: string | null;
  /** Next term's compulsory fees for the student's class in naira, or null when not set. */
  fees: number | null;
  /** The student's outstanding balance for this session in naira. */
  outstanding: number;
}
export interface CardPromotion {
  decision: PromotionDecision;
  label: string;
  overridden: boolean;
  reason: string;
}
export interface GradingKeyRow {
  grade: string;
  min: number;
  max: number;
  remark: string;
}

export const CARD_SECTION_TITLES = {
  attendance: 'Attendance',
  timesOpened: 'Times school opened',
  present: 'Times present',
  absent: 'Times absent',
  summary: 'Summary',
  passed: 'Subjects passed',
  failed: 'Subjects failed',
  gradingKey: 'Grading key',
  ratingKey: 'Rating key',
  comments: 'Comments',
  formTeacherComment: "Form teacher's comment",
  principalComment: "Principal's comment",
  signature: "Principal's signature",
  stamp: 'School stamp',
  nextTerm: 'Next term',
  nextTermBegins: 'Next term begins',
  nextTermFees: "Next term's fees",
  outstanding: 'Outstanding balance',
  cumulative: 'Cumulative (this session)',
  annualAverage: 'Annual average',
  promotion: 'Promotion decision',
  numberInClass: 'Number in class',
  revised: 'Revised',
} as const;

/** One student's report card for a term, as the API returns it (its sections are above). */
export interface ReportCard {
  school: { name: string; motto: string; address: string; logo: string; phone: string; email: string; time_zone?: string };
  student: {
    admission_number: string;
    first_name: string;
    last_name: string;
    gender: string | null;
    /** The class and arm ("JSS 1A"). */
    student_class: string;
    /** A data URL, or '' when no photo was uploaded. */
    photo: string;
  };
  session: { id: number; name: string };
  term: string;
  term_label: string;
  /** The class level's assessment scheme for the session (one component of 100 by default). */
  components: AssessmentComponent[];
  subjects: ReportCardSubject[];
  total: number;
  subjects_taken: number;
  average: number;
  class_average: number;
  position: number;
  class_size: number;
  position_text: string;
  released: boolean;
  /** Changes made to released results of this term, newest first; empty when none. */
  revisions: { subject: string; at: string; reason: string }[];
  /** When a released result of this term was last revised, or null. */
  revised_at: string | null;
  /** Third term: totals and averages of each term, and the annual average. */
  cumulative: null | {
    terms: { term: string; total: number | null; average: number | null; subjects_taken: number }[];
    annual_average: number | null;
  };
  /** Where the arm's cards are in the approval (released = published). */
  status: CardStatus;
  attendance: CardAttendance;
  ratings: CardRatings;
  /** Subjects with a score at or above the pass mark, and below it. */
  subjects_passed: number;
  subjects_failed: number;
  /** The session's grading scale for the class level, highest band first. */
  grading_key: GradingKeyRow[];
  comments: CardComments;
  /** The principal's signature and the school stamp (data URLs, '' when not uploaded). */
  sign_off: { signature: string; stamp: string };
  next_term: CardNextTerm;
  /** Third term only: the promotion decision (the rule's, or the principal's override). */
  promotion: CardPromotion | null;
  generated_at: string;
}
