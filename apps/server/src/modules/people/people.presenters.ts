import type { LegacyStaff, LegacyStudent, StaffDetail, StaffProfileData, StaffRecord, StudentRecord } from '@portal/domain';
import type { StaffRow, StudentRow } from './people.repository';

/**
 * The only place a people row becomes JSON: every field is named, so a password hash (or any
 * column added later) can never leak into a response by accident.
 */

type GenderCode = StudentRecord['gender'];
type MaritalCode = StaffRecord['marital_status'];

export function presentStudent(r: StudentRow): StudentRecord {
  return {
    id: r.id,
    admission_number: r.admission_number,
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    phone_number: r.phone_number,
    gender: (r.gender || null) as GenderCode,
    date_of_birth: r.date_of_birth || null,
    student_class: r.student_class,
    class_name: r.student_class,
    fathers_name: r.fathers_name,
    fathers_phone: r.fathers_phone,
    mothers_name: r.mothers_name,
    mothers_phone: r.mothers_phone,
    home_address: r.home_address,
    status: r.status,
    withdrawn_at: r.withdrawn_at,
    // Only on an alumnus's record: the spec's shape of every other record stays as it is.
    ...(r.graduated_at ? { graduated_at: r.graduated_at } : {}),
    user_type: 3,
    user: { email: r.email, first_name: r.first_name, last_name: r.last_name, user_type: 3 },
  };
}

export function presentStaff(r: StaffRow): StaffRecord {
  return {
    id: r.id,
    staff_id: r.staff_id,
    username: r.username,
    first_name: r.first_name,
    last_name: r.last_name,
    email: r.email,
    phone_number: r.phone_number,
    gender: (r.gender || null) as GenderCode,
    designation: r.designation,
    department: r.department,
    marital_status: (r.marital_status || null) as MaritalCode,
    user_type: 2,
    user: { email: r.email, first_name: r.first_name, last_name: r.last_name, user_type: 2 },
  };
}

/**
 * One staff member: the record flat (the staff screens read it so) and again under `data`, with
 * `profile_data`, as the spec's find-staff screen reads it. Bank account and tax ID are shown only
 * to an admin or to the staff member themself.
 */
export function presentStaffDetail(r: StaffRow, showPrivate: boolean): StaffDetail {
  const profile_data: StaffProfileData = {
    qualifications: r.qualifications,
    employment_date: r.employment_date,
    bank_account: showPrivate ? r.bank_account : null,
    tax_id: showPrivate ? r.tax_id : null,
  };
  const record = presentStaff(r);
  return { ...record, profile_data, data: { ...record, profile_data } };
}

export function presentLegacyStudent(r: StudentRow): LegacyStudent {
  return {
    _id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    UserName: r.admission_number,
    arm: r.student_class,
    gender: r.gender || null,
    dateOfBirth: r.date_of_birth || null,
    fathersName: r.fathers_name,
    fathersPhoneNumber: r.fathers_phone,
    mothersName: r.mothers_name,
    mothersPhoneNumber: r.mothers_phone,
    homeAddress: r.home_address,
    admissionNumber: r.admission_number,
  };
}

export function presentLegacyStaff(r: StaffRow): LegacyStaff {
  return {
    _id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    gender: r.gender || null,
    email: r.email,
    userName: r.username,
    maritalStatus: r.marital_status || null,
    designation: r.designation,
    staffId: r.staff_id,
  };
}

/** What an audit row keeps of a student (no password hash: the row never had it). */
export function auditStudent(r: StudentRow) {
  const { user_id: _u, ...rest } = r;
  return rest;
}
export function auditStaff(r: StaffRow) {
  const { user_id: _u, ...rest } = r;
  return rest;
}

/** The audit row of an edit to a person's record; a password reset saved with it is named in the action. */
export function personUpdateAudit(
  actorUserId: number,
  entity: 'staff' | 'student',
  entityId: string,
  before: object,
  after: object,
  passwordReset: boolean,
) {
  return { actorUserId, action: passwordReset ? 'update+password' : 'update', entity, entityId, before, after };
}
