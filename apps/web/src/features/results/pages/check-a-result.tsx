import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { termLabel } from '@portal/domain/constants';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useSession } from '../../../lib/auth-store';
import { useResultSearch, useTerms } from '../api';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { currentSessionId, useSessionName, useSessions } from '../../../lib/school-calendar';
import { ResultTable } from '../components/result-table';
import { AdmissionNumberField } from '../components/admission-field';
import { SearchMessage } from '../components/search-message';

/** /check-a-result: one student's result sheet for a session and term, printable. */
export default function CheckAResultPage() {
  const session = useSession();
  const isStudent = session?.role === 'student';
  const [admission, setAdmission] = useState(isStudent ? session.publicId : '');
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const { list, results, message, search, fail } = useResultSearch();
  const [shown, setShown] = useState({ sessionId: '', term: '' });
  const sessionName = useSessionName(shown.sessionId);
  const sessions = useSessions();
  // A student's default: the latest term of the current session that has results.
  const terms = useTerms(isStudent);
  const [defaulted, setDefaulted] = useState(false);

  function check(adm: string, sid: string, t: string) {
    if (!adm.trim() || !sid || !t) {
      fail(RESULT_MESSAGES.searchNeedsAllShort);
      return;
    }
    setShown({ sessionId: sid, term: t });
    search({ session_id: sid, term: t, admission_number: adm.trim().toUpperCase() });
  }

  useEffect(() => {
    if (!isStudent || defaulted || !sessions.data || !terms.data) return;
    setDefaulted(true);
    const sid = currentSessionId(sessions.data);
    const latest = terms.data.filter((t) => String(t.session_id) === sid).sort((a, b) => b.term.localeCompare(a.term))[0];
    setSessionId(sid);
    if (latest) {
      setTerm(latest.term);
      setShown({ sessionId: sid, term: latest.term });
      search({ session_id: sid, term: latest.term, admission_number: admission.trim().toUpperCase() });
    }
  }, [isStudent, defaulted, sessions.data, terms.data, admission, search]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    check(admission, sessionId, term);
  };

  const first = results?.[0];
  return (
    <PageLayout
      title={isStudent ? 'My Current Result' : 'Check a Result'}
      actions={results?.length ? <Button onClick={() => window.print()}>Print Result</Button> : undefined}
    >
      <Card className="no-print mb-5">
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end" onSubmit={onSubmit} noValidate>
          <AdmissionNumberField value={admission} readOnly={isStudent} onChange={setAdmission} />
          <SessionTermFields sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} preselect={!isStudent} />
          <Button type="submit" loading={list.isFetching}>
            Check Result
          </Button>
        </form>
      </Card>
      <SearchMessage message={message} />
      {first && results && (
        <Card className="print-plain" title={`${first.student_name} (${first.admission_number})`}>
          <p className="mb-3 text-sm text-slate-700">
            {first.student_class} · {termLabel(shown.term)}, {sessionName}
          </p>
          <ResultTable results={results} />
          <Link
            className={buttonClass('secondary', 'no-print mt-4')}
            to={`/report-card?${new URLSearchParams({ admission_number: first.admission_number, session_id: shown.sessionId, term: shown.term }).toString()}`}
          >
            View report card
          </Link>
        </Card>
      )}
    </PageLayout>
  );
}
