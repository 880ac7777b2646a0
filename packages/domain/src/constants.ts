/** Business constants, shared by server, client and tests. */
import { optionsOf, valuesOf } from './choices';

/**
 * The classes and subjects a new school starts with (migration 0014 writes the same lists into
 * `class_arms` and `subjects`); after that the school's own lists come from the API.
 */
export const CLASSES: readonly string[] = ['JSS 1', 'JSS 2', 'JSS 3', 'SSS 1', 'SSS 2', 'SSS 3'].flatMap((level) => [
  `${level}A`,
  `${level}B`,
]);
export type SchoolClass = string;

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

export const TERM_LABELS = { '1st': 'First Term', '2nd': 'Second Term', '3rd': 'Third Term' };
export type Term = keyof typeof TERM_LABELS;
export const TERM_VALUES = valuesOf(TERM_LABELS);
export const TERMS = optionsOf(TERM_LABELS);
export function termLabel(term: string): string {
  return TERMS.find((t) => t.value === term)?.label ?? term;
}
/** A line naming its term, as every statement, receipt and list writes it: "R-000003 (First Term)"; the text alone without a term. */
export function withTerm(text: string, term: string | null | undefined): string {
  return term ? `${text} (${termLabel(term)})` : text;
}

export const GENDER_LABELS = { M: 'Male', F: 'Female', O: 'Other' };
export type Gender = keyof typeof GENDER_LABELS;
export const GENDER_VALUES = valuesOf(GENDER_LABELS);
export const GENDERS = optionsOf(GENDER_LABELS);

export const MARITAL_STATUS_LABELS = { S: 'Single', M: 'Married', D: 'Divorced', W: 'Widowed' };
export type MaritalStatus = keyof typeof MARITAL_STATUS_LABELS;
export const MARITAL_STATUS_VALUES = valuesOf(MARITAL_STATUS_LABELS);
export const MARITAL_STATUSES = optionsOf(MARITAL_STATUS_LABELS);

export const ROLES = ['admin', 'staff', 'student', 'parent'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who may do what, named once for the server's routes (`config.auth`) and the web's guards.
 * `ANY_ROLE` is the school's own accounts (admin, staff, students); a student's own-record rule is
 * checked on top of it. It does NOT admit parents: a route a parent may use lists `'parent'`
 * explicitly (issue 33, decision 035), so no existing route opens to parents by accident.
 */
export const ANY_ROLE: readonly Role[] = ['admin', 'staff', 'student'];
/** Every account that can sign in, parents included: /api/me/, logout, password change, refresh, notices. */
export const EVERY_ACCOUNT: readonly Role[] = ROLES;
/** A student's own screens, which a parent also opens for a child by naming the child's admission number. */
export const STUDENT_OR_PARENT: readonly Role[] = ['student', 'parent'];
export const PARENT_ONLY: readonly Role[] = ['parent'];
export const STAFF_OR_ADMIN: readonly Role[] = ['admin', 'staff'];
export const ADMIN_ONLY: readonly Role[] = ['admin'];
export const STUDENT_ONLY: readonly Role[] = ['student'];

/** user_type codes sent by the registration forms. */
export const USER_TYPE = { admin: 1, staff: 2, student: 3 } as const;

export const SCORE_MIN = 0;
export const SCORE_MAX = 100;

/**
 * Any admission number the school may have issued: letters, digits, hyphens and slashes (a school's
 * own format such as RMC/2026/0012; STU-0001 by default).
 */
export const ADMISSION_NUMBER_PATTERN = /^[A-Z0-9][A-Z0-9/-]*$/i;
export const ADMISSION_NUMBER_MAX = 30;
/** The default format of new admission numbers: STU-0001. */
export const DEFAULT_ADMISSION_NUMBER_FORMAT = 'STU-{NNNN}';

/**
 * Why an admission number format cannot be used, or null. A format is fixed text (letters, digits,
 * '-' and '/') with exactly one counter {N}…{NNNNNNNN} (zero-padded to that many digits) and at most
 * one year, {YYYY} or {YY} (the year of registration).
 */
export function admissionFormatProblem(format: string): string | null {
  const counters = format.match(/\{N+\}/g) ?? [];
  if (counters.length !== 1 || counters[0].length > 10) return 'The format needs one counter, {N} to {NNNNNNNN}, e.g. RMC/{YYYY}/{NNNN}';
  if ((format.match(/\{YYYY\}|\{YY\}/g) ?? []).length > 1) return 'The format may hold the year only once';
  const fixed = format.replace(/\{N+\}|\{YYYY\}|\{YY\}/g, '0');
  if (/[{}]/.test(fixed)) return 'Use only {YYYY}, {YY} and {NNNN} between braces';
  if (!ADMISSION_NUMBER_PATTERN.test(fixed))
    return 'Use only letters, digits, hyphens (-) and slashes (/), starting with a letter or digit';
  if (formatAdmissionNumberAs(format, 1, 2026).length > ADMISSION_NUMBER_MAX - 4) return 'The format is too long';
  return null;
}

/** The n-th admission number in a school's format, e.g. ('RMC/{YYYY}/{NNNN}', 12, 2026) -> RMC/2026/0012. */
export function formatAdmissionNumberAs(format: string, n: number, year: number): string {
  return format
    .toUpperCase()
    .replace(/\{YYYY\}/g, String(year))
    .replace(/\{YY\}/g, String(year % 100).padStart(2, '0'))
    .replace(/\{(N+)\}/g, (_m, ns: string) => String(n).padStart(ns.length, '0'));
}

export function formatAdmissionNumber(n: number): string {
  return `STU-${String(n).padStart(4, '0')}`;
}
export function formatStaffId(n: number): string {
  return `STAFF-${String(n).padStart(4, '0')}`;
}

/** Timings, in milliseconds. */
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
