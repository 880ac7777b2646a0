import { z } from 'zod';
import { emailSchema, newPasswordSchema, personalPasswordProblem } from './auth';
import { GENDER_VALUES, MARITAL_STATUS_VALUES, TERM_VALUES } from './constants';
import { isClassName } from './teaching';
import { MAX_PAGE_SIZE } from './http';
import { admissionNumberWith } from './ids';
import { PEOPLE_MESSAGES as M, dateDoesNotExist, peopleTooLong } from './people-constants';
import { requiredText, textField, type TextOptions } from './text';
import { todayIn } from './calendar';

export * from './people-constants';

/**
 * Schemas of the student and staff records, shared by the server (request bodies,
 * CSV rows) and the forms. Unknown keys (role, admission_number, staff_id, user_type...) are
 * stripped: a request can never set fields it does not own.
 */

const text = (max: number, label: string, opts: TextOptions = {}) => textField(label, opts).trim().max(max, peopleTooLong(max));
const required = (message: string, label: string, max = 100, multiline = false) =>
  requiredText(label, message, { multiline }).max(max, peopleTooLong(max));
/** Optional free text: absent, null or a string ('' clears it). */
const optionalText = (label: string, max = 100, opts: TextOptions = {}) =>
  z.preprocess((v) => (v === null ? '' : v), text(max, label, opts)).optional();

/** Phone numbers: spaces, hyphens, dots and brackets are dropped, then 10 to 15 digits with an optional leading +. */
export function normalizePhone(v: string): string {
  return v.trim().replace(/[\s\-().]/g, '');
}
export const PERSON_PHONE_PATTERN = /^\+?\d{10,15}$/;
const phone = (isRequired: boolean) =>
  z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .string({ error: isRequired ? M.phoneRequired : M.invalidPhone })
      .transform(normalizePhone)
      .superRefine((v, ctx) => {
        if (!v) {
          if (isRequired) ctx.addIssue({ code: 'custom', message: M.phoneRequired });
          return;
        }
        if (!PERSON_PHONE_PATTERN.test(v)) ctx.addIssue({ code: 'custom', message: M.invalidPhone });
      }),
  );

/** Why a typed date was refused: not in a date format at all, or a date the calendar does not have. */
export type PersonDateProblem = 'format' | 'no-such-date';

/** Parses YYYY-MM-DD (also DD/MM/YYYY, as spreadsheets write it); never a time. */
export function checkPersonDate(v: string): { date: string } | { problem: PersonDateProblem } {
  let s = v.trim();
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (dmy) s = `${dmy[3]}-${dmy[2]!.padStart(2, '0')}-${dmy[1]!.padStart(2, '0')}`;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return { problem: 'format' };
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900) return { problem: 'format' };
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return { problem: 'no-such-date' };
  return { date: s };
}

/** A calendar date as YYYY-MM-DD (also DD/MM/YYYY, as spreadsheets write it); never a time. */
export function parsePersonDate(v: string): string | null {
  const r = checkPersonDate(v);
  return 'date' in r ? r.date : null;
}
/**
 * "Not in the future" knows no time zone here: the schema refuses only a day after today
 * everywhere on earth (UTC+14), and the server holds each date to the school's own today with
 * `personDatesAfter` (its zone is a setting; the UTC date was a day off on either side).
 */
const latestToday = () => todayIn('Pacific/Kiritimati');
const date = (requiredMessage: string | null, futureMessage: string) =>
  z.preprocess(
    (v) => (v === null ? '' : v),
    z
      .string({ error: requiredMessage ?? M.invalidDate })
      .trim()
      .transform((v, ctx) => {
        if (!v) {
          if (requiredMessage) ctx.addIssue({ code: 'custom', message: requiredMessage });
          return null;
        }
        const checked = checkPersonDate(v);
        if (!('date' in checked)) {
          // A well-formed date the calendar lacks (31/02/2010) is named as such.
          ctx.addIssue({ code: 'custom', message: checked.problem === 'no-such-date' ? dateDoesNotExist(v) : M.invalidDate });
          return null;
        }
        const parsed = checked.date;
        if (parsed > latestToday()) ctx.addIssue({ code: 'custom', message: futureMessage });
        return parsed;
      }),
  );

