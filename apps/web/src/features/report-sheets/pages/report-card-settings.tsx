import { useState } from 'react';
import { COMMENT_KINDS, RATING_DOMAINS, REPORT_MESSAGES, type CommentKind } from '@portal/domain/report-card-rules';
import { reportSettingsSchema, type ReportSettingsInput } from '@portal/domain/report-card-schemas';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M, REPORT_SHEET_TITLES } from '@portal/domain/report-sheet-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { firstServerMessage } from '../../../lib/errors';
import { currentSubjectNames, useSubjects } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { type TaggedReportSettings, useReportSettings, useSaveReportSettings } from '../api';
import { useFieldArray, useSchemaFieldForm } from '../../../lib/schema-field-array';
import type { FieldErrors } from '../../../lib/schema-form';
import { CheckboxField, CheckboxList } from '../../../components/ui/checkbox-field';
import { type Form, toForm, toInput } from '../settings-model';
import { numbered, TraitList, ImageField } from '../components/settings-fields';
import { TermDates } from '../components/term-dates';

/** The principal's signature and the school stamp: the two sign-off images the cards print. */
const IMAGES = [
  { name: 'signature', label: L.signature, removeLabel: L.removeSignature },
  { name: 'stamp', label: L.stamp, removeLabel: L.removeStamp },
] as const;

