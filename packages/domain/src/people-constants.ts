// One file (about 410 lines): a data table, the people feature's messages, labels and field lists.
/** Zod-free messages and constants of the people feature, importable without zod. */
import { GENDER_LABELS, MARITAL_STATUS_LABELS } from './constants';

export const PEOPLE_MESSAGES = {
  // Field rules
  emailRequired: 'Email is required',
  invalidEmail: 'Invalid email format',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  phoneRequired: 'Phone number is required',
  invalidPhone: 'Invalid phone number format',
  dateOfBirthRequired: 'Date of birth is required',
  classRequired: 'Class is required',
  fathersNameRequired: "Father's name is required",
  homeAddressRequired: 'Home address is required',
  usernameRequired: 'Username is required',
  designationRequired: 'Designation is required',
  departmentRequired: 'Department is required',
  passwordsDoNotMatch: 'Passwords do not match',
  admissionNumberRequired: 'Admission number is required',
  staffIdRequired: 'Staff ID is required',
  // Rules added beyond the spec (codes, dates, lengths, uniqueness)
  invalidAdmissionNumber: 'Admission number may hold only letters, digits, hyphens and slashes (e.g. STU-0001)',
  invalidStaffId: 'Staff ID must look like STAFF-0001',
  invalidClass: 'Select a valid class',
  invalidGender: 'Gender must be M (Male), F (Female) or O (Other)',
  invalidMaritalStatus: 'Marital status must be S (Single), M (Married), D (Divorced) or W (Widowed)',
  invalidDate: 'Enter a valid date (YYYY-MM-DD or DD/MM/YYYY)',
  dateInFuture: 'Date of birth cannot be in the future',
  employmentDateInFuture: 'Employment date cannot be in the future',
  invalidUsername: 'Username may contain only letters, digits, dots, hyphens and underscores',
  emailTaken: 'A user with this email already exists.',
  usernameTaken: 'A staff member with this username already exists.',

  // Search and delete screens
  enterStaffIdToDelete: 'Please enter a Staff ID',
  enterStudentIdToDelete: 'Please enter a Student ID',
  searchFirst: 'Please search for a student first',
  enterAdmissionNumber: 'Please enter admission number',
  enterStaffId: 'Please enter staff ID',

  // Error catalogue
  studentCreateFailed: 'Failed to create student',
  unauthorized: 'Unauthorized access. Please login again.',
  fetchStudentFailed: 'Failed to fetch student data. Please try again.',
  networkError: 'Network error. Please check your connection.',
  updateStudentFailed: 'Failed to update student. Please try again.',
  updateStaffFailed: 'Failed to update staff. Please check the details and try again.',
  deleteStaffFailed: 'Failed to delete staff member. Please check the ID and try again.',
  deleteStudentSearchFailed: 'Student not found. Please check the ID and try again.',
  deleteStudentFailed: 'Failed to delete student. Please check the ID and try again.',
  deleteStudentFailedToast: 'Failed to delete student',
  studentDeletedToast: 'Student deleted successfully',
  findStudentNotFound: 'Student not found with this admission number',
  noResponse: 'No response from server',
  findStudentFailed: 'Failed to fetch student details',
  findStudentSuccess: 'Student details retrieved successfully',
  findStaffNotFound: 'Staff not found with this ID',
  findStaffFailed: 'Failed to fetch staff details',
  findStaffSuccess: 'Staff details retrieved successfully',
  staffListFailed: 'Failed to load staff list',
  staffListLoaded: 'Staff list loaded successfully',
  studentsFetchFailed: 'Failed to fetch students',
  studentNotFound: 'Student not found',
  staffNotFound: 'Staff member not found',
  staffDetailsFailed: 'Failed to load staff details',
  staffEditLoadFailed: 'Failed to load staff data',
  staffEditFailed: 'Failed to update staff',
  staffEditSuccess: 'Staff updated successfully',
  staffCreateFailed: 'Failed to create staff',
  legacyDeleteFailed: 'Could not delete successfully, check your credentials and network connections.',
  noStudents: 'No students found',
  noStaff: 'No staff members found',
  deletedSuccessfully: 'Deleted Successfully',
  notSpecified: 'Not specified',

  // Delete confirmation
  deletePermanent: 'Deleting this student is permanent and cannot be undone.',
  deleteAlsoRemoves: 'Warning: all results of this student will also be deleted. Their fee payments are kept in the school accounts.',

  // Withdrawal (beyond the spec)
  studentWithdrawn: 'This student has been withdrawn: the record is kept read-only. Readmit the student to change it.',
  studentAlreadyWithdrawn: 'This student is already withdrawn.',
  studentNotWithdrawn: 'This student is not withdrawn.',
  graduatedCannotSignIn:
    'This student has graduated from the school (alumni), so this account can no longer sign in. Please contact the school office for a transcript.',
  studentGraduated: 'This student has graduated: the record is kept read-only.',
  withdrawnCannotSignIn:
    'This student has been withdrawn from the school, so this account can no longer sign in. Please contact the school office.',
  withdrawExplained:
    "Withdraw (recommended when a student leaves): the record, results and payments are kept and stay in past terms' reports; the record becomes read-only, the student can no longer sign in and is left out of class lists. The student can be readmitted later.",
  deleteExplained:
    'Delete (only for a record created by mistake): the student, their account and every result are removed for good, and their payments are no longer linked to them.',

  // One-time passwords, resets and imports (beyond the spec: no shared default password)
  oneTimePasswordNote: 'Give this one-time password to the account holder. It is shown only once; they must change it at first sign-in.',
  passwordReset: 'Password reset. The account must set a new password at next sign-in.',
  importHasErrors: 'The file has errors. Nothing was imported; fix the rows listed and try again.',
  importEmpty: 'The file has no data rows.',
  importTooManyRows: 'A file may hold at most 10,000 rows.',
  importMissingColumn: 'Missing column',
  importUnreadable: 'The file could not be read as CSV.',
  importTooLarge: 'A file may be at most 10 MB.',
  importRowTooLong: 'A row of the file is too long: at most 100 columns and 64 KB per row.',
  duplicateInFile: 'Duplicate email in this file',
  duplicateInDatabase: 'A user with this email already exists.',
  duplicateUsernameInFile: 'Duplicate username in this file',
} as const;

