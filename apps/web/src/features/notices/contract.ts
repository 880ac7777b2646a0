/**
 * The notices API's answers as the web reads them: the domain's (notices.ts, notice-templates*.ts),
 * named here once for the screens, with the blasts' answers.
 */
import type { NoticeTemplateView } from '@portal/domain/notice-templates';
import type { BlastBody } from '@portal/domain/notice-templates-schemas';

export {
  NOTICE_KIND_LABELS,
  NOTICE_KINDS,
  NOTICE_PAGE_SIZE,
  NOTICE_STATUSES,
  noticeSettingsSchema,
  type InboxNotice,
  type InboxPage,
  type NoticeKind,
  type NoticeLogPage,
  type NoticeLogRow,
  type NoticePreferencesView,
  type NoticeSettings,
  type NoticeSettingsView,
} from '@portal/domain/notices';

/** A kind's template as the API lists it. */
export type NoticeTemplate = NoticeTemplateView;

export type BlastInput = BlastBody;
/** The blasts' answers, typed by their response schemas (the domain's notices-responses.ts). */
export type { BlastCounts, BlastEstimate, BlastPage } from '@portal/domain/notices-responses';
export type { BlastView as Blast } from '@portal/domain/notices-responses';
