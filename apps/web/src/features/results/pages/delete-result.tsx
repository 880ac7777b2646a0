import { useState, type FormEvent } from 'react';
import { termLabel } from '@portal/domain/constants';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { type Result } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useToast } from '../../../lib/toast';
import { useDeleteResult, useResultSearch } from '../api';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { useSessionName } from '../../../lib/school-calendar';
import { ResultTable } from '../components/result-table';
import { AdmissionNumberField } from '../components/admission-field';
import { SearchMessage } from '../components/search-message';

/** /DeleteResult: search a student's term results and delete single subjects after a confirm. */
export default function DeleteResultPage() {
  const toast = useToast();
  const [admission, setAdmission] = useState('');
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const { list, results, message, search: run, fail } = useResultSearch();
  const del = useDeleteResult();
  const sessionName = useSessionName(sessionId);

  function search(e: FormEvent) {
    e.preventDefault();
    const adm = admission.trim().toUpperCase();
    if (!adm || !sessionId || !term) {
      fail(RESULT_MESSAGES.searchNeedsAllShort);
      return;
    }
    run({ session_id: sessionId, term, admission_number: adm });
  }

  async function remove(r: Result) {
    if (!window.confirm(RESULT_MESSAGES.confirmDelete)) return;
    try {
      // The list refreshes itself: the mutation invalidates every results view.
      await del.mutateAsync({ id: r.id, version: r.version });
      toast.success(RESULT_MESSAGES.deleted);
    } catch {
      toast.error(RESULT_MESSAGES.deleteFailed);
    }
  }

  return (
    <PageLayout
      title="Delete Results"
      actions={results?.length ? <Button onClick={() => window.print()}>Print Results</Button> : undefined}
    >
      <Card className="no-print mb-5">
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end" onSubmit={search} noValidate>
          <AdmissionNumberField value={admission} onChange={setAdmission} />
          <SessionTermFields sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
          <Button type="submit" loading={list.isFetching}>
            Search
          </Button>
        </form>
      </Card>
      <SearchMessage message={message} />
      {results && results.length > 0 && (
        <Card
          className="print-plain"
          title={`${results[0]!.student_name} (${results[0]!.admission_number}) · ${results[0]!.student_class} · ${termLabel(term)}, ${sessionName}`}
        >
          <ResultTable
            results={results}
            action={(r) => (
              <Button
                variant="danger"
                className="min-h-9 px-3 py-1"
                onClick={() => void remove(r)}
                aria-label={`Delete ${r.subject} result`}
              >
                Delete
              </Button>
            )}
          />
        </Card>
      )}
    </PageLayout>
  );
}