/** DRF's wording for an over-long value. */
export const peopleTooLong = (max: number) => `Ensure this field has no more than ${max} characters.`;

export const studentRegistered = (name: string, admissionNumber: string) =>
  `Student ${name} registered successfully with admission number: ${admissionNumber}.`;
export const studentNotFoundNumber = (n: string) => `Student with admission number ${n} not found.`;
export const studentUpdated = (name: string, admissionNumber: string) => `Student ${name} (${admissionNumber}) updated successfully`;
export const staffUpdated = (name: string, staffId: string) => `Staff ${name} (${staffId}) updated successfully`;
export const staffDeleted = (staffId: string) => `Successfully deleted staff with ID: ${staffId}`;
export const studentDeleted = (id: string) => `Student with ID ${id} was successfully deleted`;
export const staffCreated = (name: string, staffId: string) => `Staff ${name} created successfully! Staff ID: ${staffId}`;
/** A well-formed date that is not on the calendar (31/02/2010), in the form it was typed. */
export const dateDoesNotExist = (typed: string) => `${typed} is not a date that exists: check the day and the month`;
/** The import button: "Import 1 student", "Import 3 students", "Import 2 staff". */
export const importButtonLabel = (n: number, what: 'students' | 'staff') =>
  `Import ${n.toLocaleString('en-NG')} ${what === 'students' ? (n === 1 ? 'student' : 'students') : 'staff'}`;
export const studentWithdrawnDone = (name: string, n: string) => `${name} (${n}) has been withdrawn. The record is kept.`;
export const studentReadmitted = (name: string, n: string) => `${name} (${n}) has been readmitted and can sign in again.`;
export const importDone = (n: number, what: 'students' | 'staff') =>
  `${n.toLocaleString('en-NG')} ${what === 'students' ? (n === 1 ? 'student' : 'students') : 'staff'} imported.`;

/** Under a student's email field: why it may stay blank. */
export const STUDENT_CONTACT_HINT = 'Optional: students sign in with their admission number';

/** Columns of the import templates, in order. */
export const STUDENT_CSV_COLUMNS = [
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'gender',
  'date_of_birth',
  'student_class',
  'fathers_name',
  'fathers_phone',
  'mothers_name',
  'mothers_phone',
  'home_address',
] as const;
export const STAFF_CSV_COLUMNS = [
  'username',
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'gender',
  'designation',
  'department',
  'marital_status',
  'qualifications',
  'employment_date',
  'bank_account',
  'tax_id',
] as const;
/** Email and phone are optional for students (their parents' phones are the contacts). */
export const STUDENT_CSV_REQUIRED = ['first_name', 'last_name', 'date_of_birth', 'student_class', 'fathers_name', 'home_address'] as const;
export const STAFF_CSV_REQUIRED = ['username', 'first_name', 'last_name', 'email', 'phone_number', 'designation', 'department'] as const;

