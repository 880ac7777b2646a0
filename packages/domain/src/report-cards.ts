/**
 * The full report card: ratings, comments, attendance, the term's dates, the approval of
 * an arm's cards and the third-term promotion decision. Its response shapes (sheets, approvals and the card
 * with its sections); the rules and messages are in report-card-rules.ts, the schemas in
 * report-card-schemas.ts.
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
import type { Term } from './constants';
import type { ReportCardSubject } from './results';
import type { AssessmentComponent } from './assessment';
import type { RatingDomain, RatingTrait, Ratings, PromotionDecision, CardStatus } from './report-card-rules';

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
