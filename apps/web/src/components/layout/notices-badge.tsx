import { Link } from 'react-router';
import { NOTICE_SCREEN_LABELS as L, NOTICE_SCREENS as S } from '@portal/domain/notice-screens';
import { useUnreadNotices } from '../../lib/notices-unread';

/** The top bar's way to the inbox: a bell with the unread count (none while unknown or zero). */
export function NoticesBadge() {
  const unread = useUnreadNotices() ?? 0;
  return (
    <Link
      to={S.inbox.to}
      aria-label={L.inboxLink(unread)}
      className="relative inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border border-white/40 hover:bg-white/10"
      data-testid="notices-link"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.7 21a2 2 0 0 1-3.4 0" />
      </svg>
      {unread > 0 && (
        <span
          aria-hidden="true"
          className="absolute -top-1 -right-1 min-w-5 rounded-full bg-accent-400 px-1 text-center text-xs leading-5 font-bold text-brand-900"
          data-testid="unread-badge"
        >
          {L.unreadBadge(unread)}
        </span>
      )}
    </Link>
  );
}
