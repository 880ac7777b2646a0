import { useState } from 'react';
import { termLabel } from '@portal/domain/constants';
import { RESULT_ADMIN_MESSAGES, RESULT_MESSAGES } from '@portal/domain/result-messages';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadingBlock } from '../../../components/ui/spinner';
import { useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { usePublications, useResultStudents, useTogglePublication } from '../api';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { schoolDay } from '../../../lib/datetime';

/** /publish-results (admin): release a class's term results to its students, or withdraw them. */
export default function PublishAdminPage() {
  const toast = useToast();
  const [sessionId, setSessionId] = useState('');
  const [term, setTerm] = useState('');
  const pubs = usePublications(sessionId, term);
  const students = useResultStudents(sessionId && term ? { session_id: sessionId, term } : null);
  const publication = useTogglePublication();
  const [busy, setBusy] = useState('');
  const arms = useClasses();
  // Retired arms stay listed while they hold results or a publication of this term.
  const classes = (arms.data ?? [])
    .filter(
      (a) => !a.retired || pubs.data?.some((p) => p.student_class === a.name) || students.data?.some((s) => s.student_class === a.name),
    )
    .map((a) => a.name);

  async function toggle(arm: string) {
    const existing = pubs.data?.find((p) => p.student_class === arm);
    setBusy(arm);
    try {
      await publication.mutateAsync({ existing, session_id: sessionId, term, student_class: arm });
      toast.success(`${existing ? RESULT_MESSAGES.unpublished : RESULT_MESSAGES.published}: ${arm}, ${termLabel(term)}`);
    } catch {
      toast.error(RESULT_ADMIN_MESSAGES.publicationFailed);
    } finally {
      setBusy('');
    }
  }

  return (
    <PageLayout title="Publish Results">
      <Card className="mb-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <SessionTermFields sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
        </div>
        <p className="mt-3 text-sm text-slate-600">{RESULT_ADMIN_MESSAGES.publishExplain}</p>
      </Card>
      {sessionId && term && (
        <Card title={`Classes · ${termLabel(term)}`}>
          {pubs.isPending || students.isPending || arms.isPending ? (
            <LoadingBlock />
          ) : pubs.isError ? (
            <Alert tone="error">{RESULT_ADMIN_MESSAGES.publicationsFailed}</Alert>
          ) : (
            <ul className="divide-y divide-slate-100">
              {classes.map((c) => {
                const pub = pubs.data.find((p) => p.student_class === c);
                const count = students.data?.filter((s) => s.student_class === c).length ?? 0;
                return (
                  <li key={c} className="flex flex-wrap items-center justify-between gap-2 py-2.5" data-testid={`publication-${c}`}>
                    <div>
                      <p className="font-semibold">{c}</p>
                      <p className="text-sm text-slate-600">
                        {count} students with results ·{' '}
                        {pub ? (
                          <span className="font-medium text-brand-800">Published {schoolDay(pub.published_at)}</span>
                        ) : (
                          'Not published'
                        )}
                      </p>
                    </div>
                    <Button
                      variant={pub ? 'secondary' : 'primary'}
                      loading={busy === c}
                      // Nothing to publish for a class without results; unpublishing stays possible.
                      disabled={!pub && count === 0}
                      title={!pub && count === 0 ? RESULT_MESSAGES.noResultsToPublish : undefined}
                      onClick={() => void toggle(c)}
                      aria-label={`${pub ? 'Unpublish' : 'Publish'} ${c}`}
                    >
                      {pub ? 'Unpublish' : 'Publish'}
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
        </Card>
      )}
    </PageLayout>
  );
}
