import { useEffect, useState } from 'react';
import { termLabel } from '@portal/domain/constants';
import {
  ROLLOVER_COPIES,
  ROLLOVER_COPY_LABELS as COPY,
  ROLLOVER_LABELS as L,
  ROLLOVER_MESSAGES as M,
  ROLLOVER_SCREEN as S,
  rolloverSchema,
  type RolloverCopy,
  type RolloverPreview,
  type RolloverResult,
  type RolloverTerm,
} from '@portal/domain/rollover';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, SubmitButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { SelectField, TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { currentSessionId, sessionOptions, useSessions } from '../../../lib/school-calendar';
import { useRolloverPreview, useStartNextSession } from '../api';

type Copies = Record<RolloverCopy, boolean>;
const ALL_TICKED = Object.fromEntries(ROLLOVER_COPIES.map((c) => [c, true])) as Copies;

interface Form {
  name: string;
  terms: RolloverTerm[];
  copy: Copies;
  increase: string;
  makeCurrent: boolean;
}

const formOf = (p: RolloverPreview): Form => ({
  name: p.name,
  terms: p.terms.map((t) => ({ ...t })),
  copy: { ...ALL_TICKED },
  increase: '',
  makeCurrent: false,
});

/** The body the server takes; the report card settings are school-wide and sent as ticked. */
const bodyOf = (fromId: number, f: Form) => ({
  from_session_id: fromId,
  name: f.name.trim(),
  terms: f.terms.map((t) => ({ ...t, next_term_begins: t.next_term_begins || null })),
  copy: {
    ...f.copy,
    report_card_settings: true,
    fee_increase_percent: f.copy.fee_items && f.increase.trim() ? Number(f.increase.trim()) : null,
  },
  make_current: f.makeCurrent,
});

/** Admin: start the next session — its name and terms (edited), the copies ticked, the fee increase, current or not. */
export default function SessionRolloverPage() {
  const sessions = useSessions();
  const [fromId, setFromId] = useState('');
  useEffect(() => {
    if (!fromId && sessions.data?.length) setFromId(currentSessionId(sessions.data));
  }, [fromId, sessions.data]);
  const preview = useRolloverPreview(fromId);
  const start = useStartNextSession();
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<RolloverResult | null>(null);
  useEffect(() => {
    if (preview.data) {
      setForm(formOf(preview.data));
      setErrors({});
    }
  }, [preview.data]);

  if (sessions.data && !sessions.data.length)
    return (
      <PageLayout title={S.label} width="max-w-3xl">
        <Alert tone="info">{L.noSession}</Alert>
      </PageLayout>
    );
  if (preview.isError)
    return (
      <PageLayout title={S.label} width="max-w-3xl">
        <Alert tone="error">{L.loadFailed}</Alert>
      </PageLayout>
    );
  if (result)
    return (
      <PageLayout title={S.label} width="max-w-3xl">
        <Card title={L.resultTitle}>
          <p role="status" className="mb-3 font-medium">
            {result.session.is_current ? M.madeCurrent(result.session.name) : M.notCurrent(result.session.name)}
          </p>
          <ul className="flex flex-col gap-1 text-sm" aria-label={L.resultTitle}>
            {ROLLOVER_COPIES.filter((c) => c !== 'report_card_settings').map((c) => (
              <li key={c}>{L.copiedRow(COPY[c], result.copied[c])}</li>
            ))}
          </ul>
          <Button
            className="mt-5"
            variant="secondary"
            onClick={() => {
              setResult(null);
              void preview.refetch();
            }}
          >
            {L.startAnother}
          </Button>
        </Card>
      </PageLayout>
    );
  if (!form || !preview.data)
    return (
      <PageLayout title={S.label} width="max-w-3xl">
        <LoadingBlock />
      </PageLayout>
    );
  const p = preview.data;
  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch });
  const setTerm = (i: number, patch: Partial<RolloverTerm>) => set({ terms: form.terms.map((t, j) => (j === i ? { ...t, ...patch } : t)) });
  const err = (key: string) => errors[key];

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setFailure(null);
    const body = bodyOf(p.from_session.id, form!);
    const parsed = rolloverSchema.safeParse(body);
    if (!parsed.success) {
      const out: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (out[issue.path.join('.')] ??= []).push(issue.message);
      setErrors(out);
      return;
    }
    setErrors({});
    try {
      setResult(await start.mutateAsync(parsed.data));
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length) setErrors(fields);
      else setFailure(errorMessage(error, { fallback: M.failed, useDetail: true }));
    }
  }

  return (
    <PageLayout title={S.label} width="max-w-3xl">
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5">
        {failure && <Alert tone="error">{failure}</Alert>}
        <Card>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label={L.fromSession}
              value={fromId}
              onChange={(e) => setFromId(e.target.value)}
              options={sessionOptions(sessions.data)}
              error={err('from_session_id')}
            />
            <TextField
              label={L.name}
              hint={L.nameHint}
              value={form.name}
              onChange={(e) => set({ name: e.target.value })}
              error={err('name')}
              required
              autoComplete="off"
            />
          </div>
        </Card>
        <Card title={L.termsTitle}>
          <p className="mb-4 text-sm text-slate-600">{L.termsHint}</p>
          {err('terms') && (
            <Alert tone="error" className="mb-4">
              {err('terms')!.join(' ')}
            </Alert>
          )}
          <div className="flex flex-col gap-5">
            {form.terms.map((t, i) => (
              <fieldset key={t.term} className="grid gap-3 sm:grid-cols-3">
                <legend className="mb-2 font-medium">{termLabel(t.term)}</legend>
                <TextField
                  type="date"
                  label={L.termStarts(termLabel(t.term))}
                  value={t.starts_on}
                  onChange={(e) => setTerm(i, { starts_on: e.target.value })}
                  error={err(`terms.${i}.starts_on`)}
                  required
                />
                <TextField
                  type="date"
                  label={L.termEnds(termLabel(t.term))}
                  value={t.ends_on}
                  onChange={(e) => setTerm(i, { ends_on: e.target.value })}
                  error={err(`terms.${i}.ends_on`)}
                  required
                />
                <TextField
                  type="date"
                  label={L.nextTermBegins(termLabel(t.term))}
                  value={t.next_term_begins ?? ''}
                  onChange={(e) => setTerm(i, { next_term_begins: e.target.value || null })}
                  error={err(`terms.${i}.next_term_begins`)}
                />
              </fieldset>
            ))}
          </div>
        </Card>
        <Card title={L.copiesTitle}>
          <ul className="flex flex-col gap-2">
            {ROLLOVER_COPIES.map((c) => (
              <li key={c} className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 pb-2 last:border-0">
                {c === 'report_card_settings' ? (
                  <span className="text-sm">
                    {COPY[c]} <span className="text-slate-600">— {M.reportSettingsSchoolWide}</span>
                  </span>
                ) : (
                  <CheckboxField
                    className="min-h-11 items-center"
                    label={COPY[c]}
                    checked={form.copy[c]}
                    onChange={(on) => set({ copy: { ...form.copy, [c]: on } })}
                  />
                )}
                {c !== 'report_card_settings' && <span className="text-sm text-slate-600">{L.copyCount(p.copies[c].count)}</span>}
                {c === 'calendar_events' && form.copy[c] && <p className="basis-full text-xs text-slate-600">{L.calendarEventsHint}</p>}
              </li>
            ))}
          </ul>
          {form.copy.fee_items && (
            <div className="mt-4 max-w-xs">
              <TextField
                label={L.feeIncrease}
                hint={L.feeIncreaseHint}
                inputMode="decimal"
                value={form.increase}
                onChange={(e) => set({ increase: e.target.value })}
                error={err('copy.fee_increase_percent')}
              />
            </div>
          )}
        </Card>
        <Card>
          <CheckboxField
            className="min-h-11 items-center"
            label={L.makeCurrent}
            checked={form.makeCurrent}
            onChange={(on) => set({ makeCurrent: on })}
          />
          <p className="mt-1 text-xs text-slate-600">{L.makeCurrentHint}</p>
          <SubmitButton className="mt-5" busy={start.isPending} busyLabel={L.starting}>
            {L.start}
          </SubmitButton>
        </Card>
      </form>
    </PageLayout>
  );
}
