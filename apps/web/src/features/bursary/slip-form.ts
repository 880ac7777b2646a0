import { useEffect } from 'react';
import { DEFAULT_TIME_ZONE } from '@portal/domain/datetime';
import { todayIn } from '@portal/domain/attendance-rules';
import { sanitizeAmountInput } from '@portal/domain/payments';
import { useSchoolSettings } from '../../lib/school-settings';
import { useSessions } from '../../lib/school-calendar';
import { useSchemaForm, type SchemaFormOptions } from '../../lib/schema-form';
import type { SlipForm } from './slip-model';

/** What a new slip starts from: the school's today, and the current session's id ('' until the list arrives). */
export function useSlipStart(): { today: string; currentSession: string } {
  const zone = useSchoolSettings().data?.time_zone ?? DEFAULT_TIME_ZONE;
  const sessions = useSessions();
  return { today: todayIn(zone), currentSession: String(sessions.data?.find((s) => s.is_current)?.id ?? '') };
}

/**
 * A slip form (the bursar's record, the student's report) on the schema form hook: each message under
 * the field its path starts with, and the current session chosen once the list arrives, unless one was.
 */
export function useSlipForm<T extends SlipForm>({ currentSession, ...options }: SchemaFormOptions<T> & { currentSession: string }) {
  const form = useSchemaForm<T>({ fieldOf: (path) => path.split('.')[0]!, ...options });
  const { getValues, set } = form;
  useEffect(() => {
    if (currentSession && !getValues('session_id' as never)) set('session_id', currentSession);
  }, [currentSession, getValues, set]);
  return form;
}

/** A keystroke in a slip's field as kept: the amount only digits and one point. */
export const slipInput = (key: string, text: string) => (key === 'amount' ? sanitizeAmountInput(text) : text);
