import { useState, type FormEvent } from 'react';
import { COMMENT_KINDS, RATING_DOMAINS, REPORT_MESSAGES, type CommentKind } from '@portal/domain/report-card-rules';
import { reportSettingsSchema, type ReportSettings } from '@portal/domain/report-card-schemas';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M, REPORT_SHEET_TITLES } from '@portal/domain/report-sheet-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { firstServerMessage } from '../../../lib/errors';
import { currentSubjectNames, useSubjects } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { useReportSettings, useSaveReportSettings } from '../api';
import { issueErrors } from '../../../lib/form-errors';
import { type Form, toForm, toInput, type Errors } from '../settings-model';
import { numbered, TraitList, ImageField } from '../components/settings-fields';
import { TermDates } from '../components/term-dates';

function SettingsForm({ settings }: { settings: ReportSettings }) {
  const [form, setForm] = useState<Form>(() => toForm(settings));
  const [errors, setErrors] = useState<Errors>({});
  const save = useSaveReportSettings();
  const subjects = useSubjects();
  const toast = useToast();
  const update = (f: (x: Form) => Form) => setForm((x) => f(x));
  const subjectNames = [...new Set([...currentSubjectNames(subjects.data), ...form.promotion.required_subjects])];

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = reportSettingsSchema.safeParse(toInput(form));
    if (!parsed.success) {
      setErrors(issueErrors(parsed.error));
      toast.error(parsed.error.issues[0]!.message);
      return;
    }
    setErrors({});
    try {
      // The server answers with what it stored: new traits get their ids, images are normalised.
      setForm(toForm(await save.mutateAsync(parsed.data)));
      toast.success(REPORT_MESSAGES.settingsSaved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setErrors(err.fieldErrors);
      toast.error(firstServerMessage(err) ?? M.saveFailed);
    }
  }

  const promo = (k: 'min_average' | 'trial_average' | 'pass_mark', label: string, hint?: string) => (
    <TextField
      label={label}
      inputMode="decimal"
      value={form.promotion[k]}
      hint={hint}
      error={errors[`promotion.${k}`]}
      onChange={(e) => update((x) => ({ ...x, promotion: { ...x.promotion, [k]: e.target.value } }))}
    />
  );

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5" aria-label={REPORT_SHEET_TITLES.settings}>
      <Card title={L.traits}>
        <div className="grid gap-6 md:grid-cols-2">
          {RATING_DOMAINS.map((d) => (
            <TraitList
              key={d}
              domain={d}
              list={form.traits[d]}
              errors={errors}
              onChange={(l) => update((x) => ({ ...x, traits: { ...x.traits, [d]: l } }))}
            />
          ))}
        </div>
      </Card>
      <Card title={L.ratingLabels}>
        <div className="grid gap-3 sm:grid-cols-5">
          {form.rating_labels.map((l, i) => (
            <TextField
              key={i}
              label={L.ratingLabel(i + 1)}
              value={l}
              error={errors[`rating_labels.${i}`]}
              onChange={(e) => update((x) => ({ ...x, rating_labels: x.rating_labels.map((v, k) => (k === i ? e.target.value : v)) }))}
            />
          ))}
        </div>
        <label className="mt-4 flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 h-5 w-5 shrink-0"
            checked={form.require_comments}
            onChange={(e) => update((x) => ({ ...x, require_comments: e.target.checked }))}
          />
          {L.requireComments}
        </label>
      </Card>
      <Card title={L.promotion}>
        <div className="grid gap-4 sm:grid-cols-3">
          {promo('min_average', L.minAverage)}
          {promo('trial_average', L.trialAverage, L.noTrial)}
          {promo('pass_mark', L.passMark)}
        </div>
        <fieldset className="mt-4">
          <legend className="mb-2 text-sm font-medium text-slate-800">{L.requiredSubjects}</legend>
          <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {subjectNames.map((s) => (
              <label key={s} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  checked={form.promotion.required_subjects.includes(s)}
                  onChange={(e) =>
                    update((x) => ({
                      ...x,
                      promotion: {
                        ...x.promotion,
                        required_subjects: e.target.checked
                          ? [...x.promotion.required_subjects, s]
                          : x.promotion.required_subjects.filter((v) => v !== s),
                      },
                    }))
                  }
                />
                {s}
              </label>
            ))}
          </div>
        </fieldset>
      </Card>
      <Card title={L.commentBank}>
        {!form.comment_bank.length && <EmptyState>{M.bankEmpty}</EmptyState>}
        <ol className="flex flex-col gap-4" data-testid="comment-bank">
          {form.comment_bank.map((c, i) => {
            const set = (patch: Partial<Form['comment_bank'][number]>) =>
              update((x) => ({ ...x, comment_bank: x.comment_bank.map((v, k) => (k === i ? { ...v, ...patch } : v)) }));
            return (
              <li key={i} className="grid gap-2 border-b border-slate-100 pb-3 sm:grid-cols-[10rem_6rem_6rem_1fr_auto] sm:items-end">
                <SelectField
                  label={numbered(L.commentKind, i)}
                  value={c.kind}
                  onChange={(e) => set({ kind: e.target.value as CommentKind })}
                  options={COMMENT_KINDS.map((k) => ({ value: k, label: k === 'form' ? 'Form teacher' : 'Principal' }))}
                />
                <TextField
                  label={numbered(L.bandMin, i)}
                  inputMode="decimal"
                  value={c.min}
                  error={errors[`comment_bank.${i}.min`]}
                  onChange={(e) => set({ min: e.target.value })}
                />
                <TextField
                  label={numbered(L.bandMax, i)}
                  inputMode="decimal"
                  value={c.max}
                  error={errors[`comment_bank.${i}.max`]}
                  onChange={(e) => set({ max: e.target.value })}
                />
                <TextAreaField
                  label={numbered(L.commentText, i)}
                  rows={1}
                  value={c.text}
                  error={errors[`comment_bank.${i}.text`]}
                  onChange={(e) => set({ text: e.target.value })}
                />
                <Button
                  variant="ghost"
                  onClick={() => update((x) => ({ ...x, comment_bank: x.comment_bank.filter((_, k) => k !== i) }))}
                  aria-label={`${L.remove}: comment ${i + 1}`}
                >
                  {L.remove}
                </Button>
              </li>
            );
          })}
        </ol>
        <Button
          variant="secondary"
          className="mt-3"
          onClick={() => update((x) => ({ ...x, comment_bank: [...x.comment_bank, { kind: 'form', min: '0', max: '100', text: '' }] }))}
        >
          {L.addComment}
        </Button>
      </Card>
      <Card title={L.images}>
        <div className="grid gap-4 sm:grid-cols-2">
          <ImageField
            label={L.signature}
            removeLabel={L.removeSignature}
            value={form.signature}
            error={errors.signature}
            onChange={(v) => {
              update((x) => ({ ...x, signature: v }));
              setErrors((e) => ({ ...e, signature: [] }));
            }}
            onError={(m) => setErrors((e) => ({ ...e, signature: [m] }))}
          />
          <ImageField
            label={L.stamp}
            removeLabel={L.removeStamp}
            value={form.stamp}
            error={errors.stamp}
            onChange={(v) => {
              update((x) => ({ ...x, stamp: v }));
              setErrors((e) => ({ ...e, stamp: [] }));
            }}
            onError={(m) => setErrors((e) => ({ ...e, stamp: [m] }))}
          />
        </div>
      </Card>
      <div>
        <Button type="submit" loading={save.isPending}>
          {L.saveSettings}
        </Button>
      </div>
    </form>
  );
}

/** /report-card-settings (admin): what the report card rates, its keys, comment bank, promotion rule, sign-off images and term dates. */
export default function ReportCardSettingsPage() {
  const settings = useReportSettings();
  return (
    <PageLayout title={REPORT_SHEET_TITLES.settings}>
      <div className="flex flex-col gap-5">
        {settings.isPending ? (
          <LoadingBlock />
        ) : settings.isError ? (
          <Alert tone="error">{REPORT_MESSAGES.settingsFailed}</Alert>
        ) : (
          <SettingsForm settings={settings.data} />
        )}
        <TermDates />
      </div>
    </PageLayout>
  );
}
