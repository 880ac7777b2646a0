/**
 * The words of the end-of-session screens (issue 34): the admin menu's "End of session" group, the
 * promotion screen (/promotion: preview, mapping, apply, progress, summary, runs and undo) and one
 * student's move (/promotion/move), with a graduate's transcript. The server's messages are the
 * promotion module's own (promotion.ts).
 */

export const SESSION_END_SCREENS = {
  rollover: {
    to: '/session-rollover',
    title: 'Start Next Session',
    label: 'Start Next Session',
    description: 'Create the next session, its terms, and copy fees, schemes and assignments',
  },
  promotion: {
    to: '/promotion',
    title: 'Promotion',
    label: 'Promotion',
    description: 'Promote every arm or the whole school, with a preview; undo a run',
  },
  move: {
    to: '/promotion/move',
    title: 'Move a Student',
    label: 'Move a Student',
    description: 'One student to another class, with a reason',
  },
  pins: { to: '/result-pins', title: 'Result PINs', label: 'Result PINs', description: 'Result-checker PIN batches, printing and sales' },
} as const;

/** The admin menu's group (after the other groups). */
export const SESSION_END_MENU_TITLE = 'End of session';

export const PROMOTION_DECISIONS = ['promoted', 'trial', 'repeat', 'graduated'] as const;
export type PromotionDecisionWord = (typeof PROMOTION_DECISIONS)[number];

export const PROMOTION_SCREEN_LABELS = {
  fromSession: 'From session',
  toSession: 'To session',
  arm: 'Class',
  wholeSchool: 'Whole school',
  preview: 'Preview',
  student: 'Student',
  admissionNumber: 'Admission number',
  currentArm: 'Class now',
  average: 'Average',
  decision: 'Decision',
  source: 'Source',
  target: 'New class',
  stream: 'Stream',
  noStream: 'No stream',
  decisionOf: (name: string) => `Decision for ${name}`,
  targetOf: (name: string) => `New class for ${name}`,
  streamOf: (name: string) => `Stream for ${name}`,
  decisions: { promoted: 'Promoted', trial: 'On trial', repeat: 'Repeat', graduated: 'Graduated' } as Record<string, string>,
  sources: { rule: 'Promotion rule', override: 'Recorded override', no_card: 'No card' } as Record<string, string>,
  graduate: 'Graduate (leaves the school)',
  graduates: 'Graduates',
  sameArm: 'Same class',
  mapping: 'Class mapping',
  mappingHint:
    'Each class moves to the class on its right. Point two classes at one to merge them; split a class to send part of it to a second class (then adjust students below).',
  fromArm: 'From',
  toArm: 'To',
  mappingOf: (arm: string) => `New class for ${arm}`,
  split: 'Split',
  splitOf: (arm: string) => `Split ${arm}`,
  splitInto: 'Second class',
  splitIntoOf: (arm: string) => `Second class for ${arm}`,
  splitApply: 'Split in half',
  cancel: 'Cancel',
  counts: 'Students per new class',
  count: 'Students',
  totals: 'Totals',
  promoted: 'Promoted',
  trial: 'On trial',
  repeat: 'Repeat',
  graduated: 'Graduated',
  leftOut: 'Left out (withdrawn)',
  showArm: 'Show class',
  showAll: 'All classes',
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  edited: 'Changed',
  reset: 'Undo my changes',
  promote: 'Promote',
  promoteConfirm: 'Yes, promote',
  promoteQuestion: (students: number, from: string, to: string) =>
    `Promote ${students} student${students === 1 ? '' : 's'} from ${from} to ${to}? Every student moves in one step; you can undo it while ${to} has no scores, registers or payments.`,
  running: 'Promoting...',
  progress: (done: number, total: number) => `${done} of ${total} students`,
  summary: 'Promotion done',
  runs: 'Promotion runs',
  noRuns: 'No promotion has been run yet.',
  when: 'When',
  sessions: 'Sessions',
  status: 'Status',
  statuses: { running: 'Running', done: 'Done', failed: 'Failed', undone: 'Undone' } as Record<string, string>,
  undo: 'Undo',
  undoOf: (id: number) => `Undo run ${id}`,
  undoConfirm: 'Yes, undo',
  undoQuestion: (to: string) =>
    `Undo this promotion? Every student goes back to the class they were in before, and ${to} loses its class lists.`,
  undone: 'Promotion undone.',
  undoBlocked: 'Cannot undo',
  moveOne: 'Move one student',
  find: 'Find',
  reason: 'Reason',
  move: 'Move student',
  moved: (name: string, arm: string) => `${name} moved to ${arm}.`,
  graduatedOn: 'Graduated',
  transcript: 'Download transcript (PDF)',
  profile: 'Student details',
} as const;

export const PROMOTION_SCREEN_MESSAGES = {
  chooseSessions: 'Choose the session to promote from and the session to promote into.',
  sameSession: 'The two sessions must be different.',
  previewFailed: 'Could not load the promotion preview. Please try again.',
  noStudents: 'No students to promote in this choice.',
  promoteFailed: 'Could not start the promotion. Nothing was changed.',
  runFailed: 'The promotion failed and nothing was changed. Please try again.',
  runsFailed: 'Could not load the promotion runs.',
  undoFailed: 'Could not undo the promotion.',
  studentNotFound: 'No student with this admission number.',
  lookupFailed: 'Could not find the student. Please try again.',
  reasonRequired: 'Please give the reason for the move.',
  targetRequired: 'Choose the class to move the student to.',
  moveFailed: 'Could not move the student. Please check the class and try again.',
  transcriptFailed: 'Could not make the transcript. Please try again.',
  graduateNote: 'This student has graduated: the account no longer signs in, and every record is kept.',
  withdrawnNote: 'This student has withdrawn from the school.',
  moveHint: 'Moves the student now, in the current records; past cards, results and payments keep the class they were made in.',
  splitHint: 'Half of the class (in the order of the list) goes to the second class.',
} as const;