export const IMPORT_MAX_ROWS = 10_000;
/** Largest CSV file an import accepts (UTF-8 bytes); the screen checks it too. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** Students per page on the paged lists. */
export const STUDENT_PAGE_SIZE = 100;

/** Where each role signs in (printed on the sign-in slips). */
export const SIGN_IN_PATH = { student: '/StudentLogin', staff: '/StaffLogin' } as const;

/** Display labels of the student and staff fields (forms, details, CSV preview). */
export const FIELD_LABELS: Record<string, string> = {
  admission_number: 'Admission number',
  staff_id: 'Staff ID',
  username: 'Username',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone_number: 'Phone number',
  gender: 'Gender',
  date_of_birth: 'Date of birth',
  student_class: 'Class',
  fathers_name: "Father's name",
  fathers_phone: "Father's phone",
  mothers_name: "Mother's name",
  mothers_phone: "Mother's phone",
  home_address: 'Home address',
  designation: 'Designation',
  department: 'Department',
  marital_status: 'Marital status',
  qualifications: 'Qualifications',
  employment_date: 'Employment date',
  bank_account: 'Bank account',
  tax_id: 'Tax ID',
  password: 'Password',
  confirm_password: 'Confirm password',
};

/** Response shapes (snake_case). */
export const STUDENT_STATUSES = ['active', 'withdrawn', 'graduated'] as const;
export type StudentStatus = (typeof STUDENT_STATUSES)[number];

/** GET /api/students/{n}/history/: what a delete would remove; with any, withdrawing is offered first. */
export interface StudentHistory {
  results: number;
  payments: number;
}

export interface StudentRecord {
  /** Internal key: the legacy `_id` routes use it. */
  id: number;
  admission_number: string;
  first_name: string;
  last_name: string;
  /** Null when the student was registered without one (they sign in with their admission number). */
  email: string | null;
  phone_number: string;
  gender: 'M' | 'F' | 'O' | null;
  date_of_birth: string | null;
  student_class: string;
  /** Same as student_class ("class_name (read on detail)"). */
  class_name: string;
  fathers_name: string;
  fathers_phone: string;
  mothers_name: string;
  mothers_phone: string;
  home_address: string;
  /**
   * 'withdrawn': left the school; 'graduated': alumni (finished SSS 3). Either way the record is kept
   * read-only and the account cannot sign in.
   */
  status: StudentStatus;
  withdrawn_at: string | null;
  /** When the student graduated: only on a graduate's (alumni) record. */
  graduated_at?: string;
  /** The report card photo (a data URL, '' when none), on the record's detail when the server sends it. */
  photo?: string;
  user_type: 3;
  /** The account fields, also nested ("a response may nest user fields under user"). */
  user: { email: string | null; first_name: string; last_name: string; user_type: 3 };
}

export interface StaffProfileData {
  qualifications: string | null;
  employment_date: string | null;
  /** Only for an admin or the staff member themself; null otherwise. */
  bank_account: string | null;
  tax_id: string | null;
}

export interface StaffRecord {
  id: number;
  staff_id: string;
  username: string | null;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  gender: 'M' | 'F' | 'O' | null;
  designation: string;
  department: string;
  marital_status: 'S' | 'M' | 'D' | 'W' | null;
  user_type: 2;
  user: { email: string; first_name: string; last_name: string; user_type: 2 };
}

/** GET /api/staff/{staff_id}/: the record flat, plus the same record under `data` (find-staff reads it there). */
export interface StaffDetail extends StaffRecord {
  profile_data: StaffProfileData;
  data: StaffRecord & { profile_data: StaffProfileData };
}

/** What registration adds: the one-time password (only when the server generated it). */
export interface RegistrationExtras {
  must_change_password: true;
  /** Present, once, when no password was sent: the account holder signs in with it and must change it. */
  one_time_password?: string;
}
export type StudentRegistration = StudentRecord & RegistrationExtras;
export type StaffRegistration = StaffDetail & RegistrationExtras;

export interface PasswordResetResponse {
  detail: string;
  one_time_password: string;
}

export interface StudentPage {
  count: number;
  results: StudentRecord[];
}

/** One problem of a CSV row: the spreadsheet row number (the header is row 1) and the column. */
export interface ImportIssue {
  row: number;
  field: string;
  message: string;
}

