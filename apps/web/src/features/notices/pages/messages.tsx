import { CHANNEL_LABELS, NOTICE_SCREEN_LABELS as L, NOTICE_SCREEN_MESSAGES as M, NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { RowTable } from '../../../components/ui/row-table';
import { formatDateTime } from '../../../lib/datetime';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useMessages } from '../api';
import { PageNav, pagesOf } from '../components/page-nav';
import { NOTICE_STATUSES, NOTICE_KIND_LABELS, NOTICE_KINDS } from '../contract';

/** Admin: every message queued or sent (SMS, email, in-app), newest first, by status and kind. */
export default function MessagesPage() {
  const [params, patch] = useSearchParamPatch();
  const status = params.get('status') ?? '';
  const kind = params.get('kind') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const messages = useMessages({ status, kind, page });
  return (
    <PageLayout title={S.messages.label}>
      <div className="mb-4 grid max-w-xl gap-3 sm:grid-cols-2">
        <SelectField
          label={L.filterStatus}
          placeholder={L.any}
          options={NOTICE_STATUSES}
          value={status}
          onChange={(e) => patch({ status: e.target.value, page: '' })}
        />
        <SelectField
          label={L.filterKind}
          placeholder={L.any}
          options={NOTICE_KINDS.map((k) => ({ value: k, label: NOTICE_KIND_LABELS[k] }))}
          value={kind}
          onChange={(e) => patch({ kind: e.target.value, page: '' })}
        />
      </div>
      <Card>
        <QueryView query={messages} messages={M.messagesFailed} isEmpty={(d) => d.results.length === 0} empty={L.noMessages}>
          {(data) => (
            <>
              <RowTable
                rows={data.results}
                rowKey={(m) => m.id}
                testId="message-log"
                rowProps={(m) => ({ 'data-status': m.status })}
                columns={[
                  { label: L.to, className: '[overflow-wrap:anywhere]', cell: (m) => m.to_address },
                  { label: L.filterKind, cell: (m) => NOTICE_KIND_LABELS[m.kind] ?? m.kind },
                  { label: L.channel, cell: (m) => CHANNEL_LABELS[m.channel] ?? m.channel },
                  { label: L.status, cell: (m) => m.status, testId: 'message-status' },
                  { label: L.attempts, figures: true, cell: (m) => m.attempts },
                  { label: L.when, cell: (m) => formatDateTime(m.created_at) },
                  { label: L.error, className: '[overflow-wrap:anywhere]', cell: (m) => m.last_error ?? '' },
                ]}
              />
              <PageNav page={page} hasNext={Boolean(data.next)} pages={pagesOf(data.count)} onPage={(p) => patch({ page: String(p) })} />
            </>
          )}
        </QueryView>
      </Card>
    </PageLayout>
  );
}
