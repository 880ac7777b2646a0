import type { InboxNotice, NoticeChannel, NoticeKind, NoticeLogRow, NoticeStatus } from '@portal/domain';

/** An in-app notice as the inbox shows it. */
export function presentInboxNotice(r: {
  id: number;
  kind: string;
  subject: string;
  body: string;
  created_at: string;
  read_at: string | null;
}): InboxNotice {
  return { id: r.id, kind: r.kind as NoticeKind, subject: r.subject, body: r.body, created_at: r.created_at, read_at: r.read_at };
}

/** A message as the admin's log shows it (the body is not listed). */
export function presentLogRow(r: {
  id: number;
  kind: string;
  channel: string;
  to_address: string;
  subject: string;
  status: string;
  urgent: number;
  attempts: number;
  provider: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  next_attempt_at: string;
}): NoticeLogRow {
  return {
    id: r.id,
    kind: r.kind as NoticeKind,
    channel: r.channel as NoticeChannel,
    to_address: r.to_address,
    subject: r.subject,
    status: r.status as NoticeStatus,
    urgent: r.urgent === 1,
    attempts: r.attempts,
    provider: r.provider,
    last_error: r.last_error,
    created_at: r.created_at,
    sent_at: r.sent_at,
    delivered_at: r.delivered_at,
    next_attempt_at: ['queued', 'held'].includes(r.status) ? r.next_attempt_at : null,
  };
}