export interface ImportPreview {
  rows: number;
  valid: number;
  errors: ImportIssue[];
  duplicates: ImportIssue[];
  /** The first rows that will be stored (rows with errors or duplicates left out), with their file row as `row`. */
  sample: Record<string, string>[];
}

/** GET /api/people/new-accounts/: accounts created on one day (no passwords: those stay on the device that registered them). */
export interface NewAccount {
  kind: 'student' | 'staff';
  public_id: string;
  first_name: string;
  last_name: string;
  /** Null for a student without one. */
  email: string | null;
  /** Class for students, designation for staff. */
  group: string;
  created_at: string;
  /** False once the account has chosen its own password (the slip is no longer needed). */
  must_change_password: boolean;
}
export interface NewAccountsDay {
  date: string;
  accounts: NewAccount[];
}

/** One account of an import, with its one-time password (shown once: print the slips). */
export interface ImportedAccount {
  public_id: string;
  first_name: string;
  last_name: string;
  /** Null for a student without one. */
  email: string | null;
  /** Class for students, designation for staff. */
  group: string;
  one_time_password: string;
}

export interface ImportResult {
  created: number;
  accounts: ImportedAccount[];
}

/** Legacy shapes (the `_id` routes), plus the public id so the screens can link on. */
export interface LegacyStudent {
  _id: number;
  firstName: string;
  lastName: string;
  /** Null for a student without one. */
  email: string | null;
  UserName: string;
  arm: string;
  gender: string | null;
  dateOfBirth: string | null;
  fathersName: string;
  fathersPhoneNumber: string;
  mothersName: string;
  mothersPhoneNumber: string;
  homeAddress: string;
  admissionNumber: string;
}
export interface LegacyStaff {
  _id: number;
  firstName: string;
  lastName: string;
  gender: string | null;
  email: string;
  userName: string | null;
  maritalStatus: string | null;
  designation: string;
  staffId: string;
}

/** The gender and marital status labels (constants.ts), looked up by any stored code. */
export const GENDER_LABEL: Record<string, string> = GENDER_LABELS;
export const MARITAL_LABEL: Record<string, string> = MARITAL_STATUS_LABELS;

/** Messages of the people screens' shared parts: details, list tools, imports. */
export const PEOPLE_SCREEN_MESSAGES = {
  newAccountsLoadFailed: "Failed to load today's new accounts. Please try again.",
  noNewAccounts: 'No accounts have been registered today.',
  newAccountsSummary: (accounts: number, date: string, slips: number) =>
    `${accounts.toLocaleString('en-NG')} new ${accounts === 1 ? 'account' : 'accounts'} on ${date}; ${slips.toLocaleString('en-NG')} sign-in ${slips === 1 ? 'slip' : 'slips'} ready to print.`,
  oneTimePasswordsKeptHere:
    'One-time passwords are kept only in this browser tab until you sign out, and are never stored on the server. Accounts that have already chosen their own password need no slip.',
  accountsWithoutSlip:
    "These accounts were registered from another device or session, so their one-time password is not here. Reset the password from the person's details to print a slip.",
  resetPasswordFailed: 'Failed to reset the password. Please try again.',
  resetPasswordExplain: 'They will be signed out everywhere and must sign in with a new one-time password, then choose their own.',
  exportFailed: 'Failed to export the list',
  downloadFailed: 'Download failed',
  importFileTooLarge: 'The file must be smaller than 10 MB.',
  importChooseFile: 'Choose a CSV file first.',
  importShowingFirst: 'Showing the first 500.',
  importSlipsTitle: 'Print the sign-in slips now',
  importSlipsExplain: 'The one-time passwords are shown only this once. Each person must choose their own password at first sign-in.',
  importNoProblems: 'No problems found.',
  importFixEverything: 'Nothing is imported until every problem below is fixed: correct the file and check it again.',
} as const;

const cmpText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order of a class register, the score grid and the report card sheets: surname, first name,
 * then admission number (a code-point comparison, so both databases and every client agree).
 */
export function byRegisterOrder(
  a: { last_name: string; first_name: string; admission_number: string },
  b: { last_name: string; first_name: string; admission_number: string },
): number {
  return cmpText(a.last_name, b.last_name) || cmpText(a.first_name, b.first_name) || cmpText(a.admission_number, b.admission_number);
}

/** How a person's name reads everywhere (lists, report cards, the grid, receipts): first name, then surname. */
export function personName(p: { first_name: string; last_name: string }): string {
  return `${p.first_name} ${p.last_name}`;
}
