import { Link } from 'react-router';
import { NOTICE_SCREEN_LABELS as L, NOTICE_SCREEN_MESSAGES as M, NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { QueryView } from '../../../components/ui/query-view';
import { RowTable } from '../../../components/ui/row-table';
import { formatDateTime } from '../../../lib/datetime';
import { useBlasts } from '../api';
import { audienceText, statusText } from '../components/blast-labels';

/** Admin: the notices sent to parents, newest first, each opening its progress; a new one from here. */
export default function BlastsPage() {
  const blasts = useBlasts();
  return (
    <PageLayout
      title={S.blasts.label}
      actions={
        <ButtonLink to={`${S.blasts.to}/new`} data-testid="new-blast">
          {L.newBlast}
        </ButtonLink>
      }
    >
      <Card title={L.pastBlasts}>
        <QueryView query={blasts} messages={M.blastsFailed} empty={L.noBlasts}>
          {(rows) => (
            <RowTable
              rows={rows}
              rowKey={(b) => b.id}
              columns={[
                {
                  label: L.body,
                  className: '[overflow-wrap:anywhere]',
                  cell: (b) => (
                    <Link className="font-medium text-brand-800 underline" to={`${S.blasts.to}/${b.id}`}>
                      {b.subject || b.body?.slice(0, 60) || `#${b.id}`}
                    </Link>
                  ),
                },
                { label: L.audience, cell: audienceText },
                { label: L.status, cell: statusText },
                { label: L.sentOn, cell: (b) => formatDateTime(b.created_at) },
              ]}
            />
          )}
        </QueryView>
      </Card>
    </PageLayout>
  );
}