/** 'jss1a', 'JSS 1A', ' jss 1 a ' -> 'JSS 1A'; 'sss 2  Gold' -> 'SSS 2 Gold' (a longer arm keeps its case). */
export function normalizeClass(v: string): string {
  const s = v.trim().replace(/\s+/g, ' ');
  const m = /^(JSS|SSS) ?(\d) ?(.+)$/i.exec(s);
  if (!m) return s.toUpperCase();
  const level = `${m[1]!.toUpperCase()} ${m[2]}`;
  return m[3]!.length === 1 ? `${level}${m[3]!.toUpperCase()}` : `${level} ${m[3]}`;
}
const schoolClass = z
  .string({ error: M.classRequired })
  .transform(normalizeClass)
  .pipe(z.string().min(1, M.classRequired).refine(isClassName, M.invalidClass));

const GENDER_WORDS: Record<string, string> = { MALE: 'M', FEMALE: 'F', OTHER: 'O' };
const MARITAL_WORDS: Record<string, string> = { SINGLE: 'S', MARRIED: 'M', DIVORCED: 'D', WIDOWED: 'W' };
const code = <T extends readonly [string, ...string[]]>(values: T, words: Record<string, string>, message: string) =>
  z
    .preprocess(
      (v) => {
        if (v === null || v === undefined) return '';
        if (typeof v !== 'string') return v;
        const s = v.trim().toUpperCase();
        return words[s] ?? s;
      },
      z.union([z.literal(''), z.enum(values)], { error: message }),
    )
    .transform((v) => (v === '' ? null : v));
export const genderSchema = code(GENDER_VALUES, GENDER_WORDS, M.invalidGender);
export const maritalStatusSchema = code(MARITAL_STATUS_VALUES, MARITAL_WORDS, M.invalidMaritalStatus);

/** A password chosen at registration or update: blank means "none" (the server keeps or generates one). */
const optionalPassword = z.preprocess((v) => (v === '' || v === null ? undefined : v), newPasswordSchema.optional());
const confirmPassword = z.string().max(1024).optional();

function passwordsMatch(v: { password?: string; confirm_password?: string; email?: string | null }, ctx: z.RefinementCtx) {
  if (v.password !== undefined && v.confirm_password !== undefined && v.confirm_password !== v.password) {
    ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: M.passwordsDoNotMatch });
  }
  // The account's own email is no password (ASVS 6.2.11); the server also checks the school's name.
  const personal = v.password === undefined ? null : personalPasswordProblem(v.password, { email: v.email });
  if (personal) ctx.addIssue({ code: 'custom', path: ['password'], message: personal });
}

/**
 * A student's email: optional. Pupils are often registered without one: their parents'
 * phones are the contacts and they sign in with their admission number. Blank or null is "none"
 * (null); a given one must be a valid email.
 */
const studentEmail = z.preprocess((v) => (v === null || (typeof v === 'string' && v.trim() === '') ? null : v), emailSchema.nullable());

const studentFields = {
  first_name: required(M.firstNameRequired, 'First name'),
  last_name: required(M.lastNameRequired, 'Last name'),
  /** Absent, blank or null: none. */
  email: studentEmail.optional().transform((v) => v ?? null),
  /** Optional for a student, like the email ('' when none). */
  phone_number: phone(false)
    .optional()
    .transform((v) => v ?? ''),
  gender: genderSchema.optional(),
  date_of_birth: date(M.dateOfBirthRequired, M.dateInFuture),
  student_class: schoolClass,
  fathers_name: required(M.fathersNameRequired, "Father's name"),
  fathers_phone: phone(false).optional(),
  mothers_name: optionalText("Mother's name"),
  mothers_phone: phone(false).optional(),
  home_address: required(M.homeAddressRequired, 'Home address', 300, true),
  password: optionalPassword,
  confirm_password: confirmPassword,
};

/** POST /api/students/ ("Student registration"). */
export const studentCreateSchema = z.object(studentFields).superRefine(passwordsMatch);
export type StudentCreateInput = z.input<typeof studentCreateSchema>;
export type StudentCreate = z.output<typeof studentCreateSchema>;

/**
 * PUT /api/students/{admission_number}/ ("Update student"): names required, the rest kept when
 * absent; a blank or null email or phone clears it (both optional for students).
 */
export const studentUpdateSchema = z
  .object({
    ...studentFields,
    email: studentEmail.optional(),
    phone_number: phone(false).optional(),
    date_of_birth: studentFields.date_of_birth.optional(),
    student_class: studentFields.student_class.optional(),
    fathers_name: studentFields.fathers_name.optional(),
    home_address: studentFields.home_address.optional(),
  })
  .superRefine(passwordsMatch);
export type StudentUpdate = z.output<typeof studentUpdateSchema>;

