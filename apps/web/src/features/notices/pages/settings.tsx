import { useEffect, useState } from 'react';
import { koboToNaira, nairaToKobo } from '@portal/domain/money';
import { NOTICE_SCREEN_LABELS as L, NOTICE_SCREEN_MESSAGES as M, NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Card, DetailRow } from '../../../components/ui/card';
import { SubmitButton } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { fieldErrorsOf } from '../../../lib/errors';
import { useSchemaForm } from '../../../lib/schema-form';
import { useToast } from '../../../lib/toast';
import { useNoticeSettings, useSaveNoticeSettings } from '../api';
import { ReminderDays } from '../components/reminder-days';
import { noticeSettingsSchema, type NoticeSettings, type NoticeSettingsView } from '../contract';

/** The form's values: every setting as its field's text, the unit cost in naira. */
interface Form extends Record<string, string> {
  sender_id: string;
  quiet_start: string;
  quiet_end: string;
  daily_cap_per_parent: string;
  sms_unit_cost: string;
  send_rate_per_minute: string;
}

const formOf = (s: NoticeSettingsView): Form => ({
  sender_id: s.sender_id,
  quiet_start: s.quiet_start,
  quiet_end: s.quiet_end,
  daily_cap_per_parent: String(s.daily_cap_per_parent),
  sms_unit_cost: koboToNaira(s.sms_unit_cost_kobo).toFixed(2),
  send_rate_per_minute: String(s.send_rate_per_minute),
});

function kobo(naira: string): number {
  try {
    return nairaToKobo(naira);
  } catch {
    return Number.NaN;
  }
}

const bodyOf = (f: Form) => ({
  sender_id: f.sender_id.trim(),
  quiet_start: f.quiet_start,
  quiet_end: f.quiet_end,
  daily_cap_per_parent: Number(f.daily_cap_per_parent.trim() || Number.NaN),
  sms_unit_cost_kobo: kobo(f.sms_unit_cost),
  send_rate_per_minute: Number(f.send_rate_per_minute.trim() || Number.NaN),
});

/** The API's field names to the form's (the cost is typed in naira, stored in kobo). */
const fieldOf = (path: string) => (path === 'sms_unit_cost_kobo' ? 'sms_unit_cost' : path);

const EMPTY: Form = {
  sender_id: '',
  quiet_start: '',
  quiet_end: '',
  daily_cap_per_parent: '',
  sms_unit_cost: '',
  send_rate_per_minute: '',
};

/** Admin: how notices go out (sender ID, quiet hours, cap, cost, rate) and which channels the server has. */
export default function NoticeSettingsPage() {
  const settings = useNoticeSettings();
  const save = useSaveNoticeSettings();
  const toast = useToast();
  const form = useSchemaForm<Form>({ defaultValues: EMPTY, schema: noticeSettingsSchema, toBody: bodyOf, fieldOf });
  const { setValues } = form;
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (settings.data && !loaded) {
      setValues(formOf(settings.data));
      setLoaded(true);
    }
  }, [settings.data, loaded, setValues]);

  if (settings.isError)
    return (
      <PageLayout title={S.settings.label}>
        <Alert tone="error">{M.settingsFailed}</Alert>
      </PageLayout>
    );
  if (!loaded || !settings.data)
    return (
      <PageLayout title={S.settings.label}>
        <LoadingBlock />
      </PageLayout>
    );
  const { channels } = settings.data;

  async function onValid(_values: Form, body: unknown) {
    try {
      setValues(formOf(await save.mutateAsync(body as NoticeSettings)));
      toast.success(M.settingsSaved);
    } catch (err) {
      const errs = fieldErrorsOf(err);
      if (Object.keys(errs).length) form.fail(Object.fromEntries(Object.entries(errs).map(([k, v]) => [fieldOf(k), v])));
      else toast.error(M.settingsSaveFailed);
    }
  }

  return (
    <PageLayout title={S.settings.label} width="max-w-3xl">
      <form ref={form.formRef} onSubmit={(e) => void form.submit(onValid)(e)} noValidate className="flex flex-col gap-5">
        <Card title={L.channels}>
          <dl>
            <DetailRow label={L.smsChannel} value={channels.sms.configured ? L.configured(channels.sms.provider) : L.notConfigured} />
            <DetailRow label={L.emailChannel} value={channels.email.configured ? L.configured() : L.notConfigured} />
          </dl>
          <p className="mt-2 text-xs text-slate-600">{L.channelsHint}</p>
        </Card>
        <Card>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label={L.senderId} hint={L.senderIdHint} maxLength={11} autoComplete="off" required {...form.field('sender_id')} />
            <TextField label={L.dailyCap} type="number" inputMode="numeric" min={1} required {...form.field('daily_cap_per_parent')} />
            <TextField label={L.quietStart} type="time" hint={L.quietHint} required {...form.field('quiet_start')} />
            <TextField label={L.quietEnd} type="time" required {...form.field('quiet_end')} />
            <TextField label={L.unitCost} inputMode="decimal" required {...form.field('sms_unit_cost')} />
            <TextField label={L.sendRate} type="number" inputMode="numeric" min={1} required {...form.field('send_rate_per_minute')} />
          </div>
          <SubmitButton className="mt-5" busy={save.isPending} busyLabel="Saving...">
            {L.saveSettings}
          </SubmitButton>
        </Card>
      </form>
      <div className="mt-5">
        <ReminderDays />
      </div>
    </PageLayout>
  );
}
