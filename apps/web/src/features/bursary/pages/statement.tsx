import { BURSARY_SCREENS } from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M, MY_STATEMENT_SCREEN } from '@portal/domain/bursary-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { querySection } from '../../../components/ui/query-view';
import { childQuery, useChild } from '../../../lib/parent-child';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useStatement } from '../api';
import { StatementView } from '../components/statement-view';
import { StatementSessionSelect, StudentPicker, useSessionParam } from '../components/student-picker';

const StatementSection = querySection(useStatement, StatementView, M.statementFailed);

const printButton = (
  <Button variant="secondary" onClick={() => window.print()}>
    {L.print}
  </Button>
);

/** /bursary/statement?admission_number&session_id (bursar, admin). */
export function BursaryStatementPage() {
  const [params, patch] = useSearchParamPatch();
  const adm = params.get('admission_number') ?? '';
  const { sessionId, ready } = useSessionParam(params);
  const q = adm && ready ? { admission_number: adm, ...(sessionId ? { session_id: sessionId } : {}) } : null;
  return (
    <PageLayout title={BURSARY_SCREENS.statement.title} actions={q && printButton}>
      <Card className="no-print mb-4">
        <StudentPicker label={BURSARY_SCREENS.statement.title} admissionNumber={adm} sessionId={sessionId} patch={patch} />
      </Card>
      {q ? <StatementSection q={q} /> : <p className="text-sm text-slate-600">{M.chooseStudent}</p>}
    </PageLayout>
  );
}

/** /my-statement?session_id (student): the same statement, of the student signed in; a parent's child's (`?child=`). */
export function MyStatementPage() {
  const [params, patch] = useSearchParamPatch();
  const { isParent, child } = useChild();
  const { sessionId, ready } = useSessionParam(params);
  return (
    <PageLayout title={MY_STATEMENT_SCREEN.title} actions={printButton}>
      <Card className="no-print mb-4">
        <div className="max-w-xs">
          <StatementSessionSelect value={sessionId ? String(sessionId) : ''} onChange={(id) => patch({ session_id: id })} />
        </div>
      </Card>
      <StatementSection q={ready && (!isParent || child) ? { ...(sessionId ? { session_id: sessionId } : {}), ...childQuery(child) } : null} />
    </PageLayout>
  );
}
