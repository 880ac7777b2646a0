import { useState } from 'react';
import { useNavigate } from 'react-router';
import { formatNaira, koboToNaira } from '@portal/domain/money';
import { NOTICE_SCREEN_LABELS as L, NOTICE_SCREEN_MESSAGES as M, NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { BLAST_AUDIENCE_KINDS, BLAST_CHANNELS, blastBodySchema, type BlastChannel } from '@portal/domain/notice-templates-schemas';
import { CLASS_LEVELS } from '@portal/domain/teaching';
import { PageLayout } from '../../../components/layout/app-layout';
import { ClassSelect } from '../../../components/school/class-select';
import { Alert } from '../../../components/ui/alert';
import { Button, SubmitButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { FigureList } from '../../../components/ui/figure-list';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useSchemaForm } from '../../../lib/schema-form';
import { useToast } from '../../../lib/toast';
import { useEstimateBlast, useSendBlast } from '../api';
import { SmsCount } from '../components/sms-count';
import type { BlastEstimate, BlastInput } from '../contract';
import { bodyOf, channelsOf, fieldOf, START, type Form } from '../blast-form';

const AUDIENCE_LABELS = { all: L.audienceAll, arm: L.audienceArm, level: L.audienceLevel, debtors: L.audienceDebtors } as const;
const CHANNEL_CHOICES: Record<BlastChannel, string> = { sms: L.channelSms, email: L.channelEmail, in_app: L.channelInApp };

/** Recipients, units and cost of the message as estimated. */
function EstimateView({ estimate }: { estimate: BlastEstimate }) {
  return (
    <FigureList
      className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4"
      testId="estimate"
      figures={[
        { label: L.recipients, value: estimate.recipients, testId: 'estimate-recipients' },
        { label: L.unitsPerMessage, value: estimate.sms.units_per_message },
        { label: L.totalUnits, value: estimate.sms.total_units, testId: 'estimate-units' },
        { label: L.cost, value: formatNaira(koboToNaira(estimate.sms.cost_kobo)), testId: 'estimate-cost' },
      ]}
    />
  );
}

/** Admin: a notice to all parents, an arm's, a level's or the debtors'; estimated, then sent after a confirm. */
export default function NewBlastPage() {
  const estimate = useEstimateBlast();
  const send = useSendBlast();
  const toast = useToast();
  const navigate = useNavigate();
  const form = useSchemaForm<Form>({ defaultValues: START, schema: blastBodySchema, toBody: bodyOf, fieldOf });
  /** The estimate and the exact request it was made for: sending needs one for what is on screen. */
  const [estimated, setEstimated] = useState<{ key: string; input: BlastInput; result: BlastEstimate } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const current = JSON.stringify(bodyOf(form.values));
  const fresh = estimated !== null && estimated.key === current;

  function serverFailed(err: unknown, fallback: string) {
    const errs = fieldErrorsOf(err);
    if (Object.keys(errs).length) form.fail(Object.fromEntries(Object.entries(errs).map(([k, v]) => [fieldOf(k), v])));
    else toast.error(errorMessage(err, { fallback, useDetail: true }));
  }

  async function onEstimate(values: Form) {
    const input = bodyOf(values);
    setConfirming(false);
    try {
      setEstimated({ key: JSON.stringify(input), input, result: await estimate.mutateAsync(input) });
    } catch (err) {
      serverFailed(err, M.estimateFailed);
    }
  }

  async function onSend() {
    if (!estimated) return;
    try {
      const { id } = await send.mutateAsync(estimated.input);
      void navigate(`${S.blasts.to}/${id}`);
    } catch (err) {
      setConfirming(false);
      serverFailed(err, M.sendFailed);
    }
  }

  const chosen = channelsOf(form.values);
  const channelError = form.errors.channels;
  return (
    <PageLayout title={L.newBlast} width="max-w-3xl">
      <form ref={form.formRef} onSubmit={(e) => void form.submit(onEstimate)(e)} noValidate className="flex flex-col gap-5">
        <Card>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label={L.audience}
              options={BLAST_AUDIENCE_KINDS.map((a) => ({ value: a, label: AUDIENCE_LABELS[a] }))}
              {...form.field('audience')}
            />
            {form.values.audience === 'arm' && <ClassSelect label={L.arm} required {...form.field('arm')} />}
            {form.values.audience === 'level' && (
              <SelectField label={L.level} placeholder={L.chooseLevel} options={CLASS_LEVELS} required {...form.field('level')} />
            )}
          </div>
          <fieldset className="mt-4" aria-describedby={channelError ? 'channels-error' : undefined}>
            <legend className="text-sm font-medium text-slate-800">{L.channelsLegend}</legend>
            <div className="mt-1 flex flex-wrap gap-x-5">
              {BLAST_CHANNELS.map((c) => (
                <CheckboxField
                  key={c}
                  label={CHANNEL_CHOICES[c]}
                  className="min-h-11 items-center"
                  checked={chosen.includes(c)}
                  onChange={(on) => form.set('channels', (on ? [...chosen, c] : chosen.filter((x) => x !== c)).join(','))}
                />
              ))}
            </div>
            {channelError?.map((m) => (
              <p key={m} id="channels-error" className="text-sm text-red-700" data-testid="field-error">
                {m}
              </p>
            ))}
          </fieldset>
          <div className="mt-4 flex flex-col gap-4">
            <TextField label={L.subject} {...form.field('subject')} />
            <div>
              <TextAreaField label={L.body} rows={5} required {...form.field('body')} />
              <SmsCount text={form.values.body ?? ''} />
            </div>
          </div>
          <SubmitButton className="mt-5" variant="secondary" busy={estimate.isPending} busyLabel="Estimating...">
            {L.estimate}
          </SubmitButton>
        </Card>
      </form>
      {estimated && (
        <Card title={L.estimateTitle} className="mt-5">
          <EstimateView estimate={estimated.result} />
          {fresh ? (
            !confirming && (
              <Button className="mt-4" onClick={() => setConfirming(true)}>
                {L.send}
              </Button>
            )
          ) : (
            <Alert tone="warning" className="mt-4">
              {L.estimateAgain}
            </Alert>
          )}
          {fresh && confirming && (
            <ConfirmPanel
              label={L.send}
              confirm={L.confirmSendButton}
              loading={send.isPending}
              onConfirm={() => void onSend()}
              onCancel={() => setConfirming(false)}
            >
              {L.confirmSend(estimated.result.recipients, formatNaira(koboToNaira(estimated.result.sms.cost_kobo)))}
            </ConfirmPanel>
          )}
        </Card>
      )}
    </PageLayout>
  );
}
