import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { termLabel } from '@portal/domain/constants';
import { RESULT_MESSAGES, type Result } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { useSession } from '../../../lib/auth-store';
import { currentSessionId, fetchResults, fetchTerms, resultsFetchMessage, useSessions } from '../api';
import { SessionTermFields, useSessionName } from '../components/session-term-fields';
import { ResultTable } from '../components/result-table';

/** /check-a-result: one student's result sheet for a session and term, printable. */
export default function CheckAResultPage() {
  const session = useSession();
  const isStudent = session?.role === 'student';
  const [admission, setAdmission] = useState(isStudent ? session.publicId : '');
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const [results, setResults] = useState<Result[] | null>(null);
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState({ sessionId: '', term: '' });
  const sessionName = useSessionName(shown.sessionId);
  const sessions = useSessions();
  // A student's default: the latest term of the current session that has results.
  const terms = useQuery({ queryKey: ['my-terms'], queryFn: () => fetchTerms(), enabled: isStudent });
  const [defaulted, setDefaulted] = useState(false);

  async function check(adm: string, sid: string, t: string) {
    setMessage(null);
    if (!adm.trim() || !sid || !t) {
      setMessage({ tone: 'error', text: RESULT_MESSAGES.searchNeedsAllShort });
      return;
    }
    setBusy(true);
    try {
      const list = await fetchResults({ session_id: sid, term: t, admission_number: adm.trim().toUpperCase() });
      setResults(list);
      setShown({ sessionId: sid, term: t });
      if (!list.length) setMessage({ tone: 'info', text: RESULT_MESSAGES.noResultsForCriteria });
    } catch (err) {
      setResults(null);
      setMessage(resultsFetchMessage(err));
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (!isStudent || defaulted || !sessions.data || !terms.data) return;
    setDefaulted(true);
    const sid = currentSessionId(sessions.data);
    const latest = terms.data.filter((t) => String(t.session_id) === sid).sort((a, b) => b.term.localeCompare(a.term))[0];
    setSessionId(sid);
    if (latest) {
      setTerm(latest.term);
      void check(admission, sid, latest.term);
    }
  }, [isStudent, defaulted, sessions.data, terms.data, admission]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void check(admission, sessionId, term);
  };

  const first = results?.[0];
  return (
    <PageLayout
      title={isStudent ? 'My Current Result' : 'Check a Result'}
      actions={results?.length ? <Button onClick={() => window.print()}>Print Result</Button> : undefined}
    >
      <Card className="no-print mb-5">
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end" onSubmit={onSubmit} noValidate>
          <TextField
            label="Admission Number"
            required
            value={admission}
            readOnly={isStudent}
            autoComplete="off"
            onChange={(e) => setAdmission(e.target.value.toUpperCase())}
          />
          <SessionTermFields sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} preselect={!isStudent} />
          <Button type="submit" loading={busy}>
            Check Result
          </Button>
        </form>
      </Card>
      {message && (
        <Alert tone={message.tone} className="mb-4">
          {message.text}
        </Alert>
      )}
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
