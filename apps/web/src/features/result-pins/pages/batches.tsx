import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { TERMS, termLabel } from '@portal/domain/constants';
import { RESULT_PIN_LABELS as L, RESULT_PIN_SCREEN_MESSAGES as M, RESULT_PIN_SCREENS as S } from '@portal/domain/result-pin-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { SessionSelect } from '../../../components/school/session-select';
import { SubmitButton } from '../../../components/ui/button';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { RowTable } from '../../../components/ui/row-table';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth-store';
import { formatDateTime } from '../../../lib/datetime';
import { currentSessionId, useSessions } from '../../../lib/school-calendar';
import { useSaveSettings, useSchoolSettings } from '../../../lib/school-settings';
import { useToast } from '../../../lib/toast';
import { useBatches, useGenerateBatch } from '../api';
import type { BatchCreate, PinBatch } from '../contract';
import { BatchName } from '../components/batch-name';

const WHOLE_SESSION = 'session';

/**
 * The admin's switch for the public check (the school setting `result_pins_enabled`) and the uses a new
 * batch's PINs allow unless the batch says otherwise (`result_pin_uses`). Off by default.
 */
function PinSettingsCard() {
  const { data } = useSchoolSettings();
  const save = useSaveSettings();
  const toast = useToast();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [uses, setUses] = useState<string | null>(null);
  const [error, setError] = useState('');
  if (!data) return null;
  const on = enabled ?? data.result_pins_enabled;
  const usesText = uses ?? String(data.result_pin_uses);
  const changed = on !== data.result_pins_enabled || usesText !== String(data.result_pin_uses);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!data) return;
    const u = Number(usesText);
    if (!Number.isInteger(u) || u < 1 || u > 50) {
      setError(M.usesRange);
      return;
    }
    setError('');
    save.mutate(
      { ...data, result_pins_enabled: on, result_pin_uses: u },
      {
        onSuccess: () => {
          setEnabled(null);
          setUses(null);
          toast.success(M.settingsSaved);
        },
        onError: (err) => toast.error((err instanceof ApiError && (err.detail ?? err.nonFieldError)) || M.settingsFailed),
      },
    );
  }

  return (
    <Card title={L.settings} className="mb-5">
      <form className="grid gap-4 sm:grid-cols-2 sm:items-end" onSubmit={onSubmit} noValidate data-testid="pin-settings">
        <div className="sm:col-span-2">
          <CheckboxField className="min-h-11 items-center" label={L.enabledLabel} checked={on} onChange={setEnabled} />
          <p className="text-sm text-slate-700">{on ? L.enabledOnHint : L.enabledOffHint}</p>
        </div>
        <TextField
          label={L.defaultUses}
          inputMode="numeric"
          value={usesText}
          onChange={(e) => setUses(e.target.value.replace(/\D/g, ''))}
          hint={L.usesHint}
          error={error}
        />
        <div>
          <SubmitButton busy={save.isPending} busyLabel={L.saving} disabled={!changed}>
            {L.saveSettings}
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}

/** The admin's form: a session, a term or the whole session, how many cards, how many uses each. */
function GenerateForm() {
  const sessions = useSessions();
  const toast = useToast();
  const generate = useGenerateBatch();
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState<string>(WHOLE_SESSION);
  const [count, setCount] = useState('100');
  const defaultUses = useSchoolSettings().data?.result_pin_uses ?? 5;
  const [uses, setUses] = useState<string | null>(null);
  const usesText = uses ?? String(defaultUses);
  const [errors, setErrors] = useState<Record<string, string | string[]>>({});
  const chosenSession = sessionId || currentSessionId(sessions.data);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const n = Number(count);
    const u = Number(usesText);
    const problems: Record<string, string> = {};
    if (!chosenSession) problems.session_id = M.sessionNeeded;
    if (!Number.isInteger(n) || n < 1 || n > 5000) problems.count = M.countRange;
    if (!Number.isInteger(u) || u < 1 || u > 50) problems.uses = M.usesRange;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    const body = {
      session_id: Number(chosenSession),
      term: (term === WHOLE_SESSION ? null : term) as BatchCreate['term'],
      count: n,
      uses: u,
    };
    generate.mutate(body, {
      onSuccess: (b) => toast.success(M.generated(b.count ?? n)),
      onError: (err) => {
        if (err instanceof ApiError && err.status === 400 && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
        toast.error((err instanceof ApiError && (err.detail ?? err.nonFieldError)) || M.generateFailed);
      },
    });
  }

  return (
    <Card title={L.newBatch} className="mb-5">
      <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" onSubmit={onSubmit} noValidate data-testid="generate-form">
        <SessionSelect
          label={L.session}
          required
          value={chosenSession}
          onChange={(e) => setSessionId(e.target.value)}
          error={errors.session_id}
        />
        <SelectField
          label={L.term}
          value={term}
          onChange={(e) => setTerm(e.target.value)}
          options={[{ value: WHOLE_SESSION, label: L.wholeSession }, ...TERMS]}
          error={errors.term}
        />
        <TextField
          label={L.count}
          required
          inputMode="numeric"
          value={count}
          onChange={(e) => setCount(e.target.value.replace(/\D/g, ''))}
          hint={L.countHint}
          error={errors.count}
        />
        <TextField
          label={L.uses}
          required
          inputMode="numeric"
          value={usesText}
          onChange={(e) => setUses(e.target.value.replace(/\D/g, ''))}
          hint={L.usesHint}
          error={errors.uses}
        />
        <SubmitButton busy={generate.isPending} busyLabel={L.generating}>
          {L.generate}
        </SubmitButton>
      </form>
    </Card>
  );
}

const figure = (v: number | undefined) => (v === undefined ? '–' : v.toLocaleString('en-NG'));

/** /result-pins: the admin generates batches; the admin and the bursar open one to sell its cards. */
export default function BatchesPage() {
  const isAdmin = useSession()?.role === 'admin';
  const batches = useBatches();
  return (
    <PageLayout title={S.batches.title} width="max-w-6xl">
      {isAdmin && <PinSettingsCard />}
      {isAdmin && <GenerateForm />}
      <Card title={L.batches}>
        <QueryView query={batches} messages={{ fallback: M.loadFailed, useDetail: true }} empty={L.noBatches}>
          {(rows) => (
            <RowTable<PinBatch>
              testId="batches"
              rows={rows}
              rowKey={(b) => b.id}
              columns={[
                {
                  label: L.batch,
                  cell: (b) => (
                    <Link className="font-medium text-brand-800 underline" to={`${S.batches.to}/${b.id}`}>
                      <BatchName batch={b} />
                    </Link>
                  ),
                },
                { label: L.term, cell: (b) => (b.term ? termLabel(b.term) : L.wholeSession) },
                { label: L.cards, figures: true, cell: (b) => figure(b.count) },
                { label: L.uses, figures: true, cell: (b) => figure(b.uses) },
                { label: L.sold, figures: true, cell: (b) => figure(b.sold) },
                { label: L.used, figures: true, cell: (b) => figure(b.used) },
                { label: L.created, cell: (b) => formatDateTime(b.created_at) },
                { label: L.printable, cell: (b) => (b.printable ? L.open : L.sealed) },
              ]}
            />
          )}
        </QueryView>
      </Card>
    </PageLayout>
  );
}
