import { NOTICE_SCREEN_LABELS as L, NOTICE_SCREEN_MESSAGES as M, NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button, ButtonLink } from '../../../components/ui/button';
import { QueryView } from '../../../components/ui/query-view';
import { useSession } from '../../../lib/auth-store';
import { formatDateTime } from '../../../lib/datetime';
import { useToast } from '../../../lib/toast';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useInbox, useMarkRead } from '../api';
import { PageNav, pagesOf } from '../components/page-nav';
import { NOTICE_KIND_LABELS, type InboxNotice } from '../contract';

/** One notice: its subject and kind, when it came, its text; unread ones marked, with "Mark as read". */
function NoticeItem({ notice }: { notice: InboxNotice }) {
  const markRead = useMarkRead();
  const toast = useToast();
  const unread = notice.read_at === null;
  return (
    <li
      className={`rounded-xl border bg-white p-4 shadow-sm ${unread ? 'border-brand-700 border-l-4' : 'border-slate-200'}`}
      data-testid="notice"
      data-unread={unread ? 'true' : 'false'}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 className="text-base font-semibold [overflow-wrap:anywhere]">
          {unread && <span className="sr-only">{L.unread}: </span>}
          {notice.subject || NOTICE_KIND_LABELS[notice.kind]}
        </h2>
        <p className="text-xs text-slate-600">{formatDateTime(notice.created_at)}</p>
      </div>
      <p className="mt-2 text-sm whitespace-pre-line text-slate-800 [overflow-wrap:anywhere]">{notice.body}</p>
      {unread && (
        <Button
          variant="secondary"
          className="mt-3"
          loading={markRead.isPending}
          aria-label={L.markReadOf(notice.subject || NOTICE_KIND_LABELS[notice.kind])}
          onClick={() => markRead.mutate(notice.id, { onError: () => toast.error(M.markReadFailed) })}
        >
          {L.markRead}
        </Button>
      )}
    </li>
  );
}

/** Every signed-in user: their in-app notices, newest first, a page at a time; read ones stay listed. */
export default function InboxPage() {
  const [params, patch] = useSearchParamPatch();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const inbox = useInbox(page);
  const parent = useSession()?.role === 'parent';
  return (
    <PageLayout
      title={S.inbox.label}
      width="max-w-3xl"
      actions={
        parent ? (
          <ButtonLink variant="secondary" to={S.preferences.to}>
            {S.preferences.label}
          </ButtonLink>
        ) : undefined
      }
    >
      <QueryView query={inbox} messages={M.inboxFailed} isEmpty={(d) => d.results.length === 0} empty={M.inboxEmpty}>
        {(data) => (
          <>
            <p className="mb-3 text-sm text-slate-700" data-testid="unread-count">
              {L.unreadCount(data.unread)}
            </p>
            <ul className="flex flex-col gap-3">
              {data.results.map((n) => (
                <NoticeItem key={n.id} notice={n} />
              ))}
            </ul>
            <PageNav page={page} hasNext={Boolean(data.next)} pages={pagesOf(data.count)} onPage={(p) => patch({ page: String(p) })} />
          </>
        )}
      </QueryView>
    </PageLayout>
  );
}
