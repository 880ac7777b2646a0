import { useState, type FormEvent } from 'react';
import { BURSARY_SCREENS } from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M, MY_STATEMENT_SCREEN } from '@portal/domain/bursary-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useStatement, type StatementQuery } from '../api';
import { useSessions } from '../../../lib/school-calendar';
import { StatementView } from '../components/statement-view';
import { SessionSelect } from '../../../components/school/session-select';

function StatementSessionSelect({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  return <SessionSelect label={L.session} value={value} onChange={(e) => onChange(e.target.value)} />;
}

function StatementSection({ q }: { q: StatementQuery | null }) {
  const statement = useStatement(q);
  if (!q) return null;
  return (
    <QueryView query={statement} messages={{ fallback: M.statementFailed, useDetail: true }}>
      {(data) => <StatementView data={data} />}
    </QueryView>
  );
}

const printButton = (
  <Button variant="secondary" onClick={() => window.print()}>
    {L.print}
  </Button>
);

/** The session in the address, else the current one; `ready` once the list has answered (or failed). */
function useSessionParam(params: URLSearchParams): { sessionId: number | undefined; ready: boolean } {
  const sessions = useSessions();
  const picked = Number(params.get('session_id'));
  const sessionId = picked > 0 ? picked : sessions.data?.find((s) => s.is_current)?.id;
  return { sessionId, ready: picked > 0 || !sessions.isPending };
}

/** /bursary/statement?admission_number&session_id (bursar, admin). */
export function BursaryStatementPage() {
  const [params, patch] = useSearchParamPatch();
  const adm = params.get('admission_number') ?? '';
  const { sessionId, ready } = useSessionParam(params);
  const [typed, setTyped] = useState(adm);
  const q = adm && ready ? { admission_number: adm, ...(sessionId ? { session_id: sessionId } : {}) } : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    patch({ admission_number: typed.trim().toUpperCase() });
  };
  return (
    <PageLayout title={BURSARY_SCREENS.statement.title} actions={q && printButton}>
      <Card className="no-print mb-4">
        <form className="grid gap-3 sm:grid-cols-3 sm:items-end" onSubmit={submit} noValidate aria-label={BURSARY_SCREENS.statement.title}>
          <TextField
            label={L.admissionNumber}
            value={typed}
            onChange={(e) => setTyped(e.target.value.toUpperCase())}
            autoComplete="off"
            placeholder="STU-0001"
          />
          <StatementSessionSelect value={sessionId ? String(sessionId) : ''} onChange={(id) => patch({ session_id: id })} />
          <Button type="submit">{L.open}</Button>
        </form>
      </Card>
      {q ? <StatementSection q={q} /> : <p className="text-sm text-slate-600">{M.chooseStudent}</p>}
    </PageLayout>
  );
}

/** /my-statement?session_id (student): the same statement, of the student signed in. */
export function MyStatementPage() {
  const [params, patch] = useSearchParamPatch();
  const { sessionId, ready } = useSessionParam(params);
  return (
    <PageLayout title={MY_STATEMENT_SCREEN.title} actions={printButton}>
      <Card className="no-print mb-4">
        <div className="max-w-xs">
          <StatementSessionSelect value={sessionId ? String(sessionId) : ''} onChange={(id) => patch({ session_id: id })} />
        </div>
      </Card>
      <StatementSection q={ready ? (sessionId ? { session_id: sessionId } : {}) : null} />
    </PageLayout>
  );
}
