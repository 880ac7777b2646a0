import { useEffect, useId, useState } from 'react';
import {
  ASSESSMENT_MESSAGES,
  isStructuralChange,
  MAX_COMPONENTS,
  SCHEME_CONFIRM_CODE,
  SCHEME_LOCKED_CODE,
  SCHEME_PRESETS,
  type AssessmentComponent,
  type AssessmentScheme,
} from '@portal/domain/assessment';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { ApiError } from '../../../lib/api-client';
import { errorCode } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { currentSessionId, useSessions } from '../../../lib/school-calendar';
import { previewScheme, useAssessmentSchemes, useSaveScheme } from '../assessment-api';
import { SessionSelect } from '../../../components/school/session-select';
import { useFieldArray, useSchemaFieldForm } from '../../../lib/schema-field-array';
import {
  SCHEME_PROBLEMS,
  schemeFormErrors,
  schemeFormSchema,
  schemeRowOf,
  type SchemeFormValues,
  type SchemeRow,
} from '../forms/scheme-form';

/** Where a save's problems are kept: the local check's, the preview's refusal, the server's. */
const PROBLEMS = 'root.problems';
const formOf = (scheme: AssessmentScheme): SchemeFormValues => ({ rows: scheme.components.map(schemeRowOf), precision: scheme.precision });
const BLANK_ROW: SchemeRow = { name: '', label: '', max: '' };

const LEVEL_NAMES = { JSS: 'Junior (JSS)', SSS: 'Senior (SSS)' } as const;

