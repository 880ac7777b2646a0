import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  BLAST_COUNT_LABELS as C,
  NOTICE_SCREEN_LABELS as L,
  NOTICE_SCREEN_MESSAGES as M,
  NOTICE_SCREENS as S,
} from '@portal/domain/notice-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, DetailRow } from '../../../components/ui/card';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { FigureList } from '../../../components/ui/figure-list';
import { QueryView } from '../../../components/ui/query-view';
import { errorMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useBlast, useBlastAction, type BlastAction } from '../api';
import { audienceText, channelsText, statusText } from '../components/blast-labels';
import type { Blast, BlastCounts } from '../contract';

const COUNT_ORDER: (keyof BlastCounts)[] = ['queued', 'held', 'sent', 'delivered', 'failed', 'skipped', 'cancelled'];

/** A blast's counts (they move while it sends), what it said, and Pause / Resume / Cancel. */
function BlastView({ blast }: { blast: Blast }) {
  const action = useBlastAction(blast.id);
  const toast = useToast();
  const [cancelling, setCancelling] = useState(false);
  const run = (a: BlastAction) =>
    action.mutate(a, {
      onSuccess: () => setCancelling(false),
      onError: (err) => toast.error(errorMessage(err, { fallback: M.blastActionFailed, useDetail: true })),
    });
  const live = blast.status === 'sending' || blast.status === 'paused';
  return (
    <div className="flex flex-col gap-5">
      <Card title={L.progress}>
        <p className="mb-3 text-sm">
          {L.status}:{' '}
          <strong data-testid="blast-status" data-status={blast.status}>
            {statusText(blast)}
          </strong>
        </p>
        <FigureList
          className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4"
          testId="blast-counts"
          figures={COUNT_ORDER.map((k) => ({
            label: C[k],
            value: blast.counts[k],
            testId: `count-${k}`,
            valueClassName: 'text-xl font-semibold tabular-nums',
          }))}
        />
        {live && (
          <div className="mt-4 flex flex-wrap gap-2">
            {blast.status === 'sending' ? (
              <Button variant="secondary" loading={action.isPending && action.variables === 'pause'} onClick={() => run('pause')}>
                {L.pause}
              </Button>
            ) : (
              <Button loading={action.isPending && action.variables === 'resume'} onClick={() => run('resume')}>
                {L.resume}
              </Button>
            )}
            {!cancelling && (
              <Button variant="danger" onClick={() => setCancelling(true)}>
                {L.cancel}
              </Button>
            )}
          </div>
        )}
        {live && cancelling && (
          <ConfirmPanel
            label={L.cancel}
            confirm={L.confirmCancelButton}
            cancel={L.keep}
            danger
            loading={action.isPending && action.variables === 'cancel'}
            onConfirm={() => run('cancel')}
            onCancel={() => setCancelling(false)}
          >
            {L.confirmCancel}
          </ConfirmPanel>
        )}
      </Card>
      <Card>
        <dl>
          <DetailRow label={L.audience} value={audienceText(blast)} />
          <DetailRow label={L.channelsLegend} value={channelsText(blast)} />
          {blast.subject && <DetailRow label={L.subject} value={blast.subject} />}
          <DetailRow label={L.body} value={<span className="whitespace-pre-line">{blast.body}</span>} />
        </dl>
      </Card>
    </div>
  );
}

/** Admin: one blast's live progress (asked again every 2 s while it sends). */
export default function BlastPage() {
  const id = Number(useParams().id);
  const blast = useBlast(id);
  return (
    <PageLayout title={S.blasts.label} width="max-w-3xl">
      <Link to={S.blasts.to} className="mb-3 inline-block text-sm font-medium text-brand-800 hover:underline">
        {L.backToBlasts}
      </Link>
      {Number.isInteger(id) && id > 0 ? (
        <QueryView query={blast} messages={{ fallback: M.blastFailed, notFound: M.blastNotFound }}>
          {(data) => <BlastView blast={data} />}
        </QueryView>
      ) : (
        <Alert tone="error">{M.blastNotFound}</Alert>
      )}
    </PageLayout>
  );
}
