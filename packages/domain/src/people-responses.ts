import { z } from 'zod';
import { GENDER_VALUES, MARITAL_STATUS_VALUES } from './constants';
import { errorDetailSchema, validationErrorsSchema } from './error-responses';
import {
  STUDENT_STATUSES,
  type ImportPreview,
  type ImportResult,
  type LegacyStaff,
  type LegacyStudent,
  type NewAccountsDay,
  type PasswordResetResponse,
  type StaffDetail,
  type StaffRecord,
  type StaffRegistration,
  type StudentHistory,
  type StudentPage,
  type StudentRecord,
  type StudentRegistration,
} from './people-constants';
import { describes } from './response-check';

// Response schemas of the students and staff routes (people.presenters.ts makes every record).

/** A student's record (the lists' row; one student's detail adds `photo`). */
export const studentRecordSchema = describes<StudentRecord>()(
  z
    .object({
      id: z.number().describe('Internal key: the legacy `_id` routes use it'),
      admission_number: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      email: z.string().nullable(),
      phone_number: z.string(),
      gender: z.enum(GENDER_VALUES).nullable(),
      date_of_birth: z.string().nullable(),
      student_class: z.string(),
      class_name: z.string(),
      fathers_name: z.string(),
      fathers_phone: z.string(),
      mothers_name: z.string(),
      mothers_phone: z.string(),
      home_address: z.string(),
      status: z.enum(STUDENT_STATUSES),
      withdrawn_at: z.string().nullable(),
      graduated_at: z.string().optional().describe("Only on a graduate's (alumni) record"),
      photo: z.string().optional().describe("One student's detail: the report card photo as a data URL, '' when none"),
      user_type: z.literal(3),
      user: z.object({ email: z.string().nullable(), first_name: z.string(), last_name: z.string(), user_type: z.literal(3) }),
    })
    .meta({ id: 'StudentRecord' }),
);

/** GET /api/students/list/: every student the caller reaches (a student: their own record). */
export const studentListSchema = z.array(studentRecordSchema).meta({ id: 'StudentList' });

/** GET /api/students/search/: one page of students with the total count. */
export const studentPageSchema = describes<StudentPage>()(
  z.object({ count: z.number(), results: z.array(studentRecordSchema) }).meta({ id: 'StudentPage' }),
);

const registrationExtras = {
  must_change_password: z.literal(true),
  one_time_password: z.string().optional().describe('Present, once, when no password was sent'),
};

/** POST /api/students/ (201): the new student, with their one-time password when the server made it. */
export const studentRegistrationSchema = describes<StudentRegistration>()(
  studentRecordSchema.extend(registrationExtras).meta({ id: 'StudentRegistration' }),
);

/** GET /api/students/{n}/history/: what a delete would remove. */
export const studentHistorySchema = describes<StudentHistory>()(
  z.object({ results: z.number(), payments: z.number() }).meta({ id: 'StudentHistory' }),
);

/** POST …/reset-password/: the sentence and the new one-time password (shown once). */
export const passwordResetResponseSchema = describes<PasswordResetResponse>()(
  z.object({ detail: z.string(), one_time_password: z.string() }).meta({ id: 'PasswordReset' }),
);

/** PUT /api/students/{n}/photo/: the photo as stored (a data URL, '' when removed). */
export const studentPhotoResponseSchema = z.object({ photo: z.string() }).meta({ id: 'StudentPhoto' });

