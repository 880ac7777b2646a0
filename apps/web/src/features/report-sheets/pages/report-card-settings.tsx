import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { TERMS } from '@portal/domain/constants';
import {
  COMMENT_KINDS,
  MAX_TRAITS_PER_DOMAIN,
  RATING_DOMAIN_LABELS,
  RATING_DOMAINS,
  REPORT_MESSAGES,
  type CommentKind,
  type RatingDomain,
} from '@portal/domain/report-card-rules';
import { reportSettingsSchema, reportTermSchema, type ReportSettings, type ReportTerm } from '@portal/domain/report-card-schemas';
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
import { useReportSettings, useReportTerms, useSaveReportSettings, useSaveReportTerm } from '../api';
import { useSessions } from '../../../lib/school-calendar';
import { SessionSelect } from '../../../components/school/session-select';
import { issueErrors } from '../../../lib/form-errors';

/** The form as typed: numbers as text until saved. */
interface Form {
  traits: Record<RatingDomain, { id?: string; name: string }[]>;
  rating_labels: string[];
  require_comments: boolean;
  promotion: { min_average: string; trial_average: string; pass_mark: string; required_subjects: string[] };
  comment_bank: { kind: CommentKind; min: string; max: string; text: string }[];
  signature: string;
  stamp: string;
}

function toForm(s: ReportSettings): Form {
  return {
    traits: { affective: s.traits.affective.map((t) => ({ ...t })), psychomotor: s.traits.psychomotor.map((t) => ({ ...t })) },
    rating_labels: [...s.rating_labels],
    require_comments: s.require_comments,
    promotion: {
      min_average: String(s.promotion.min_average),
      trial_average: s.promotion.trial_average === null ? '' : String(s.promotion.trial_average),
      pass_mark: String(s.promotion.pass_mark),
      required_subjects: [...s.promotion.required_subjects],
    },
    comment_bank: s.comment_bank.map((c) => ({ kind: c.kind, min: String(c.min), max: String(c.max), text: c.text })),
    signature: s.signature,
    stamp: s.stamp,
  };
}

/** A typed number: '' and text that is not a number are sent as NaN, which the schema refuses with its message. */
const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));

function toInput(f: Form): unknown {
  return {
    ...f,
    promotion: {
      min_average: num(f.promotion.min_average),
      trial_average: f.promotion.trial_average.trim() === '' ? null : num(f.promotion.trial_average),
      pass_mark: num(f.promotion.pass_mark),
      required_subjects: f.promotion.required_subjects,
    },
    comment_bank: f.comment_bank.map((c) => ({ ...c, min: num(c.min), max: num(c.max) })),
  };
}

type Errors = Record<string, string[]>;

/** A bank field's label as shown, with the comment's number for screen readers (every comment has the same fields). */
function numbered(label: string, i: number) {
  return (
    <>
      {label}
      <span className="sr-only"> ({i + 1})</span>
    </>
  );
}

const MAX_IMAGE = 2_000_000;

function TraitList({
  domain,
  list,
  errors,
  onChange,
}: {
  domain: RatingDomain;
  list: Form['traits'][RatingDomain];
  errors: Errors;
  onChange: (l: Form['traits'][RatingDomain]) => void;
}) {
  const [adding, setAdding] = useState('');
  const title = RATING_DOMAIN_LABELS[domain];
  const move = (i: number, d: number) => {
    const next = [...list];
    [next[i], next[i + d]] = [next[i + d]!, next[i]!];
    onChange(next);
  };
  const listError = errors[`traits.${domain}`];
  return (
    <section aria-labelledby={`traits-${domain}`} className="flex flex-col gap-2" data-testid={`traits-${domain}`}>
      <h3 id={`traits-${domain}`} className="font-semibold">
        {title}
      </h3>
      {!list.length && <p className="text-sm text-slate-600">{M.traitsEmpty}</p>}
      <ol className="flex flex-col gap-2">
        {list.map((t, i) => (
          <li key={t.id ?? `new-${i}`} className="flex flex-wrap items-end gap-1">
            <div className="min-w-40 flex-1">
              <TextField
                label={`${title}: trait ${i + 1}`}
                value={t.name}
                error={errors[`traits.${domain}.${i}.name`]}
                onChange={(e) => onChange(list.map((x, k) => (k === i ? { ...x, name: e.target.value } : x)))}
              />
            </div>
            <Button
              variant="ghost"
              className="px-2"
              disabled={i === 0}
              onClick={() => move(i, -1)}
              aria-label={`${L.moveUp}: ${t.name || i + 1}`}
            >
              ↑
            </Button>
            <Button
              variant="ghost"
              className="px-2"
              disabled={i === list.length - 1}
              onClick={() => move(i, 1)}
              aria-label={`${L.moveDown}: ${t.name || i + 1}`}
            >
              ↓
            </Button>
            <Button
              variant="ghost"
              className="px-2"
              onClick={() => onChange(list.filter((_, k) => k !== i))}
              aria-label={`${L.remove}: ${t.name || i + 1}`}
            >
              ✕
            </Button>
          </li>
        ))}
      </ol>
      {listError && (
        <p className="text-sm text-red-700" role="alert">
          {listError[0]}
        </p>
      )}
      {list.length < MAX_TRAITS_PER_DOMAIN && (
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-40 flex-1">
            <TextField label={`${L.newTrait} (${title.toLowerCase()})`} value={adding} onChange={(e) => setAdding(e.target.value)} />
          </div>
          <Button
            variant="secondary"
            disabled={!adding.trim()}
            onClick={() => {
              onChange([...list, { name: adding.trim() }]);
              setAdding('');
            }}
          >
            {L.addTrait}
          </Button>
        </div>
      )}
    </section>
  );
}

