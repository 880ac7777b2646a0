/**
 * The notices API's answers as the web reads them (CONTRACT.md of issue 33). The request bodies, the
 * template kinds, placeholders and SMS length are the domain's (notice-templates*.ts). INTERIM: the
 * kinds' names, message statuses and the settings schema move to the domain's notices.ts when
 * notices-core lands.
 */
import { z } from 'zod';
import type { BlastAudience, BlastBody, BlastChannel as Channel, BlastStatus } from '@portal/domain/notice-templates-schemas';
import type { NoticeTemplateKind, NoticeTemplateText } from '@portal/domain/notice-templates';
import type { SmsEncoding } from '@portal/domain/notice-templates-sms';

export { NOTICE_TEMPLATE_KINDS as NOTICE_KINDS } from '@portal/domain/notice-templates';
export type NoticeKind = NoticeTemplateKind;

export const NOTICE_KIND_LABELS: Record<NoticeKind, string> = {
  results_released: 'Results released',
  payment_received: 'Payment received',
  absent_today: 'Absent today',
  absent_streak: 'Absent three days running',
  fees_overdue: 'Fees overdue',
  custom: 'Notice from the school',
  parent_invited: 'Parent invitation',
};

export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'dead', 'held', 'cancelled', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export { BLAST_CHANNELS as CHANNELS } from '@portal/domain/notice-templates-schemas';
export type { Channel };

export interface InboxNotice {
  id: number;
  kind: NoticeKind;
  subject: string;
  body: string;
  created_at: string;
  read_at: string | null;
}
export interface InboxPage {
  count: number;
  next: string | null;
  unread: number;
  results: InboxNotice[];
}

export interface NoticePreferences {
  kinds: { kind: NoticeKind; opted_out: boolean; can_opt_out: boolean }[];
}

export interface NoticeSettings {
  sender_id: string;
  quiet_start: string;
  quiet_end: string;
  daily_cap_per_parent: number;
  sms_unit_cost_kobo: number;
  send_rate_per_minute: number;
  channels: { sms: { configured: boolean; provider: string | null }; email: { configured: boolean } };
}
export type NoticeSettingsInput = Omit<NoticeSettings, 'channels'>;

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM, e.g. 21:00.');
export const noticeSettingsSchema = z.object({
  sender_id: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 ]{3,11}$/, 'A sender ID is 3 to 11 letters or digits.'),
  quiet_start: time,
  quiet_end: time,
  daily_cap_per_parent: z.coerce.number().int('Enter a whole number.').min(1, 'At least 1.').max(100, 'At most 100.'),
  sms_unit_cost_kobo: z.coerce.number().int().min(0, 'Cannot be negative.').max(100_000, 'At most ₦1,000 a unit.'),
  send_rate_per_minute: z.coerce.number().int('Enter a whole number.').min(1, 'At least 1.').max(10_000, 'At most 10,000.'),
});

/** A kind's template as the API lists it. */
export interface NoticeTemplate extends NoticeTemplateText {
  kind: NoticeTemplateKind;
}

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
  channels?: Channel[];
  created_at?: string;
}

export interface NoticeMessage {
  id: number;
  kind: NoticeKind;
  channel: Channel;
  to_address: string;
  subject: string | null;
  body: string;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
}
export interface MessagePage {
  count: number;
  next: string | null;
  results: NoticeMessage[];
}
