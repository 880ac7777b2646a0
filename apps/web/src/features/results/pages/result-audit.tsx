import { useState, type FormEvent } from 'react';
import { termLabel } from '@portal/domain/constants';
import { RESULT_ADMIN_MESSAGES } from '@portal/domain/result-messages';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { firstServerMessage } from '../../../lib/errors';
import { useAudit, sameQuery } from '../api';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { FormError } from '../components/form-error';
import { formatDateTime } from '../../../lib/datetime';
import { allClassNames, useClasses } from '../../../lib/school-lists';
import { HeaderRow, ScrollTable } from '../../../components/ui/scroll-table';

const ACTION_LABEL = { create: 'Created', update: 'Changed', delete: 'Deleted', regrade: 'Regraded' } as const;
const v = (x: number | string | null) => (x === null || x === '' ? '–' : String(x));

/** /result-audit (admin): every score created, changed or deleted, per student or per class. */
export default function ResultAuditPage() {
  const [admission, setAdmission] = useState('');
  const [arm, setArm] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const [asked, setAsked] = useState<Parameters<typeof useAudit>[0]>(null);
  const audit = useAudit(asked);
  const arms = useClasses();
  const rows = audit.isError ? null : (audit.data ?? null);
  const error = audit.isError ? (firstServerMessage(audit.error) ?? RESULT_ADMIN_MESSAGES.historyFailed) : '';

  function load(e: FormEvent) {
    e.preventDefault();
    const next = {
      admission_number: admission.trim() || undefined,
      student_class: arm || undefined,
      session_id: sessionId || undefined,
      term: term || undefined,
    };
    if (sameQuery(asked, next)) void audit.refetch();
    else setAsked(next);
  }

  return (
    <PageLayout title="Result History" width="max-w-6xl">
      <Card className="mb-5">
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end" onSubmit={load} noValidate>
          <TextField label="Admission Number" value={admission} onChange={(e) => setAdmission(e.target.value.toUpperCase())} />
          <SelectField
            label="Class"
            value={arm}
            onChange={(e) => setArm(e.target.value)}
            placeholder="Any class"
            options={allClassNames(arms.data)}
          />
          {/* The current session is preselected; "Select session" still shows every session. */}
          <SessionTermFields sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
          <Button type="submit" loading={audit.isFetching} className="lg:col-span-5 lg:justify-self-start">
            Show History
          </Button>
        </form>
        <FormError message={error} />
      </Card>
      {rows && rows.length === 0 && <EmptyState>{RESULT_ADMIN_MESSAGES.noHistory}</EmptyState>}
      {rows && rows.length > 0 && (
        <Card>
          <ScrollTable label="Result history" tableClassName="w-full min-w-[48rem] border-collapse text-sm">
            <HeaderRow
              rowClassName="border-b-2 border-slate-300 text-left"
              cellClassName="p-2"
              labels={['When', 'Who', 'Action', 'Student', 'Term', 'Subject', 'Old', 'New']}
            />
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-b border-slate-100 align-top">
                  <td className="p-2 whitespace-nowrap">{formatDateTime(r.created_at)}</td>
                  <td className="p-2">{r.actor ?? '–'}</td>
                  <td className="p-2">
                    {ACTION_LABEL[r.action]}
                    {r.reason && <span className="block text-xs text-slate-600">Reason: {r.reason}</span>}
                  </td>
                  <td className="p-2">
                    {r.student_name} <span className="text-slate-500">{r.admission_number}</span>
                  </td>
                  <td className="p-2">
                    {r.student_class} · {termLabel(r.term)} {r.session_name}
                  </td>
                  <td className="p-2">{r.subject}</td>
                  <td className="p-2">
                    {v(r.old_score)} {r.old_grade && `(${r.old_grade})`}{' '}
                    {r.old_remarks && <span className="block text-xs text-slate-600">{r.old_remarks}</span>}
                  </td>
                  <td className="p-2">
                    {v(r.new_score)} {r.new_grade && `(${r.new_grade})`}{' '}
                    {r.new_remarks && <span className="block text-xs text-slate-600">{r.new_remarks}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        </Card>
      )}
    </PageLayout>
  );
}
