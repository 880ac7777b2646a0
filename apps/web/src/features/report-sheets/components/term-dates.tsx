import { useEffect, useState } from 'react';
import { TERMS } from '@portal/domain/constants';
import { REPORT_MESSAGES } from '@portal/domain/report-card-rules';
import { reportTermSchema, type ReportTerm, type ReportTermInput } from '@portal/domain/report-card-schemas';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M } from '@portal/domain/report-sheet-screens';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { firstServerMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useReportTerms, useSaveReportTerm } from '../api';
import { useSessions } from '../../../lib/school-calendar';
import { SessionSelect } from '../../../components/school/session-select';
import { useSchemaForm } from '../../../lib/schema-form';
import { num } from '../settings-model';

interface TermForm extends Record<string, string> {
  next_term_begins: string;
  times_opened: string;
}

function TermRow({ sessionId, value }: { sessionId: number; value: ReportTerm }) {
  const save = useSaveReportTerm();
  const toast = useToast();
  const label = TERMS.find((t) => t.value === value.term)?.label ?? value.term;
  const form = useSchemaForm<TermForm>({
    defaultValues: {
      next_term_begins: value.next_term_begins ?? '',
      times_opened: value.times_opened === null ? '' : String(value.times_opened),
    },
    schema: reportTermSchema,
    toBody: (f) => ({
      session_id: sessionId,
      term: value.term,
      next_term_begins: f.next_term_begins.trim() || null,
      times_opened: f.times_opened.trim() === '' ? null : num(f.times_opened),
    }),
    fieldOf: (path) => path.split('.')[0]!,
    keepFocus: true,
  });
  async function onValid(_: TermForm, body: unknown) {
    try {
      await save.mutateAsync(body as ReportTermInput);
      toast.success(REPORT_MESSAGES.termSaved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) form.fail(err.fieldErrors, { focus: false });
      toast.error(firstServerMessage(err) ?? M.saveFailed);
    }
  }
  return (
    <form
      ref={form.formRef}
      onSubmit={(e) => void form.submit(onValid)(e)}
      noValidate
      aria-label={`${L.termDates}: ${label}`}
      className="grid gap-3 border-b border-slate-100 pb-4 sm:grid-cols-[8rem_1fr_1fr_auto] sm:items-end"
      data-testid={`term-${value.term}`}
    >
      <p className="font-medium">{label}</p>
      <TextField label={`${L.nextTermBegins} (${label})`} type="date" {...form.field('next_term_begins')} />
      <TextField label={`${L.timesOpened} (${label})`} hint={L.timesOpenedHint} inputMode="numeric" {...form.field('times_opened')} />
      <Button type="submit" variant="secondary" loading={save.isPending}>
        {L.saveTerm}
      </Button>
    </form>
  );
}

export function TermDates() {
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
