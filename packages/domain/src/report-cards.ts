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
 * sections of `ReportCard`. The response shapes are zod schemas in report-card-responses.ts (types re-exported here).
 */
export type {
  ArmApproval,
  CardAttendance,
  CardComments,
  CardNextTerm,
  CardPromotion,
  CardRatings,
  CommentSheet,
  CommentSheetRow,
  CommentSheetSaved,
  GradingKeyRow,
  RatingSheet,
  RatingSheetRow,
  RatingSheetSaved,
  ReleaseResult,
  ReportCard,
  ScoreChangeSinceApproval,
  SheetAccess,
} from './report-card-responses';

// ---------- the card's section titles ----------

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