function ImageField({
  label,
  removeLabel,
  value,
  error,
  onChange,
  onError,
}: {
  label: string;
  removeLabel: string;
  value: string;
  error: string[] | undefined;
  onChange: (v: string) => void;
  onError: (m: string) => void;
}) {
  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_IMAGE) return onError(M.imageTooLarge);
    if (!['image/png', 'image/jpeg'].includes(file.type)) return onError(REPORT_MESSAGES.imageInvalid);
    const reader = new FileReader();
    reader.onload = () => onChange(typeof reader.result === 'string' ? reader.result : '');
    reader.readAsDataURL(file);
  }
  return (
    <div className="flex flex-col gap-2">
      <TextField label={label} type="file" accept="image/png,image/jpeg" onChange={onFile} error={error} />
      {value && (
        <div className="flex items-center gap-3">
          <img src={value} alt={`Current: ${label.split(' (')[0]}`} className="h-14 w-28 rounded border object-contain" />
          <Button variant="ghost" onClick={() => onChange('')}>
            {removeLabel}
          </Button>
        </div>
      )}
    </div>
  );
}

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

function TermRow({ sessionId, value }: { sessionId: number; value: ReportTerm }) {
  const [begins, setBegins] = useState(value.next_term_begins ?? '');
  const [opened, setOpened] = useState(value.times_opened === null ? '' : String(value.times_opened));
  const [errors, setErrors] = useState<Errors>({});
  const save = useSaveReportTerm();
  const toast = useToast();
  const label = TERMS.find((t) => t.value === value.term)?.label ?? value.term;
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = reportTermSchema.safeParse({
      session_id: sessionId,
      term: value.term,
      next_term_begins: begins.trim() || null,
      times_opened: opened.trim() === '' ? null : num(opened),
    });
    if (!parsed.success) {
      return setErrors(issueErrors(parsed.error, { depth: 1 }));
    }
    setErrors({});
    try {
      await save.mutateAsync(parsed.data);
      toast.success(REPORT_MESSAGES.termSaved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setErrors(err.fieldErrors);
      toast.error(firstServerMessage(err) ?? M.saveFailed);
    }
  }
  return (
    <form
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label={`${L.termDates}: ${label}`}
      className="grid gap-3 border-b border-slate-100 pb-4 sm:grid-cols-[8rem_1fr_1fr_auto] sm:items-end"
      data-testid={`term-${value.term}`}
    >
      <p className="font-medium">{label}</p>
      <TextField
        label={`${L.nextTermBegins} (${label})`}
        type="date"
        value={begins}
        onChange={(e) => setBegins(e.target.value)}
        error={errors.next_term_begins}
      />
      <TextField
        label={`${L.timesOpened} (${label})`}
        hint={L.timesOpenedHint}
        inputMode="numeric"
        value={opened}
        onChange={(e) => setOpened(e.target.value)}
        error={errors.times_opened}
      />
      <Button type="submit" variant="secondary" loading={save.isPending}>
        {L.saveTerm}
      </Button>
    </form>
  );
}

function TermDates() {
  const sessions = useSessions();
  const [sessionId, setSessionId] = useState('');
  useEffect(() => {
    if (!sessionId && sessions.data?.length) setSessionId(String((sessions.data.find((s) => s.is_current) ?? sessions.data[0])!.id));
  }, [sessionId, sessions.data]);
  const id = Number(sessionId) || null;
  const terms = useReportTerms(id);
  return (
    <Card title={L.termDates}>
      <div className="mb-4 sm:w-72">
        <SessionSelect label={L.session} value={sessionId} onChange={(e) => setSessionId(e.target.value)} />
      </div>
      {terms.isPending && id ? (
        <LoadingBlock />
      ) : terms.isError ? (
        <Alert tone="error">{M.loadFailed}</Alert>
      ) : (
        <div className="flex flex-col gap-4">
          {(terms.data ?? []).map((t) => (
            <TermRow key={`${sessionId}|${t.term}|${t.next_term_begins}|${t.times_opened}`} sessionId={id!} value={t} />
          ))}
        </div>
      )}
    </Card>
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
