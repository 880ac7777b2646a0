import { useState, type ReactNode } from 'react';
import {
  GENDER_LABEL,
  MARITAL_LABEL,
  PEOPLE_MESSAGES,
  PEOPLE_SCREEN_MESSAGES,
  personName,
  type StaffDetail,
  type StaffRecord,
  type StudentRecord,
} from '@portal/domain/people-constants';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DetailList } from '../../../components/ui/card';
import { resetPassword, type PersonKind } from '../api';
import { errorMessage } from '../../../lib/errors';
import { OneTimePasswordNotice } from './sign-in-slips';
import { rememberPasswords } from '../new-sign-ins-store';

export const genderLabel = (g: string | null | undefined) => (g ? (GENDER_LABEL[g] ?? g) : '');
export const maritalLabel = (m: string | null | undefined) => (m ? (MARITAL_LABEL[m] ?? m) : '');
export const fullName = (p: { first_name: string; last_name: string }) => personName(p).trim();

/** The labels of a student's details, in the order the full record shows them. */
export const STUDENT_DETAILS = {
  admission_number: 'Admission number',
  name: 'Name',
  email: 'Email',
  class_name: 'Class',
  gender: 'Gender',
  date_of_birth: 'Date of birth',
  phone_number: 'Phone number',
  fathers_name: "Father's name",
  fathers_phone: "Father's phone",
  mothers_name: "Mother's name",
  mothers_phone: "Mother's phone",
  home_address: 'Home address',
} as const;
export type StudentDetailValues = Partial<Record<keyof typeof STUDENT_DETAILS, ReactNode>>;

/** A student record as its details read: the name joined, the gender in words. */
export const studentDetailValues = (s: StudentRecord): StudentDetailValues => ({
  ...s,
  name: fullName(s),
  gender: genderLabel(s.gender),
});

/** The labels of a staff member's details: the record, then the extra profile info. */
export const STAFF_DETAILS = {
  staff_id: 'Staff ID',
  name: 'Name',
  username: 'Username',
  email: 'Email',
  phone_number: 'Phone',
  gender: 'Gender',
  designation: 'Designation',
  department: 'Department',
  marital_status: 'Marital status',
  qualifications: 'Qualifications',
  employment_date: 'Employment date',
  bank_account: 'Bank account',
  tax_id: 'Tax ID',
} as const;
export type StaffDetailValues = Partial<Record<keyof typeof STAFF_DETAILS, ReactNode>>;
const STAFF_RECORD_FIELDS = [
  'staff_id',
  'name',
  'username',
  'email',
  'phone_number',
  'gender',
  'designation',
  'department',
  'marital_status',
] as const;
const STAFF_PROFILE_FIELDS = ['qualifications', 'employment_date', 'bank_account', 'tax_id'] as const;

/** A staff record as its details read: the name joined, gender and marital status in words. */
export const staffDetailValues = (s: StaffRecord): StaffDetailValues => ({
  ...s,
  name: fullName(s),
  gender: genderLabel(s.gender),
  marital_status: maritalLabel(s.marital_status),
});

/** Every field of a student record; empty ones read 'Not specified'. */
export function StudentDetailList({ s }: { s: StudentRecord }) {
  return <DetailList labels={STUDENT_DETAILS} values={studentDetailValues(s)} />;
}

/** A staff member's record, plus the extra profile info when present (CheckAStaffData). */
export function StaffDetailList({ s }: { s: StaffDetail }) {
  const p = s.profile_data;
  return (
    <DetailList
      labels={STAFF_DETAILS}
      values={{ ...staffDetailValues(s), ...p }}
      only={[...STAFF_RECORD_FIELDS, ...STAFF_PROFILE_FIELDS.filter((k) => p[k])]}
    />
  );
}

/**
 * Admin (and staff, for students) password reset: a two-step action that replaces the password
 * with a one-time password, ends the account's sessions, and shows a printable slip.
 */
export function ResetPasswordAction({
  kind,
  publicId,
  person,
}: {
  kind: PersonKind;
  publicId: string;
  person: { first_name: string; last_name: string; email: string | null; group: string };
}) {
  const [step, setStep] = useState<'idle' | 'confirm' | 'busy'>('idle');
  const [otp, setOtp] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function reset() {
    setStep('busy');
    setError(null);
    try {
      const res = await resetPassword(kind, publicId);
      rememberPasswords([{ public_id: publicId, one_time_password: res.one_time_password }]);
      setOtp(res.one_time_password);
    } catch (err) {
      setError(errorMessage(err, { fallback: PEOPLE_SCREEN_MESSAGES.resetPasswordFailed, useDetail: true }));
    } finally {
      setStep('idle');
    }
  }

  if (otp) {
    return (
      <div className="flex flex-col gap-3" data-testid="password-reset-done">
        <Alert tone="success">{PEOPLE_MESSAGES.passwordReset}</Alert>
        <OneTimePasswordNotice account={{ public_id: publicId, ...person, one_time_password: otp }} kind={kind} />
      </div>
    );
  }
  return (
    <div className="no-print flex flex-col gap-2">
      {error && <Alert tone="error">{error}</Alert>}
      {step === 'idle' ? (
        <div>
          <Button variant="secondary" onClick={() => setStep('confirm')}>
            Reset password
          </Button>
        </div>
      ) : (
        <Alert tone="warning" title={`Reset the password of ${fullName(person)}?`}>
          <p>{PEOPLE_SCREEN_MESSAGES.resetPasswordExplain}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="danger" loading={step === 'busy'} onClick={() => void reset()}>
              Yes, reset password
            </Button>
            <Button variant="secondary" onClick={() => setStep('idle')} disabled={step === 'busy'}>
              Cancel
            </Button>
          </div>
        </Alert>
      )}
    </div>
  );
}
