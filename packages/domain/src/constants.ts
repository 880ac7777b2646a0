/** Business constants of spec §9, shared by server, client and tests. */

export const CLASSES = [
  'JSS 1A',
  'JSS 1B',
  'JSS 2A',
  'JSS 2B',
  'JSS 3A',
  'JSS 3B',
  'SSS 1A',
  'SSS 1B',
  'SSS 2A',
  'SSS 2B',
  'SSS 3A',
  'SSS 3B',
] as const;
export type SchoolClass = (typeof CLASSES)[number];

/**
 * The results page's class filter: All and every class of the school (the spec's §2/§9 list of
 * All, JSS 1A, JSS 2A left most classes unreachable; docs/spec-deviations.md).
 */
export const RESULTS_CLASS_FILTER = ['All', ...CLASSES] as const;

export type Level = 'JSS' | 'SSS';
export function levelOfClass(schoolClass: string): Level {
  return schoolClass.startsWith('SSS') ? 'SSS' : 'JSS';
}

export const SUBJECTS = [
  'Mathematics',
  'English Language',
  'Basic Science',
  'Basic Technology',
  'Social Studies',
  'Home Economics',
  'Computer Studies',
  'Physical and Health Education',
  'Civic Education',
  'Cultural and Creative Arts',
  'Business Studies',
  'French',
  'Christian Religious Studies',
  'Agricultural Science',
] as const;
export type Subject = (typeof SUBJECTS)[number];

export const TERMS = [
  { value: '1st', label: 'First Term' },
  { value: '2nd', label: 'Second Term' },
  { value: '3rd', label: 'Third Term' },
] as const;
export const TERM_VALUES = ['1st', '2nd', '3rd'] as const;
export type Term = (typeof TERM_VALUES)[number];
export function termLabel(term: string): string {
  return TERMS.find((t) => t.value === term)?.label ?? term;
}

export const GENDERS = [
  { value: 'M', label: 'Male' },
  { value: 'F', label: 'Female' },
  { value: 'O', label: 'Other' },
] as const;
export const GENDER_VALUES = ['M', 'F', 'O'] as const;
export type Gender = (typeof GENDER_VALUES)[number];

export const MARITAL_STATUSES = [
  { value: 'S', label: 'Single' },
  { value: 'M', label: 'Married' },
  { value: 'D', label: 'Divorced' },
  { value: 'W', label: 'Widowed' },
] as const;
export const MARITAL_STATUS_VALUES = ['S', 'M', 'D', 'W'] as const;
export type MaritalStatus = (typeof MARITAL_STATUS_VALUES)[number];

export const ROLES = ['admin', 'staff', 'student'] as const;
export type Role = (typeof ROLES)[number];

/** user_type codes sent by the registration forms (spec §6). */
export const USER_TYPE = { admin: 1, staff: 2, student: 3 } as const;

export const SCORE_MIN = 0;
export const SCORE_MAX = 100;

export const ADMISSION_NUMBER_PATTERN = /^STU-\d{4,}$/;
export const STAFF_ID_PATTERN = /^STAFF-\d{4,}$/;

export function formatAdmissionNumber(n: number): string {
  return `STU-${String(n).padStart(4, '0')}`;
}
export function formatStaffId(n: number): string {
  return `STAFF-${String(n).padStart(4, '0')}`;
}

/** Timings of spec §4 and §9, in milliseconds. */
export const TIMINGS = {
  resultLookupDebounce: 500,
  paymentDraftSave: 500,
  paymentLookupDebounce: 1500,
  redirectToProvider: 1000,
  registrationRedirect: 3000,
  toastAutoClose: 5000,
  verifyPendingRetries: 3,
  verifyPendingDelayPerAttempt: 2000,
  verifyRequestErrorRetries: 2,
  defaultTimeout: 10_000,
  initiateTimeout: 12_000,
  paymentClientTimeout: 15_000,
} as const;
