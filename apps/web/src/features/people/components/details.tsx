import { useState } from 'react';
import {
  GENDER_LABEL,
  MARITAL_LABEL,
  PEOPLE_MESSAGES,
  PEOPLE_SCREEN_MESSAGES,
  personName,
  type StaffDetail,
  type StudentRecord,
} from '@portal/domain/people-constants';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DetailRow } from '../../../components/ui/card';
import { resetPassword, type PersonKind } from '../api';
import { errorMessage } from '../../../lib/errors';
import { OneTimePasswordNotice } from './sign-in-slips';
import { rememberPasswords } from '../new-sign-ins-store';

export const genderLabel = (g: string | null | undefined) => (g ? (GENDER_LABEL[g] ?? g) : '');
export const maritalLabel = (m: string | null | undefined) => (m ? (MARITAL_LABEL[m] ?? m) : '');
export const fullName = (p: { first_name: string; last_name: string }) => personName(p).trim();

/** Every field of a student record; empty ones read 'Not specified'. */
export function StudentDetailList({ s }: { s: StudentRecord }) {
  return (
    <dl>
      <DetailRow label="Admission number" value={s.admission_number} />
      <DetailRow label="Name" value={fullName(s)} />
      <DetailRow label="Email" value={s.email} />
      <DetailRow label="Class" value={s.class_name} />
      <DetailRow label="Gender" value={genderLabel(s.gender)} />
      <DetailRow label="Date of birth" value={s.date_of_birth} />
      <DetailRow label="Phone number" value={s.phone_number} />
      <DetailRow label="Father's name" value={s.fathers_name} />
      <DetailRow label="Father's phone" value={s.fathers_phone} />
      <DetailRow label="Mother's name" value={s.mothers_name} />
      <DetailRow label="Mother's phone" value={s.mothers_phone} />
      <DetailRow label="Home address" value={s.home_address} />
    </dl>
  );
}

/** A staff member's record, plus the extra profile info when present (CheckAStaffData). */
export function StaffDetailList({ s }: { s: StaffDetail }) {
  const p = s.profile_data;
  return (
    <dl>
      <DetailRow label="Staff ID" value={s.staff_id} />
      <DetailRow label="Name" value={fullName(s)} />
      <DetailRow label="Username" value={s.username} />
      <DetailRow label="Email" value={s.email} />
      <DetailRow label="Phone" value={s.phone_number} />
      <DetailRow label="Gender" value={genderLabel(s.gender)} />
      <DetailRow label="Designation" value={s.designation} />
      <DetailRow label="Department" value={s.department} />
      <DetailRow label="Marital status" value={maritalLabel(s.marital_status)} />
      {p.qualifications && <DetailRow label="Qualifications" value={p.qualifications} />}
      {p.employment_date && <DetailRow label="Employment date" value={p.employment_date} />}
      {p.bank_account && <DetailRow label="Bank account" value={p.bank_account} />}
      {p.tax_id && <DetailRow label="Tax ID" value={p.tax_id} />}
    </dl>
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