/** Admission number typed in a search or update form: required, forced upper case, any number the school issued (STU-0001, RMC/2026/0012). */
export const admissionNumberSchema = admissionNumberWith({ required: M.admissionNumberRequired, invalid: M.invalidAdmissionNumber });
export const staffIdSchema = z
  .string({ error: M.staffIdRequired })
  .trim()
  .toUpperCase()
  .min(1, M.staffIdRequired)
  .regex(/^STAFF-\d{4,}$/, M.invalidStaffId);

export const staffProfileSchema = z.object({
  qualifications: optionalText('Qualifications', 500, { multiline: true }),
  employment_date: date(null, M.employmentDateInFuture).optional(),
  bank_account: optionalText('Bank account', 50),
  tax_id: optionalText('Tax ID', 50),
});

const username = z
  .string({ error: M.usernameRequired })
  .trim()
  .min(1, M.usernameRequired)
  .max(50, peopleTooLong(50))
  .regex(/^[A-Za-z0-9._-]+$/, M.invalidUsername);

const staffFields = {
  username,
  first_name: required(M.firstNameRequired, 'First name'),
  last_name: required(M.lastNameRequired, 'Last name'),
  email: emailSchema,
  phone_number: phone(true),
  gender: genderSchema.optional(),
  designation: required(M.designationRequired, 'Designation'),
  department: required(M.departmentRequired, 'Department'),
  marital_status: maritalStatusSchema.optional(),
  password: optionalPassword,
  confirm_password: confirmPassword,
  profile_data: staffProfileSchema.optional(),
};

/** POST /api/staff/ and /api/api/staff/ ("Staff registration"). */
export const staffCreateSchema = z.object(staffFields).superRefine(passwordsMatch);
export type StaffCreateInput = z.input<typeof staffCreateSchema>;
export type StaffCreate = z.output<typeof staffCreateSchema>;

/** PUT /api/staff/{staff_id}/: every field optional; a field that is sent must be valid ("Staff edit"). */
export const staffUpdateSchema = z
  .object({
    username: username.optional(),
    first_name: staffFields.first_name.optional(),
    last_name: staffFields.last_name.optional(),
    email: emailSchema.optional(),
    phone_number: staffFields.phone_number.optional(),
    gender: staffFields.gender,
    designation: staffFields.designation.optional(),
    department: staffFields.department.optional(),
    marital_status: staffFields.marital_status,
    password: optionalPassword,
    confirm_password: confirmPassword,
    profile_data: staffProfileSchema.partial().optional(),
  })
  .superRefine(passwordsMatch);
export type StaffUpdate = z.output<typeof staffUpdateSchema>;

/** GET /api/students/list/ (and /search/, /export/): spec filters plus paging and a name search. */
export const studentListQuerySchema = z.object({
  session_id: z.coerce.number().int().positive().optional(),
  term: z.enum(TERM_VALUES).optional(),
  student_class: textField('Class')
    .trim()
    .optional()
    .transform((v) => (v && v !== 'All' ? normalizeClass(v) : undefined))
    .refine((v) => v === undefined || isClassName(v), M.invalidClass),
  q: textField('Search').trim().max(100).optional(),
  /** Withdrawn and graduated (alumni) students are left out unless asked for. */
  status: z.enum(['active', 'withdrawn', 'graduated', 'all']).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});
export type StudentListQuery = z.output<typeof studentListQuerySchema>;

export const staffListQuerySchema = z.object({
  q: textField('Search').trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** GET /api/people/new-accounts/?date=YYYY-MM-DD (the school's today when absent). */
export const newAccountsQuerySchema = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, M.invalidDate)
    .refine((v) => parsePersonDate(v) !== null, M.invalidDate)
    .optional(),
});

/** POST /api/{students,staff}/import/ and /preview/: the CSV file's text. */
export const importRequestSchema = z.object({ csv: z.string().max(10 * 1024 * 1024) });

/** Field errors of a failed parse, keyed by field (nested paths joined with dots, like the server). */
export function peopleFieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'non_field_errors';
    const list = (out[key] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return out;
}

/**
 * The person dates after the school's `today` (YYYY-MM-DD in its time zone), as issues at the
 * request's paths: a date of birth, a staff member's employment date. Empty when none is.
 */
export function personDatesAfter(
  today: string,
  v: { date_of_birth?: string | null; profile_data?: { employment_date?: string | null } | null },
): { path: string[]; message: string }[] {
  const out: { path: string[]; message: string }[] = [];
  if (v.date_of_birth && v.date_of_birth > today) out.push({ path: ['date_of_birth'], message: M.dateInFuture });
  const employed = v.profile_data?.employment_date;
  if (employed && employed > today) out.push({ path: ['profile_data', 'employment_date'], message: M.employmentDateInFuture });
  return out;
}