function SchemeEditor({ scheme }: { scheme: AssessmentScheme }) {
  const save = useSaveScheme();
  const toast = useToast();
  const headingId = useId();
  const { level } = scheme;
  const form = useSchemaFieldForm<SchemeFormValues>({ defaultValues: formOf(scheme), schema: schemeFormSchema, toBody: (v) => v });
  const { values, setField, clearErrors, fail, errorOf, reset } = form;
  const { fields, swap, remove, append, replace: replaceRows } = useFieldArray({ control: form.control, name: 'rows' });
  const { rows, precision } = values;
  const tried = form.formState.isSubmitted;
  const problems = errorOf(PROBLEMS) ?? [];
  const [pending, setPending] = useState<{ components: AssessmentComponent[]; text: string } | null>(null);
  useEffect(() => {
    reset(formOf(scheme));
    setPending(null);
  }, [scheme, reset]);

  // Component scores exist: the structure is fixed for the session, names stay editable.
  const locked = scheme.component_results > 0;
  const sum = rows.reduce((a, r) => a + (Number(r.max) || 0), 0);
  // The scheme's problems show as it is typed; a row's, once it is typed into or a save was tried.
  const checked = schemeFormErrors(values);
  const live = checked[SCHEME_PROBLEMS] ?? [];

  const edit = (i: number, field: keyof SchemeRow, value: string) => {
    setField(`rows.${i}.${field}`, value);
    clearErrors(PROBLEMS);
    setPending(null);
  };
  /** A change of the list (a preset, a row added or removed): the last save's problems no longer hold. */
  const change = (apply: () => void) => {
    apply();
    clearErrors(PROBLEMS);
    setPending(null);
  };

  const onSave = form.submit(
    async (body) => {
      setPending(null);
      const { components } = body as { components: AssessmentComponent[] };
      const unchanged =
        !scheme.is_default &&
        !isStructuralChange(scheme.components, components) &&
        precision === scheme.precision &&
        scheme.components.every((c, i) => c.name === components[i]!.name);
      if (unchanged) {
        toast.info(ASSESSMENT_MESSAGES.schemeUnchanged);
        return;
      }
      try {
        // Say what the change does to results already entered, and ask before applying.
        const preview = await previewScheme(level, { session_id: scheme.session_id ?? undefined, components, precision });
        if (preview.refused) {
          fail({ [PROBLEMS]: [ASSESSMENT_MESSAGES.schemeLocked(preview.component_results, level, preview.session_name)] });
          return;
        }
        if (preview.structural && preview.total_only_results > 0) {
          setPending({ components, text: ASSESSMENT_MESSAGES.schemeNeedsConfirm(preview.total_only_results, level, preview.session_name) });
          return;
        }
        await apply(components, false);
      } catch (err) {
        fail({ [PROBLEMS]: failure(err) });
      }
    },
    // Every problem once: the scheme's, then each row's.
    (errs) => {
      setPending(null);
      fail({ [PROBLEMS]: [...new Set(Object.values(errs).flatMap((list) => list ?? []))] });
    },
  );

  async function apply(input: AssessmentComponent[], confirm: boolean) {
    try {
      const out = await save.mutateAsync({
        level,
        input: { session_id: scheme.session_id ?? undefined, components: input, precision, ...(confirm ? { confirm: true } : {}) },
      });
      setPending(null);
      toast.success(out.message);
    } catch (err) {
      setPending(null);
      // Results entered as one total appeared since the preview: the server asks, in its words.
      if (errorCode(err) === SCHEME_CONFIRM_CODE && err instanceof ApiError && err.detail) {
        setPending({ components: input, text: err.detail });
        return;
      }
      fail({ [PROBLEMS]: failure(err) });
    }
  }

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={headingId} className="mb-1">
        {LEVEL_NAMES[level]}
      </h2>
      <p className="mb-3 text-sm text-slate-600" data-testid={`scheme-counts-${level}`}>
        {scheme.is_default && `${ASSESSMENT_MESSAGES.schemeDefault} `}
        {ASSESSMENT_MESSAGES.schemeCounts(scheme.component_results, scheme.total_only_results)}
      </p>
      {locked && (
        <Alert tone="info" className="mb-3">
          {ASSESSMENT_MESSAGES.schemeLocked(scheme.component_results, level, scheme.session_name ?? '')}
        </Alert>
      )}
      {!locked && (
        <div className="mb-3">
          <p className="mb-1 text-sm font-medium text-slate-800">{ASSESSMENT_MESSAGES.schemePresets}</p>
          <div className="flex flex-wrap gap-2">
            {SCHEME_PRESETS.map((p) => (
              <Button
                key={p.name}
                variant="secondary"
                className="min-h-9 px-3 py-1 text-xs"
                onClick={() => change(() => replaceRows(p.components.map(schemeRowOf)))}
              >
                {p.name}
              </Button>
            ))}
          </div>
        </div>
      )}
      <ol className="flex flex-col gap-3" aria-label={`${level} components`}>
        {fields.map((row, i) => {
          const r = rows[i] ?? BLANK_ROW;
          const shown = (f: keyof SchemeRow) => (tried || r[f] !== '' ? checked[`rows.${i}.${f}`]?.[0] : undefined);
          const which = (
            <span className="sr-only">
              {' '}
              {level} component {i + 1}
            </span>
          );
          return (
            <li key={row.id}>
              <fieldset className="grid grid-cols-2 items-start gap-2 rounded-lg border border-slate-200 p-2 sm:grid-cols-[minmax(0,1fr)_7rem_6rem]">
                <legend className="sr-only">{`${level} component ${i + 1}`}</legend>
                <div className="col-span-2 sm:col-span-1">
                  <TextField
                    label={<>Name{which}</>}
                    value={r.name}
                    maxLength={40}
                    onChange={(e) => edit(i, 'name', e.target.value)}
                    error={shown('name')}
                  />
                </div>
                <TextField
                  label={<>Short label{which}</>}
                  value={r.label}
                  maxLength={8}
                  readOnly={locked}
                  className="read-only:bg-slate-100 read-only:text-slate-700"
                  onChange={(e) => edit(i, 'label', e.target.value)}
                  error={shown('label')}
                />
                <TextField
                  label={<>Maximum{which}</>}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={100}
                  value={r.max}
                  readOnly={locked}
                  className="read-only:bg-slate-100 read-only:text-slate-700"
                  onChange={(e) => edit(i, 'max', e.target.value)}
                  error={shown('max')}
                />
                {!locked && (
                  <div className="col-span-2 flex justify-end gap-1 sm:col-span-3">
                    <Button
                      variant="ghost"
                      className="min-h-9 px-2"
                      disabled={i === 0}
                      onClick={() => swap(i, i - 1)}
                      aria-label={`Move ${level} component ${i + 1} up`}
                    >
                      ↑
                    </Button>
                    <Button
                      variant="ghost"
                      className="min-h-9 px-2"
                      disabled={i === rows.length - 1}
                      onClick={() => swap(i, i + 1)}
                      aria-label={`Move ${level} component ${i + 1} down`}
                    >
                      ↓
                    </Button>
                    <Button
                      variant="ghost"
                      className="min-h-9 px-2"
                      disabled={rows.length === 1}
                      onClick={() => change(() => remove(i))}
                      aria-label={`Remove ${level} component ${i + 1}`}
                    >
                      ✕
                    </Button>
                  </div>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      <p className="mt-3 text-sm font-medium tabular-nums" data-testid={`scheme-sum-${level}`} aria-live="polite">
        {ASSESSMENT_MESSAGES.schemeSum(sum)}
      </p>
      {live.length > 0 && (
        <Alert tone="error" className="mt-2">
          {live.join('\n')}
        </Alert>
      )}
      <fieldset className="mt-3" disabled={locked}>
        <legend className="mb-1 text-sm font-medium text-slate-800">{ASSESSMENT_MESSAGES.schemePrecisionLabel}</legend>
        <div className="flex flex-col gap-1 text-sm sm:flex-row sm:gap-4">
          {(
            [
              ['one_decimal', ASSESSMENT_MESSAGES.precisionOneDecimal],
              ['whole', ASSESSMENT_MESSAGES.precisionWhole],
            ] as const
          ).map(([value, text]) => (
            <label key={value} className="flex min-h-9 items-center gap-2">
              <input
                type="radio"
                name={`precision-${level}`}
                value={value}
                checked={precision === value}
                onChange={() => {
                  setField('precision', value);
                  clearErrors(PROBLEMS);
                }}
              />
              {text}
            </label>
          ))}
        </div>
      </fieldset>
      {problems.filter((p) => !live.includes(p)).length > 0 && (
        <Alert tone="error" className="mt-3">
          {problems.filter((p) => !live.includes(p)).join('\n')}
        </Alert>
      )}
      {pending && (
        <ConfirmPanel
          label={`Confirm the ${level} scheme change`}
          confirm="Confirm"
          loading={save.isPending}
          onConfirm={() => void apply(pending.components, true)}
          onCancel={() => setPending(null)}
        >
          {pending.text}
        </ConfirmPanel>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {!locked && (
          <Button
            variant="secondary"
            disabled={rows.length >= MAX_COMPONENTS}
            onClick={() => change(() => append(BLANK_ROW, { shouldFocus: false }))}
          >
            Add component
          </Button>
        )}
        <Button loading={save.isPending} onClick={() => void onSave()}>
          Save {level} scheme
        </Button>
      </div>
    </section>
  );
}

/** What a refused save says: the server's detail (locked, confirmation) or its field messages. */
function failure(err: unknown): string[] {
  if (!(err instanceof ApiError)) return [ASSESSMENT_MESSAGES.schemeSaveFailed];
  if (errorCode(err) === SCHEME_LOCKED_CODE && err.detail) return [err.detail];
  const out = [err.detail ?? '', ...Object.values(err.fieldErrors).flat()].filter(Boolean);
  return out.length ? [...new Set(out)] : [ASSESSMENT_MESSAGES.schemeSaveFailed];
}

/** /assessment-schemes (admin): each level's components for a session (CA1, CA2, Exam...). */
export default function AssessmentSchemesPage() {
  const sessions = useSessions();
  const [picked, setPicked] = useState('');
  const sessionId = picked || currentSessionId(sessions.data);
  const schemes = useAssessmentSchemes(sessionId, !!sessionId);
  const sessionName = schemes.data?.[0]?.session_name;
  return (
    <PageLayout title="Assessment Schemes">
      <Card className="mb-5">
        <div className="grid gap-2 sm:max-w-xs">
          <SessionSelect label="Academic Session" value={sessionId} onChange={(e) => setPicked(e.target.value)} placeholder={false} />
        </div>
        {sessionName && <p className="mt-2 text-sm text-slate-600">{ASSESSMENT_MESSAGES.schemeSessionHint(sessionName)}</p>}
      </Card>
      <QueryView query={schemes} messages={ASSESSMENT_MESSAGES.schemesFailed}>
        {(data) => (
          <div className="grid gap-5 lg:grid-cols-2">
            {data.map((s) => (
              <SchemeEditor key={`${s.session_id}-${s.level}`} scheme={s} />
            ))}
          </div>
        )}
      </QueryView>
    </PageLayout>
  );
}
