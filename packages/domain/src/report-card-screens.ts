/**
 * Words of the report card screens: the card view, the approvals page and the student
 * photo. The server's own messages are in REPORT_MESSAGES (report-cards.ts).
 */
export const REPORT_CARD_SCREEN_MESSAGES = {
  statusNotReleased: (status: string) => `${status}: not yet released to the student. Only staff see this card now.`,
  promotionOverridden: (reason: string) => `Decided by the principal: ${reason}`,
  // approvals
  approvalsExplain:
    'The form teacher submits an arm’s report cards when the ratings and comments are done; the principal (an admin) approves them or sends them back with a reason, then releases them to the students.',
  approvalsFailed: 'Could not load the report card approvals. Check your connection and try again.',
  actionFailed: 'Could not do that now. Check your connection and try again.',
  noArms: 'No arms to show for this term. Form teachers see the arms they are form teacher of.',
  counts: (students: number, rated: number, form: number, principal: number) =>
    `${students} student${students === 1 ? '' : 's'} · ${rated} rated · ${form} form teacher's comment${form === 1 ? '' : 's'} · ${principal} principal's comment${principal === 1 ? '' : 's'}`,
  formTeacherOf: (name: string | null) => (name ? `Form teacher: ${name}` : 'No form teacher assigned'),
  submittedOn: (date: string, by: string | null) => `Submitted ${date}${by ? ` by ${by}` : ''}`,
  approvedOn: (date: string, by: string | null) => `Approved ${date}${by ? ` by ${by}` : ''}`,
  releasedOn: (date: string) => `Released ${date}`,
  returnedBecause: (date: string | null, reason: string) => `Sent back${date ? ` ${date}` : ''}: ${reason}`,
  returnReasonLabel: 'Reason for sending back',
  confirmSubmit: (cls: string) => `Submit ${cls}'s report cards for approval? You cannot change them until the principal sends them back.`,
  confirmApprove: (cls: string) => `Approve ${cls}'s report cards?`,
  confirmRelease: (classes: string[]) =>
    `Release the report cards of ${classes.length === 1 ? classes[0] : `${classes.length} arms (${classes.join(', ')})`} to the students? They can see and download them at once.`,
  confirmReleaseAll: (n: number) => `Release every approved arm (${n}) to the students? They can see and download the cards at once.`,
  selectToRelease: 'Select arms to release, or release every approved arm.',
  // scores changed after approval
  changedSinceApproval: (n: number) => `Changed since approval: ${n} score${n === 1 ? '' : 's'}`,
  scoreChange: (
    c: { student_name: string; subject: string; action: string; old_score: number | null; new_score: number | null; by: string },
    date: string,
  ) =>
    `${c.student_name}, ${c.subject}: ${c.action === 'create' ? `new score ${c.new_score}` : c.action === 'delete' ? `score ${c.old_score} removed` : `${c.old_score} → ${c.new_score}`} by ${c.by}, ${date}`,
  releaseLookFirst: (n: number) =>
    `Look first: ${n} score${n === 1 ? ' was' : 's were'} changed after approval. Open the cards PDF to check them, or send the arm back.`,
  // the form teacher's home
  sentBackNoticeTitle: 'Report cards sent back to you',
  sentBackNotice: (cls: string, term: string, date: string | null, reason: string) =>
    `${cls}, ${term}: sent back by the principal${date ? ` on ${date}` : ''}. Reason: ${reason}`,
  sentBackOpenComments: (cls: string) => `Open ${cls}'s comments`,
  sentBackOpenApprovals: 'Approvals',
  // photo
  photoLabel: 'Photo (PNG or JPEG, at most 2 MB)',
  photoHint: 'Shown on the student’s report card.',
  photoFailed: 'Could not save the photo. Check your connection and try again.',
} as const;
