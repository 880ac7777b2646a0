import { useEffect } from 'react';
import { NOTICE_TEMPLATE_MESSAGES } from '@portal/domain/notice-templates';
import { noticeRemindersSchema, type NoticeReminders } from '@portal/domain/notice-templates-schemas';
import { NOTICE_SCREEN_LABELS as L, NOTICE_SCREEN_MESSAGES as M } from '@portal/domain/notice-screens';
import { Alert } from '../../../components/ui/alert';
import { SubmitButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { fieldErrorsOf } from '../../../lib/errors';
import { useSchemaForm } from '../../../lib/schema-form';
import { useToast } from '../../../lib/toast';
import { useReminders, useSaveReminders } from '../api';

interface Form extends Record<string, string> {
  days_after_due: string;
}

/** "7, 14, 30" as the days (anything that is not a whole number stays, for the schema to refuse). */
const bodyOf = (f: Form) => ({
  days_after_due: f.days_after_due
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((d) => (/^\d+$/.test(d) ? Number(d) : d)),
});

/** The days after fees fall due on which debtors' parents are reminded (fees overdue notices). */
export function ReminderDays() {
  const reminders = useReminders();
  const save = useSaveReminders();
  const toast = useToast();
  const form = useSchemaForm<Form>({
    defaultValues: { days_after_due: '' },
    schema: noticeRemindersSchema,
    toBody: bodyOf,
    fieldOf: () => 'days_after_due',
  });
  const { setValues } = form;
  useEffect(() => {
    if (reminders.data) setValues({ days_after_due: reminders.data.days_after_due.join(', ') });
  }, [reminders.data, setValues]);

  async function onValid(_values: Form, body: unknown) {
    try {
      await save.mutateAsync(body as NoticeReminders);
      toast.success(NOTICE_TEMPLATE_MESSAGES.remindersSaved);
    } catch (err) {
      const errs = Object.values(fieldErrorsOf(err)).flat();
      if (errs.length) form.fail({ days_after_due: errs });
      else toast.error(M.settingsSaveFailed);
    }
  }

  return (
    <Card title={L.reminders}>
      {reminders.isError ? (
        <Alert tone="error">{M.remindersFailed}</Alert>
      ) : (
        <form ref={form.formRef} onSubmit={(e) => void form.submit(onValid)(e)} noValidate>
          <div className="max-w-sm">
            <TextField label={L.reminderDays} hint={L.reminderDaysHint} inputMode="numeric" {...form.field('days_after_due')} />
          </div>
          <SubmitButton className="mt-4" busy={save.isPending} busyLabel="Saving..." disabled={!reminders.data}>
            {L.saveReminders}
          </SubmitButton>
        </form>
      )}
    </Card>
  );
}
