/**
 * The notices API's shapes as the web reads them (CONTRACT.md of issue 33). INTERIM: replaced by the
 * domain's notices.ts and notice-templates.ts (kinds, statuses, smsLength, placeholders) once
 * notices-core and notices-product land; the screens import from here only, so the swap is one file.
 */
import { z } from 'zod';

export const NOTICE_KINDS = [
  'results_released',
  'payment_received',
  'absent_today',
  'absent_streak',
  'fees_overdue',
  'custom',
  'parent_invited',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

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
export const CHANNELS = ['sms', 'email', 'in_app'] as const;
export type Channel = (typeof CHANNELS)[number];

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

export interface NoticeTemplate {
  kind: NoticeKind;
  sms_body: string;
  email_subject: string;
  email_body: string;
  placeholders: string[];
}
export type NoticeTemplateInput = Pick<NoticeTemplate, 'sms_body' | 'email_subject' | 'email_body'>;

export const BLAST_AUDIENCES = ['all', 'arm', 'level', 'debtors'] as const;
export type BlastAudienceKind = (typeof BLAST_AUDIENCES)[number];
export interface BlastAudience {
  kind: BlastAudienceKind;
  arm?: string;
  level?: string;
}
export interface BlastInput {
  audience: BlastAudience;
  subject?: string;
  body: string;
  channels: Channel[];
}
export interface BlastEstimate {
  recipients: number;
  sms: { encoding: SmsEncoding; characters: number; units_per_message: number; total_units: number; cost_kobo: number };
}
export type BlastStatus = 'sending' | 'paused' | 'cancelled' | 'done';
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

export type SmsEncoding = 'GSM-7' | 'UCS-2';
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';

/** Characters, encoding and SMS units of a text (GSM-7: 160 / 153 a part; UCS-2: 70 / 67). */
export function smsLength(text: string): { encoding: SmsEncoding; characters: number; units: number } {
  let gsm = 0;
  let unicode = false;
  for (const ch of text) {
    if (GSM_BASIC.includes(ch)) gsm += 1;
    else if (GSM_EXTENDED.includes(ch)) gsm += 2;
    else unicode = true;
  }
  if (!unicode) return { encoding: 'GSM-7', characters: gsm, units: gsm === 0 ? 0 : gsm <= 160 ? 1 : Math.ceil(gsm / 153) };
  const chars = [...text].reduce((n, ch) => n + (ch.codePointAt(0)! > 0xffff ? 2 : 1), 0);
  return { encoding: 'UCS-2', characters: chars, units: chars <= 70 ? 1 : Math.ceil(chars / 67) };
}
