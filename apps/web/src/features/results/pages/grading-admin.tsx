import { useEffect, useState } from 'react';
import { scaleProblems, type GradeBandInput } from '@portal/domain/grading';
import { RESULT_ADMIN_MESSAGES, RESULT_MESSAGES } from '@portal/domain/result-messages';
import { type GradingScaleResponse } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import { previewScale, useGradingScales, useSaveScale } from '../api';
import { QueryView } from '../../../components/ui/query-view';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';

interface BandForm {
  grade: string;
  min: string;
  remark: string;
}

function ScaleEditor({ scale }: { scale: GradingScaleResponse }) {
  const save = useSaveScale();
  const toast = useToast();
  const [bands, setBands] = useState<BandForm[]>(() => scale.bands.map((b) => ({ grade: b.grade, min: String(b.min), remark: b.remark })));
  const [problems, setProblems] = useState<string[]>([]);
  const [pending, setPending] = useState<{ input: GradeBandInput[]; text: string } | null>(null);
  useEffect(() => setBands(scale.bands.map((b) => ({ grade: b.grade, min: String(b.min), remark: b.remark }))), [scale]);

  const set = (i: number, patch: Partial<BandForm>) => setBands((bs) => bs.map((b, k) => (k === i ? { ...b, ...patch } : b)));
  // Which band a field is in, for screen readers (every band has the same three fields).
  const which = (i: number) => (
    <span className="sr-only">
      {' '}
      {scale.level} band {i + 1}
    </span>
  );

  async function onSave() {
    const input: GradeBandInput[] = bands.map((b) => ({ grade: b.grade.trim(), min: Number(b.min), remark: b.remark.trim() }));
    const found = [
      ...scaleProblems(input),
      ...(input.some((b) => !b.grade) ? [RESULT_ADMIN_MESSAGES.gradeRequired] : []),
      ...(input.some((b) => !b.remark) ? [RESULT_ADMIN_MESSAGES.remarkRequired] : []),
      ...(bands.some((b) => b.min.trim() === '' || Number.isNaN(Number(b.min))) ? [RESULT_ADMIN_MESSAGES.bandStartRange] : []),
    ];
    setProblems([...new Set(found)]);
    if (found.length) return;
    try {
      // Show how many grades of the current session change, and ask before applying.
      const preview = await previewScale(scale.level, input);
      if (preview.changes > 0) {
        setPending({
          input,
          text: RESULT_MESSAGES.regradeNeedsConfirm(preview.changes, preview.released_changes, preview.session_name ?? ''),
        });
        return;
      }
      await apply(input, false);
    } catch (err) {
      setProblems(err instanceof ApiError ? Object.values(err.fieldErrors).flat() : [RESULT_ADMIN_MESSAGES.scaleSaveFailed]);
    }
  }

  async function apply(input: GradeBandInput[], confirm: boolean) {
    try {
      const out = await save.mutateAsync({ level: scale.level, bands: input, confirm });
      setPending(null);
      toast.success(out.message);
    } catch (err) {
      setPending(null);
      setProblems(
        err instanceof ApiError
          ? [err.detail ?? '', ...Object.values(err.fieldErrors).flat()].filter(Boolean)
          : [RESULT_ADMIN_MESSAGES.scaleSaveFailed],
      );
    }
  }

  return (
    <Card title={`${scale.level === 'JSS' ? 'Junior (JSS)' : 'Senior (SSS)'} scale${scale.is_default ? ' — default' : ''}`}>
      <p className="mb-3 text-sm text-slate-600">
        Each band runs from its lowest score up to just below the next band. The lowest band starts at 0.
        {scale.session_name && ` This scale grades ${scale.session_name}; past sessions keep their own.`}
      </p>
      <div className="flex flex-col gap-3">
        {bands.map((b, i) => (
          <fieldset key={i} className="grid grid-cols-[4.5rem_5.5rem_1fr_auto] items-end gap-2">
            <legend className="sr-only">{`Band ${i + 1}`}</legend>
            <TextField label={<>Grade{which(i)}</>} value={b.grade} maxLength={5} onChange={(e) => set(i, { grade: e.target.value })} />
            <TextField
              label={<>From{which(i)}</>}
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              value={b.min}
              onChange={(e) => set(i, { min: e.target.value })}
            />
            <TextField label={<>Remark{which(i)}</>} value={b.remark} maxLength={40} onChange={(e) => set(i, { remark: e.target.value })} />
            <Button
              variant="ghost"
              onClick={() => setBands((bs) => bs.filter((_, k) => k !== i))}
              aria-label={`Remove ${scale.level} band ${i + 1}`}
              disabled={bands.length === 1}
            >
              ✕
            </Button>
          </fieldset>
        ))}
      </div>
      {problems.length > 0 && (
        <Alert tone="error" className="mt-3">
          {problems.join('\n')}
        </Alert>
      )}
      {pending && (
        <ConfirmPanel
          label={`Confirm the ${scale.level} scale change`}
          confirm="Apply and regrade"
          loading={save.isPending}
          onConfirm={() => void apply(pending.input, true)}
          onCancel={() => setPending(null)}
        >
          {pending.text}
        </ConfirmPanel>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => setBands((bs) => [...bs, { grade: '', min: '', remark: '' }])}>
          Add band
        </Button>
        <Button loading={save.isPending} onClick={() => void onSave()}>
          Save {scale.level} scale
        </Button>
      </div>
    </Card>
  );
}

/** /grading-scales (admin): the grading scale of each level; saving regrades that level's results. */
export default function GradingAdminPage() {
  const scales = useGradingScales();
  return (
    <PageLayout title="Grading Scales">
      <QueryView query={scales} messages={RESULT_ADMIN_MESSAGES.scalesFailed}>
        {(data) => (
          <div className="grid gap-5 lg:grid-cols-2">
            {data.map((s) => (
              <ScaleEditor key={s.level} scale={s} />
            ))}
          </div>
        )}
      </QueryView>
    </PageLayout>
  );
}
