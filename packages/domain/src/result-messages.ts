/** The results' words and codes: the messages of sessions, results, grading, report cards and publishing. */
import { AUTH_MESSAGES } from './auth-constants';

/** Every user-visible message of sessions, results, grading, report cards and publishing. */
export const RESULT_MESSAGES = {
  // Field rules
  admissionNumberRequired: 'Admission number is required',
  admissionNumberFormat: 'Must be alphanumeric with optional hyphens',
  sessionRequired: 'Academic session is required',
  termRequired: 'Academic term is required',
  classRequired: 'Class is required',
  scoreRequired: 'Score is required',
  scoreMin: 'Score must be at least 0',
  scoreMax: 'Score cannot exceed 100',
  selectSessionAndTerm: 'Please select a session and term.',
  searchNeedsAll: 'Please enter admission number, select session, and term to search.',
  searchNeedsAllShort: 'Please enter admission number, select session, and term.',
  // Toasts and states
  saved: 'Results saved successfully!',
  saveFailed: 'Failed to save results. Please check your inputs.',
  sessionsFailed: 'Failed to load academic sessions',
  pleaseLoginAgain: 'Please login again',
  studentsFailed: 'Error fetching students. Please try again.',
  studentResultsFailed: 'Failed to fetch student results.',
  noResultsForCriteria: 'No results found for the given criteria.',
  fetchResultsFailed: 'Failed to fetch results.',
  unauthorized: 'Unauthorized access. Please login again.',
  noStudentsFound: 'No students found for the selected criteria.',
  noResultsForStudent: 'No results found for this student.',
  noResultsForStudentInTerm: 'No results found for this student in the selected session and term.',
  updateFailed: 'Failed to update results. Please check your inputs.',
  networkTryAgain: 'Network error. Please try again.',
  updated: 'Results updated successfully!',
  combinedNotFound: (n: string) => `Student with admission number ${n} not found, or no results found for the given criteria.`,
  combinedFailed: 'Failed to fetch student and/or results.',
  networkCheckConnection: 'Network error. Please check your connection.',
  combinedEmpty: (student: string) => `No results found for ${student} in the selected session and term.`,
  confirmDelete: 'Are you sure you want to delete this result?',
  deleted: 'Result deleted successfully',
  deleteFailed: 'Failed to delete result',
  // beyond the spec
  studentNotFound: (n: string) => `Student with admission number ${n} not found.`,
  sessionNotFound: 'Academic session not found.',
  resultNotFound: 'Result not found.',
  unknownSubject: 'Choose a subject from the list',
  subjectsRequired: 'Enter a score for at least one subject.',
  duplicateSubject: 'Each subject may appear only once.',
  subjectRequired: 'Subject is required',
  remarksTooLong: 'Remarks must be at most 300 characters',
  identityLocked: 'The student, session and term of a result cannot be changed; delete it and enter it again.',
  subjectTaken: 'This student already has a result for that subject in this term.',
  classMismatch: (cls: string) => `This student's results for this term are recorded in ${cls}. Choose ${cls} as the class.`,
  auditNeedsFilter: 'Choose a student or a class to see its result history.',
  changedByOther: (subject: string) =>
    `The ${subject} result was changed by someone else since you loaded it. Reload the results and try again.`,
  createdByOther: (subject: string) =>
    `Someone else has just entered a ${subject} result for this student. Reload the results and try again.`,
  /** The one own-record message (AUTH_MESSAGES.ownRecordOnly); kept under this name for callers. */
  ownResultsOnly: AUTH_MESSAGES.ownRecordOnly,
  notReleased: 'Results for this term have not been released yet. Please check back later.',
  notReleasedShort: 'Not yet released',
  sessionNameFormat: 'Session name must look like 2025/2026 (two consecutive years)',
  sessionNameTaken: 'A session with this name already exists.',
  sessionNameRequired: 'Session name is required',
  keepOneCurrent: 'Mark another session as current instead: one session is always current.',
  sessionCreated: 'Session created',
  sessionUpdated: 'Session updated',
  scaleSaved: 'Grading scale saved; all results of this level were regraded.',
  published: 'Results published',
  unpublished: 'Results unpublished',
  publicationNotFound: 'This class has not been published for that term.',
  noReportCard: 'No report card: this student has no results for the selected session and term.',
  noTranscriptCards: 'No transcript: this student has no released report card yet.',
  pdfFailed: 'Failed to download the PDF.',
  // Own class, released results and scales per session
  classNotStudents: (cls: string) => `This student is in ${cls}. Results can only be entered under the student's own class.`,
  reasonRequired: 'These results have been released to the student: give a reason for the change.',
  /** The admin changing scores of a session that is not the current one. */
  reasonRequiredPastSession: 'This is not the current session: give a reason for the change (it is kept in the result history).',
  reasonTooLong: 'The reason must be at most 300 characters',
  regradeReason: 'Grading scale changed',
  regradeNeedsConfirm: (changes: number, released: number, session: string) =>
    `This change regrades ${changes} result${changes === 1 ? '' : 's'} of ${session}` +
    (released ? `, ${released} of them on released report cards` : '') +
    '. Confirm to apply it; past sessions keep their grades.',
  scaleSavedForSession: (session: string, regraded: number) =>
    `Grading scale saved for ${session}; ${regraded} result${regraded === 1 ? '' : 's'} regraded. Past sessions keep their grades.`,
  revisedOn: (date: string) => `Revised on ${date}`,
  invalidScore: (subject: string) => `Enter a number from 0 to 100 for ${subject}.`,
  clearedScoreDeletes: (subjects: string) =>
    `You cleared the score of ${subjects}. Saving deletes ${subjects.includes(',') ? 'these results' : 'this result'}. Continue?`,
  draftRestored: 'Your unsaved scores were restored.',
  noResultsToPublish: 'No results entered for this class and term yet.',
} as const;

export const REGRADE_CONFIRM_CODE = 'regrade_confirmation_required';

/** Averages are shown with two decimals everywhere: 65.1 reads "65.10" on every screen. */
export function formatAverage(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(2);
}

export const NOT_RELEASED_CODE = 'results_not_released';

/** More messages of the results screens (publishing, grading scales, history, sessions, broadsheet, corrections). */
export const RESULT_ADMIN_MESSAGES = {
  /** A broadsheet cell of a subject the student does not take (distinct from a missing score). */
  notTaken: 'n/a',
  notTakenTitle: 'Does not take this subject',
  publicationFailed: 'Failed to change publication.',
  publicationsFailed: 'Failed to load publications.',
  publishExplain: "Students see a class's results for a term only after it is published.",
  scalesFailed: 'Failed to load grading scales.',
  scaleSaveFailed: 'Failed to save the grading scale.',
  gradeRequired: 'Grade is required',
  remarkRequired: 'Remark is required',
  bandStartRange: 'A band must start between 0 and 100.',
  historyFailed: 'Failed to load the history.',
  noHistory: 'No changes recorded.',
  sessionSaveFailed: 'Failed to save the session.',
  noSessions: 'No sessions yet.',
  noChangesToSave: 'No changes to save.',
  csvFailed: 'Failed to download the CSV.',
} as const;
