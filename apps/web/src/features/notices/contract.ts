/**
 * The notices API's answers as the web reads them: the domain's (notices.ts, notice-templates*.ts),
 * named here once for the screens, with the blasts' answers (CONTRACT.md "NP") that the domain does
 * not type yet.
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
}
export interface Blast {
  id: number;
  status: BlastStatus;
  counts: BlastCounts;
  subject?: string | null;
  body?: string;
  audience?: BlastAudience;
  channels?: NoticeChannel[];
  created_at?: string;
}