/** GET /api/studentBase/:id: the legacy shape of a student. */
export const legacyStudentSchema = describes<LegacyStudent>()(
  z
    .object({
      _id: z.number(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string().nullable(),
      UserName: z.string(),
      arm: z.string(),
      gender: z.string().nullable(),
      dateOfBirth: z.string().nullable(),
      fathersName: z.string(),
      fathersPhoneNumber: z.string(),
      mothersName: z.string(),
      mothersPhoneNumber: z.string(),
      homeAddress: z.string(),
      admissionNumber: z.string(),
    })
    .meta({ id: 'LegacyStudent' }),
);

/** A staff member's record (the list's row). */
export const staffRecordSchema = describes<StaffRecord>()(
  z
    .object({
      id: z.number(),
      staff_id: z.string(),
      username: z.string().nullable(),
      first_name: z.string(),
      last_name: z.string(),
      email: z.string(),
      phone_number: z.string(),
      gender: z.enum(GENDER_VALUES).nullable(),
      designation: z.string(),
      department: z.string(),
      marital_status: z.enum(MARITAL_STATUS_VALUES).nullable(),
      user_type: z.literal(2),
      user: z.object({ email: z.string(), first_name: z.string(), last_name: z.string(), user_type: z.literal(2) }),
    })
    .meta({ id: 'StaffRecord' }),
);

/** GET /api/staff/list/. */
export const staffListSchema = z.array(staffRecordSchema).meta({ id: 'StaffList' });

const staffProfileDataSchema = z.object({
  qualifications: z.string().nullable(),
  employment_date: z.string().nullable(),
  bank_account: z.string().nullable().describe('Only for an admin or the staff member themself; null otherwise'),
  tax_id: z.string().nullable().describe('Only for an admin or the staff member themself; null otherwise'),
});

/** One staff member: the record flat, plus the same record under `data` (the find-staff screen reads it there). */
export const staffDetailSchema = describes<StaffDetail>()(
  staffRecordSchema
    .extend({ profile_data: staffProfileDataSchema, data: staffRecordSchema.extend({ profile_data: staffProfileDataSchema }) })
    .meta({ id: 'StaffDetail' }),
);

/** POST /api/staff/ (201): the new staff member, with their one-time password when the server made it. */
export const staffRegistrationSchema = describes<StaffRegistration>()(
  staffRecordSchema
    .extend({
      profile_data: staffProfileDataSchema,
      data: staffRecordSchema.extend({ profile_data: staffProfileDataSchema }),
      ...registrationExtras,
    })
    .meta({ id: 'StaffRegistration' }),
);

/** GET /api/staffBase/:id: the legacy shape of a staff member. */
export const legacyStaffSchema = describes<LegacyStaff>()(
  z
    .object({
      _id: z.number(),
      firstName: z.string(),
      lastName: z.string(),
      gender: z.string().nullable(),
      email: z.string(),
      userName: z.string().nullable(),
      maritalStatus: z.string().nullable(),
      designation: z.string(),
      staffId: z.string(),
    })
    .meta({ id: 'LegacyStaff' }),
);

const importIssueSchema = z.object({ row: z.number(), field: z.string(), message: z.string() });

/** POST /api/{students,staff}/import/preview/: per-row errors and duplicates, and the first rows to be stored. */
export const importPreviewSchema = describes<ImportPreview>()(
  z
    .object({
      rows: z.number(),
      valid: z.number(),
      errors: z.array(importIssueSchema),
      duplicates: z.array(importIssueSchema),
      sample: z.array(z.record(z.string(), z.string())),
    })
    .meta({ id: 'PeopleImportPreview' }),
);

/** POST /api/{students,staff}/import/ (201): the accounts made, with their one-time passwords (shown once). */
export const importResultSchema = describes<ImportResult>()(
  z
    .object({
      created: z.number(),
      accounts: z.array(
        z.object({
          public_id: z.string(),
          first_name: z.string(),
          last_name: z.string(),
          email: z.string().nullable(),
          group: z.string(),
          one_time_password: z.string(),
        }),
      ),
    })
    .meta({ id: 'PeopleImportResult' }),
);

/** GET /api/people/new-accounts/: the day's new accounts (no passwords). */
export const newAccountsDaySchema = describes<NewAccountsDay>()(
  z
    .object({
      date: z.string(),
      accounts: z.array(
        z.object({
          kind: z.enum(['student', 'staff']),
          public_id: z.string(),
          first_name: z.string(),
          last_name: z.string(),
          email: z.string().nullable(),
          group: z.string(),
          created_at: z.string(),
          must_change_password: z.boolean(),
        }),
      ),
    })
    .meta({ id: 'NewAccountsDay' }),
);

/**
 * 413 of the import routes: a file over 10 MB of UTF-8 (counted while streaming) is refused with
 * `non_field_errors`; a body over the route's limit with `detail` (the error envelope's shape).
 */
export const importTooLargeSchema = z.union([validationErrorsSchema, errorDetailSchema]).meta({ id: 'PeopleImportTooLarge' });