function SettingsForm({ settings, tag: openedWith }: TaggedReportSettings) {
  const form = useSchemaFieldForm<Form>({ defaultValues: toForm(settings), schema: reportSettingsSchema, toBody: toInput });
  // The settings this form shows, by their tag: kept through background refetches, so a save over
  // settings another admin (or a session switch) changed since is refused, not made unseen.
  const [tag, setTag] = useState(openedWith);
  const [stale, setStale] = useState(false);
  const { values, setField, errorOf } = form;
  const bank = useFieldArray({ control: form.control, name: 'comment_bank' });
  const save = useSaveReportSettings();
  const subjects = useSubjects();
  const toast = useToast();
  const required = values.promotion.required_subjects;
  const subjectNames = [...new Set([...currentSubjectNames(subjects.data), ...required])];

  async function onValid(body: unknown) {
    try {
      // The server answers with what it stored: new traits get their ids, images are normalised.
      const saved = await save.mutateAsync({ body: body as ReportSettingsInput, tag });
      form.reset(toForm(saved.settings));
      setTag(saved.tag);
      setStale(false);
      toast.success(REPORT_MESSAGES.settingsSaved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) form.fail(err.fieldErrors);
      if (err instanceof ApiError && err.status === 409) setStale(true);
      toast.error(firstServerMessage(err) ?? M.saveFailed);
    }
  }
  // The first of the schema's messages (the fields show them all).
  const onInvalid = (errors: FieldErrors) => toast.error(Object.values(errors)[0]![0]!);

  const promo = (k: 'min_average' | 'trial_average' | 'pass_mark', label: string, hint?: string) => (
    <TextField
      label={label}
      inputMode="decimal"
      value={values.promotion[k]}
      hint={hint}
      error={errorOf(`promotion.${k}`)}
      onChange={(e) => setField(`promotion.${k}`, e.target.value)}
    />
  );

  return (
    <form
      onSubmit={(e) => void form.submit(onValid, onInvalid)(e)}
      noValidate
      className="flex flex-col gap-5"
      aria-label={REPORT_SHEET_TITLES.settings}
    >
      <Card title={L.traits}>
        <div className="grid gap-6 md:grid-cols-2">
          {RATING_DOMAINS.map((d) => (
            <TraitList key={d} domain={d} form={form} />
          ))}
        </div>
      </Card>
      <Card title={L.ratingLabels}>
        <div className="grid gap-3 sm:grid-cols-5">
          {values.rating_labels.map((l, i) => (
            <TextField
              key={i}
              label={L.ratingLabel(i + 1)}
              value={l}
              error={errorOf(`rating_labels.${i}`)}
              onChange={(e) => setField(`rating_labels.${i}`, e.target.value)}
            />
          ))}
        </div>
        <CheckboxField
          className="mt-4 items-start"
          boxClassName="mt-0.5 h-5 w-5 shrink-0"
          checked={values.require_comments}
          onChange={(on) => setField('require_comments', on)}
          label={L.requireComments}
        />
      </Card>
      <Card title={L.promotion}>
        <div className="grid gap-4 sm:grid-cols-3">
          {promo('min_average', L.minAverage)}
          {promo('trial_average', L.trialAverage, L.noTrial)}
          {promo('pass_mark', L.passMark)}
        </div>
        <fieldset className="mt-4">
          <legend className="mb-2 text-sm font-medium text-slate-800">{L.requiredSubjects}</legend>
          <CheckboxList
            className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3"
            options={subjectNames}
            chosen={required}
            onChange={(list) => setField('promotion.required_subjects', list)}
          />
          {errorOf('promotion.required_subjects') && (
            <p className="mt-2 text-sm text-red-700" role="alert">
              {errorOf('promotion.required_subjects')}
            </p>
          )}
        </fieldset>
      </Card>
      <Card title={L.commentBank}>
        {!bank.fields.length && <EmptyState>{M.bankEmpty}</EmptyState>}
        <ol className="flex flex-col gap-4" data-testid="comment-bank">
          {bank.fields.map(({ id }, i) => {
            const c = values.comment_bank[i]!;
            const text = (k: 'min' | 'max' | 'text') => ({
              value: c[k],
              error: errorOf(`comment_bank.${i}.${k}`),
              onChange: (e: { target: { value: string } }) => setField(`comment_bank.${i}.${k}`, e.target.value),
            });
            return (
              <li key={id} className="grid gap-2 border-b border-slate-100 pb-3 sm:grid-cols-[10rem_6rem_6rem_1fr_auto] sm:items-end">
                <SelectField
                  label={numbered(L.commentKind, i)}
                  value={c.kind}
                  onChange={(e) => setField(`comment_bank.${i}.kind`, e.target.value as CommentKind)}
                  options={COMMENT_KINDS.map((k) => ({ value: k, label: k === 'form' ? 'Form teacher' : 'Principal' }))}
                />
                <TextField label={numbered(L.bandMin, i)} inputMode="decimal" {...text('min')} />
                <TextField label={numbered(L.bandMax, i)} inputMode="decimal" {...text('max')} />
                <TextAreaField label={numbered(L.commentText, i)} rows={1} {...text('text')} />
                <Button variant="ghost" onClick={() => bank.remove(i)} aria-label={`${L.remove}: comment ${i + 1}`}>
                  {L.remove}
                </Button>
              </li>
            );
          })}
        </ol>
        <Button
          variant="secondary"
          className="mt-3"
          onClick={() => bank.append({ kind: 'form', min: '0', max: '100', text: '' }, { shouldFocus: false })}
        >
          {L.addComment}
        </Button>
      </Card>
      <Card title={L.images}>
        <div className="grid gap-4 sm:grid-cols-2">
          {IMAGES.map(({ name, label, removeLabel }) => (
            <ImageField
              key={name}
              label={label}
              removeLabel={removeLabel}
              value={values[name]}
              error={errorOf(name)}
              onChange={(v) => setField(name, v)}
              onError={(m) => form.fail({ [name]: [m] }, { keep: true })}
            />
          ))}
        </div>
      </Card>
      {stale && (
        <Alert tone="error">
          <p>{REPORT_MESSAGES.settingsChangedMeanwhile}</p>
          <Button variant="secondary" className="mt-2" onClick={() => window.location.reload()}>
            {L.reload}
          </Button>
        </Alert>
      )}
      <div>
        <SaveCancel label={L.saveSettings} busy={save.isPending} />
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
        <p className="text-sm text-slate-700">{M.settingsOfCurrentSession}</p>
        {settings.isPending ? (
          <LoadingBlock />
        ) : settings.isError ? (
          <Alert tone="error">{REPORT_MESSAGES.settingsFailed}</Alert>
        ) : (
          <SettingsForm {...settings.data} />
        )}
        <TermDates />
      </div>
    </PageLayout>
  );
}
