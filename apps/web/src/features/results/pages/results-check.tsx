import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { RESULTS_CLASS_FILTER, termLabel } from '@portal/domain/constants';
import { RESULT_MESSAGES, type Result, type ResultStudent } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth-store';
import { useToast } from '../../../lib/toast';
import { fetchResults, fetchResultStudents, fetchTerms } from '../api';
import { ResultTable } from '../components/result-table';
import { SessionTermFields, useSessionName } from '../components/session-term-fields';

const reportCardLink = (q: { admission_number: string; session_id: number | string; term: string }) =>
  `/report-card?${new URLSearchParams({ admission_number: q.admission_number, session_id: String(q.session_id), term: q.term }).toString()}`;

/** /ResultsCheck: staff fetch a class's students and view each one's results; a student sees all their own. */
export default function ResultsCheckPage() {
  const session = useSession();
  return session?.role === 'student' ? <MyResults admissionNumber={session.publicId} /> : <ClassResults />;
}

function ClassResults() {
  const toast = useToast();
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const [studentClass, setStudentClass] = useState('All');
  const [students, setStudents] = useState<ResultStudent[] | null>(null);
  const [listMessage, setListMessage] = useState('');
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<ResultStudent | null>(null);
  const [results, setResults] = useState<Result[] | null>(null);
  const [resultMessage, setResultMessage] = useState('');
  const sessionName = useSessionName(sessionId);

  async function fetchStudents() {
    setListMessage('');
    if (!sessionId || !term) {
      setListMessage(RESULT_MESSAGES.selectSessionAndTerm);
      return;
    }
    setLoading(true);
    try {
      const list = await fetchResultStudents({
        session_id: sessionId,
        term,
        student_class: studentClass === 'All' ? undefined : studentClass,
      });
      setStudents(list);
      if (!list.length) setListMessage(RESULT_MESSAGES.noStudentsFound);
    } catch (err) {
      setStudents(null);
      if (err instanceof ApiError && err.status === 401) setListMessage(RESULT_MESSAGES.unauthorized);
      else if (err instanceof ApiError && err.status === 404) setListMessage(RESULT_MESSAGES.noStudentsFound);
      else toast.error(RESULT_MESSAGES.studentsFailed);
    } finally {
      setLoading(false);
    }
  }

  async function viewResults(s: ResultStudent) {
    setSelected(s);
    setResults(null);
    setResultMessage('');
    try {
      const list = await fetchResults({ session_id: sessionId, term, admission_number: s.admission_number });
      setResults(list);
      if (!list.length) setResultMessage(RESULT_MESSAGES.noResultsForStudentInTerm);
    } catch (err) {
      setResults([]);
      if (err instanceof ApiError && err.status === 401) setResultMessage(RESULT_MESSAGES.unauthorized);
      else if (err instanceof ApiError && err.status === 404) setResultMessage(RESULT_MESSAGES.noResultsForStudent);
      else toast.error(RESULT_MESSAGES.studentResultsFailed);
    }
  }

  if (selected) {
    return (
      <PageLayout
        title="Student Results"
        actions={
          <>
            <Button variant="secondary" onClick={() => setSelected(null)}>
              Back to List
            </Button>
            <Button onClick={() => window.print()}>Print Results</Button>
          </>
        }
      >
        <Card className="print-plain">
          <div className="mb-4 text-sm">
            <p className="text-lg font-semibold">
              {selected.first_name} {selected.last_name}
            </p>
            <p>
              {selected.admission_number} · {selected.student_class} · {termLabel(term)}, {sessionName}
            </p>
          </div>
          {results === null ? (
            <LoadingBlock />
          ) : resultMessage ? (
            <Alert tone="info">{resultMessage}</Alert>
          ) : (
            <>
              <ResultTable results={results} />
              <Link
                className={buttonClass('ghost', 'no-print mt-3')}
                to={reportCardLink({ admission_number: selected.admission_number, session_id: sessionId, term })}
              >
                Open report card
              </Link>
            </>
          )}
        </Card>
      </PageLayout>
    );
  }

  return (
    <PageLayout title="Class Results">
      <Card className="no-print mb-5">
        <form
          className="grid gap-4 sm:grid-cols-4 sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            void fetchStudents();
          }}
          noValidate
        >
          <SessionTermFields sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
          <SelectField
            label="Class"
            value={studentClass}
            onChange={(e) => setStudentClass(e.target.value)}
            options={RESULTS_CLASS_FILTER}
          />
          <Button type="submit" loading={loading}>
            Fetch Students
          </Button>
        </form>
        {listMessage && (
          <Alert tone={listMessage === RESULT_MESSAGES.unauthorized ? 'error' : 'info'} className="mt-4">
            {listMessage}
          </Alert>
        )}
      </Card>
      {students && students.length > 0 && (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Students">
          {students.map((s) => (
            <li key={`${s.admission_number}-${s.student_class}`} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <p className="font-semibold">
                {s.first_name} {s.last_name}
              </p>
              <p className="text-sm text-slate-600">
                {s.admission_number} · {s.student_class} · {s.subjects} subjects
              </p>
              <Button
                variant="secondary"
                className="mt-3 w-full"
                onClick={() => void viewResults(s)}
                aria-label={`View Results of ${s.first_name} ${s.last_name}`}
              >
                View Results
              </Button>
            </li>
          ))}
        </ul>
      )}
    </PageLayout>
  );
}

/** A student's own results, every term; unreleased terms say so. */
function MyResults({ admissionNumber }: { admissionNumber: string }) {
  const terms = useQuery({ queryKey: ['my-terms'], queryFn: () => fetchTerms() });
  const rows = useQuery({ queryKey: ['my-results'], queryFn: () => fetchResults({}) });
  const failed = terms.isError || rows.isError;
  return (
    <PageLayout title="My Results" actions={<Button onClick={() => window.print()}>Print Results</Button>}>
      {terms.isPending || rows.isPending ? (
        <LoadingBlock />
      ) : failed ? (
        <Alert tone="error">{RESULT_MESSAGES.fetchResultsFailed}</Alert>
      ) : terms.data.length === 0 ? (
        <EmptyState>{RESULT_MESSAGES.noResultsForStudent}</EmptyState>
      ) : (
        <div className="flex flex-col gap-5">
          {terms.data.map((t) => {
            const list = rows.data.filter((r) => r.session_id === t.session_id && r.term === t.term);
            return (
              <Card
                key={`${t.session_id}-${t.term}`}
                title={`${termLabel(t.term)}, ${t.session_name} (${t.student_class})`}
                className="print-plain"
              >
                {!t.released ? (
                  <Alert tone="info" title={RESULT_MESSAGES.notReleasedShort}>
                    {RESULT_MESSAGES.notReleased}
                  </Alert>
                ) : (
                  <>
                    <ResultTable results={list} />
                    <Link
                      className={buttonClass('secondary', 'no-print mt-3')}
                      to={reportCardLink({ admission_number: admissionNumber, session_id: t.session_id, term: t.term })}
                      aria-label={`View report card: ${termLabel(t.term)}, ${t.session_name}`}
                    >
                      View report card
                    </Link>
                  </>
                )}
              </Card>
            );
          })}
        </div>
      )}
    </PageLayout>
  );
}
