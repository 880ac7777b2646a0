import { useEffect } from 'react';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { Alert } from '../../../components/ui/alert';
import { ClassSelect } from '../../../components/school/class-select';
import { useSession } from '../../../lib/auth-store';
import { classOptions, useClasses } from '../../../lib/school-lists';
import { useFormClasses } from '../../../lib/my-classes';
import { useSessionOfDates } from '../api';

/** The dates being opened (a day, or a month's first and last day): they decide the session. */
export interface ArmDates {
  from: string;
  to: string;
}

/**
 * The arms a register or month grid may be opened for: the admin's every arm; a staff member's the
 * arms they are form teacher of in the session of the dates (the term holding them, else the current
 * session: the server's rule, and it refuses others anyway). A form teacher of one arm has it chosen.
 */
export function useArmChoices(current: string, dates: ArmDates): { arms: string[]; noFormClasses: boolean } {
  const isAdmin = useSession()?.role === 'admin';
  const classes = useClasses();
  const sessionId = useSessionOfDates(dates.from, dates.to, !isAdmin);
  const form = useFormClasses(sessionId === null ? '' : String(sessionId), !isAdmin);
  if (isAdmin) return { arms: classOptions(classes.data, current), noFormClasses: false };
  const arms = (form.data?.form_classes ?? []).map((c) => c.class_name);
  return { arms, noFormClasses: !!form.data && arms.length === 0 };
}

export function ArmField({
  value,
  onChange,
  dates,
  error,
}: {
  value: string;
  onChange: (arm: string) => void;
  dates: ArmDates;
  error?: string[];
}) {
  const { arms, noFormClasses } = useArmChoices(value, dates);
  const only = arms.length === 1 ? arms[0]! : '';
  // One form class (also after a date in another session): chosen for the teacher.
  useEffect(() => {
    if (only && value !== only && (!value || !arms.includes(value))) onChange(only);
  }, [value, only, arms, onChange]);
  return (
    <div className="flex flex-col gap-2">
      <ClassSelect label={L.arm} value={value} onChange={(e) => onChange(e.target.value)} arms={arms} error={error} />
      {noFormClasses && <Alert tone="info">{M.noFormClasses}</Alert>}
    </div>
  );
}
