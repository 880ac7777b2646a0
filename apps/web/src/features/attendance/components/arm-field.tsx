import { useEffect } from 'react';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { Alert } from '../../../components/ui/alert';
import { SelectField } from '../../../components/ui/field';
import { useSession } from '../../../lib/auth-store';
import { classOptions, useClasses } from '../../../lib/school-lists';
import { useFormClasses, useSessions } from '../api';

/**
 * The arms a register or month grid may be opened for: the admin's every arm; a staff member's the
 * arms they are form teacher of in the current session (the server refuses others anyway). A form
 * teacher of one arm has it chosen for them.
 */
export function useArmChoices(current: string): { arms: string[]; noFormClasses: boolean } {
  const isAdmin = useSession()?.role === 'admin';
  const classes = useClasses();
  const sessions = useSessions();
  const sessionId = String(sessions.data?.find((s) => s.is_current)?.id ?? '');
  const form = useFormClasses(sessionId, !isAdmin);
  if (isAdmin) return { arms: classOptions(classes.data, current), noFormClasses: false };
  const arms = (form.data?.form_classes ?? []).map((c) => c.class_name);
  return { arms, noFormClasses: !!form.data && arms.length === 0 };
}

export function ArmField({ value, onChange, error }: { value: string; onChange: (arm: string) => void; error?: string[] }) {
  const { arms, noFormClasses } = useArmChoices(value);
  const only = arms.length === 1 ? arms[0]! : '';
  useEffect(() => {
    if (!value && only) onChange(only);
  }, [value, only, onChange]);
  return (
    <div className="flex flex-col gap-2">
      <SelectField
        label={L.arm}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="Select class"
        options={arms}
        error={error}
      />
      {noFormClasses && <Alert tone="info">{M.noFormClasses}</Alert>}
    </div>
  );
}
