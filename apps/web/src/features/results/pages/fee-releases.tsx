import { useState, type FormEvent } from 'react';
import { FEE_GATE_MESSAGES, type CardFeeRelease } from '@portal/domain/card-fee-gate';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { SubmitButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { RowTable, type Column } from '../../../components/ui/row-table';
import { LoadingBlock } from '../../../components/ui/spinner';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/datetime';
import { useToast } from '../../../lib/toast';
import { useCardFeeReleases, useReleaseCardFees } from '../api';

const COLUMNS: Column<CardFeeRelease>[] = [
  { label: 'Student', cell: (r) => `${r.student_name} (${r.admission_number})` },
  { label: 'Class', cell: (r) => r.student_class },
  { label: 'Term', cell: (r) => r.term },
  { label: 'Reason', cell: (r) => r.reason },
  { label: 'Opened by', cell: (r) => r.created_by },
  { label: 'When', cell: (r) => formatDateTime(r.created_at) },
];

/** /fee-releases: the admin's and the bursar's cards opened regardless of fees (decision 042), and opening one. */
export default function FeeReleasesPage() {
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const list = useCardFeeReleases(sessionId, term);
  const release = useReleaseCardFees();
  const toast = useToast();
  const [form, setForm] = useState({ admission: '', reason: '' });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const next: Record<string, string | undefined> = {};
    if (!form.admission.trim()) next.admission_number = 'Admission number is required';
    if (!form.reason.trim()) next.reason = FEE_GATE_MESSAGES.reasonRequired;
    if (!sessionId || !term) next.term = 'Choose the session and the term';
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    try {
      await release.mutateAsync({
        admission_number: form.admission.trim().toUpperCase(),
        session_id: Number(sessionId),
        term: term as '1st',
        reason: form.reason.trim(),
      });
      toast.success(FEE_GATE_MESSAGES.released);
      setForm({ admission: '', reason: '' });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) {
        const f = err.fieldErrors;
        setErrors({ admission_number: f.admission_number?.[0], reason: f.reason?.[0], term: f.term?.[0] ?? f.session_id?.[0] });
      } else
        setErrors({
          reason: err instanceof ApiError ? (err.detail ?? FEE_GATE_MESSAGES.reasonRequired) : FEE_GATE_MESSAGES.reasonRequired,
        });
    }
  }

  return (
    <PageLayout title={FEE_GATE_MESSAGES.releasesTitle}>
      <Card className="mb-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <SessionTermFields
            openOnCurrentTerm
            sessionId={sessionId}
            term={term}
            onSession={setSessionId}
            onTerm={setTerm}
            errors={{ term: errors.term }}
          />
        </div>
      </Card>
      <Card className="mb-5" title={FEE_GATE_MESSAGES.releaseTitle}>
        <form className="grid gap-4 sm:grid-cols-[12rem_1fr_auto] sm:items-end" onSubmit={(e) => void onSubmit(e)} noValidate>
          <TextField
            label="Admission Number"
            name="admission_number"
            required
            value={form.admission}
            error={errors.admission_number}
            onChange={(e) => setForm((f) => ({ ...f, admission: e.target.value.toUpperCase() }))}
          />
          <TextField
            label="Reason"
            name="reason"
            required
            maxLength={300}
            value={form.reason}
            error={errors.reason}
            onChange={(e) => setForm((f) => ({ ...f, reason: e.target.value }))}
          />
          <SubmitButton busy={release.isPending} busyLabel="Opening...">
            Open this card
          </SubmitButton>
        </form>
      </Card>
      {list.isPending && sessionId && <LoadingBlock />}
      {list.isError && (
        <Alert tone="error">{list.error instanceof ApiError ? (list.error.detail ?? 'Failed to load') : 'Failed to load'}</Alert>
      )}
      {list.data && list.data.length === 0 && <Alert tone="info">{FEE_GATE_MESSAGES.noReleases}</Alert>}
      {list.data && list.data.length > 0 && (
        <Card>
          <RowTable columns={COLUMNS} rows={list.data} rowKey={(r) => r.id} testId="fee-releases" />
        </Card>
      )}
    </PageLayout>
  );
}
