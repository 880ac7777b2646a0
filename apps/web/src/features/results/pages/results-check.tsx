import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { termLabel } from '@portal/domain/constants';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { type Result, type ResultStudent } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth-store';
import { allClassNames, useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { useMyResults, useResultList, useResultStudents, useTerms, type ResultQuery, sameQuery } from '../api';
import { ResultTable } from '../components/result-table';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { useSessionName } from '../../../lib/school-calendar';

const reportCardLink = (q: { admission_number: string; session_id: number | string; term: string }) =>
  `/report-card?${new URLSearchParams({ admission_number: q.admission_number, session_id: String(q.session_id), term: q.term }).toString()}`;

/** /ResultsCheck: staff fetch a class's students and view each one's results; a student sees all their own. */
export default function ResultsCheckPage() {
  const session = useSession();
  return session?.role === 'student' ? <MyResults admissionNumber={session.publicId} /> : <ClassResults />;
}

function ClassResults() {
  const toast = useToast();
  const classes = useClasses();
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const [arm, setArm] = useState('All');
  const [asked, setAsked] = useState<ResultQuery | null>(null);
  const [formMessage, setFormMessage] = useState('');
  const studentsQuery = useResultStudents(asked);
  const [selected, setSelected] = useState<ResultStudent | null>(null);
  const [selectedQuery, setSelectedQuery] = useState<ResultQuery | null>(null);
  const resultsQuery = useResultList(selectedQuery);
  const sessionName = useSessionName(sessionId);

  const students: ResultStudent[] | null = studentsQuery.isError ? null : (studentsQuery.data ?? null);
  const studentsStatus = studentsQuery.error instanceof ApiError ? studentsQuery.error.status : 0;
  const listMessage =
    formMessage ||
    (studentsQuery.isError
      ? studentsStatus === 401
        ? RESULT_MESSAGES.unauthorized
        : studentsStatus === 404
          ? RESULT_MESSAGES.noStudentsFound
          : ''
      : students && !students.length
        ? RESULT_MESSAGES.noStudentsFound
        : '');
  const results: Result[] | null = resultsQuery.isError ? [] : (resultsQuery.data ?? null);
  const resultsStatus = resultsQuery.error instanceof ApiError ? resultsQuery.error.status : 0;
  const resultMessage = resultsQuery.isError
    ? resultsStatus === 401
      ? RESULT_MESSAGES.unauthorized
      : resultsStatus === 404
        ? RESULT_MESSAGES.noResultsForStudent
        : ''
    : results && !results.length
      ? RESULT_MESSAGES.noResultsForStudentInTerm
      : '';

  // Other failures are a toast, once per failed fetch.
  useEffect(() => {
    if (studentsQuery.isError && studentsStatus !== 401 && studentsStatus !== 404) toast.error(RESULT_MESSAGES.studentsFailed);
  }, [studentsQuery.isError, studentsQuery.errorUpdatedAt, studentsStatus, toast]);
  useEffect(() => {
    if (resultsQuery.isError && resultsStatus !== 401 && resultsStatus !== 404) toast.error(RESULT_MESSAGES.studentResultsFailed);
  }, [resultsQuery.isError, resultsQuery.errorUpdatedAt, resultsStatus, toast]);

  function fetchStudents() {
    if (!sessionId || !term) {
      setFormMessage(RESULT_MESSAGES.selectSessionAndTerm);
      return;
    }
    setFormMessage('');
    const next = { session_id: sessionId, term, student_class: arm === 'All' ? undefined : arm };
    if (sameQuery(asked, next)) void studentsQuery.refetch();
    else setAsked(next);
  }

  function viewResults(s: ResultStudent) {
    setSelected(s);
    setSelectedQuery({ session_id: sessionId, term, admission_number: s.admission_number });
  }

  if (selected) {
    return (
      <PageLayout
        title="Student Results"
        actions={
          <>
            <Button
              variant="secondary"
              onClick={() => {
                setSelected(null);
                setSelectedQuery(null);
              }}
            >
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
            fetchStudents();
          }}
          noValidate
        >
          <SessionTermFields sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
          <SelectField
            label="Class"
            value={arm}
            onChange={(e) => setArm(e.target.value)}
            options={['All', ...allClassNames(classes.data)]}
          />
          <Button type="submit" loading={studentsQuery.isFetching}>
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
                onClick={() => viewResults(s)}
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
  const terms = useTerms();
  const rows = useMyResults();
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
