/**
 * The report card's ratings, comments, promotion rule and approval steps: their constants, messages
 * and pure rules. Schemas are in report-card-schemas.ts; the card and sheet shapes in report-cards.ts.
 */
import { valuesOf } from './choices';
import { TERM_VALUES, type Term } from './constants';
import { LOGO_MAX_SOURCE_PIXELS } from './settings-constants';
import type { ClassLevel } from './teaching';

// ---------- ratings ----------

export const RATING_DOMAIN_LABELS = { affective: 'Affective domain', psychomotor: 'Psychomotor skills' };
export type RatingDomain = keyof typeof RATING_DOMAIN_LABELS;
export const RATING_DOMAINS = valuesOf(RATING_DOMAIN_LABELS);
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

export const CARD_STATUS_LABELS = { draft: 'Draft', submitted: 'Submitted', approved: 'Approved', released: 'Released' };
export type CardStatus = keyof typeof CARD_STATUS_LABELS;
export const CARD_STATUSES = valuesOf(CARD_STATUS_LABELS);
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
  /** A save over settings that changed after the form was opened (If-Match, decision 059). */
  settingsChangedMeanwhile:
    'The report card settings changed after you opened them: another admin saved them, or another session became current. Reload the page to see them, then make your changes again.',
  termSaved: 'Term dates saved',
  traitNameRequired: 'Trait name is required',
  traitsDuplicate: 'Each trait may appear only once in a list.',
  traitsTooMany: `At most ${MAX_TRAITS_PER_DOMAIN} traits in a list.`,
  ratingLabelRequired: 'Each rating needs a label',
  ratingRange: `A rating is a whole number from ${RATING_MIN} to ${RATING_MAX}.`,
  unknownTrait: 'Unknown trait: reload the sheet.',
  commentTooLong: `A comment must be at most ${COMMENT_MAX} characters`,
  bandRange: 'A comment band runs from 0 to 100, lowest first.',
  /** A required subject must name one in the catalogue, or the rule would hold no one to it. */
  requiredSubjectUnknown: (name: string) => `${name} is not a subject in the catalogue: untick it or add the subject first.`,
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
