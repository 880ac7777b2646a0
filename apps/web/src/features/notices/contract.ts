/**
 * The notices API's answers as the web reads them: the domain's (notices.ts, notice-templates*.ts),
 * named here once for the screens, with the blasts' answers (CONTRACT.md "NP") that the domain does
 * not type yet (notices-product's blasts.service.ts BlastView, BlastPage, BlastEstimate).
 */
import type { NoticeTemplateView } from '@portal/domain/notice-templates';
import type { BlastAudience, BlastBody, BlastStatus } from '@portal/domain/notice-templates-schemas';
import type { SmsEncoding } from '@portal/domain/notice-templates-sms';
import type { NoticeChannel } from '@portal/domain/notices';

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
export interface BlastEstimate {
  recipients: number;
  sms: { encoding: SmsEncoding; characters: number; units_per_message: number; total_units: number; cost_kobo: number };
}
export interface BlastCounts {
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
  skipped: number;
  /** Waiting: a paused blast's, or for the morning (quiet hours, the daily cap). */
  held: number;
  cancelled: number;
}
export interface Blast {
  id: number;
  status: BlastStatus;
  audience: BlastAudience;
  channels: NoticeChannel[];
  subject: string | null;
  body: string;
  recipients: number;
  created_by: string | null;
  created_at: string;
  finished_at: string | null;
  counts: BlastCounts;
}
export interface BlastPage {
  count: number;
  next: number | null;
  results: Blast[];
}
