import { z } from 'zod';
import { dayStartIn, todayIn } from './calendar';
import { textField } from './text';

/**
 * Notices (issue 33): what the portal tells families and staff, by SMS, email and in the app. One
 * outbox (`notice_events` written in the emitter's transaction, expanded into `notice_messages`),
 * one worker delivering them (docs/decisions/036). The kinds, statuses and channels are named here
 * once for the server and the web.
 */

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
  absent_streak: 'Absent several days',
  fees_overdue: 'Fees overdue',
  custom: 'Notices from the school',
  parent_invited: 'Portal invitation',
};

/** Kinds nobody may opt out of: a receipt is the family's proof of payment. */
export const NOTICE_KINDS_ALWAYS_SENT: readonly NoticeKind[] = ['payment_received', 'parent_invited'];

export function canOptOut(kind: NoticeKind): boolean {
  return !NOTICE_KINDS_ALWAYS_SENT.includes(kind);
}

export const NOTICE_CHANNELS = ['sms', 'email', 'in_app'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

/**
 * A message's life: queued → sending → sent → delivered (the provider's report) or failed;
 * retried while attempts remain, then dead. held: waiting for the morning (quiet hours, the daily
 * cap) or a paused blast; skipped: opted out, no address or channel off; cancelled: a cancelled
 * blast; unknown: the provider may have taken it but the worker stopped before hearing back, and the
 * provider cannot recognise a repeat, so it is not sent again (docs/decisions/036).
 */
export const NOTICE_STATUSES = [
  'queued',
  'sending',
  'sent',
  'delivered',
  'failed',
  'dead',
  'held',
  'cancelled',
  'skipped',
  'unknown',
] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

export const SMS_PROVIDERS = ['termii', 'africastalking', 'fake'] as const;
export type SmsProviderName = (typeof SMS_PROVIDERS)[number];

/** Providers whose delivery reports `POST /api/notices/delivery/:provider/` takes. */
export const DELIVERY_REPORT_PROVIDERS = ['termii', 'africastalking', 'fake'] as const;

export const NOTICE_MESSAGES = {
  senderId: 'Sender ID must be 3 to 11 letters or digits (spaces allowed), starting with a letter.',
  clock: 'Use the 24-hour time HH:MM, e.g. 21:00.',
  dailyCap: 'The daily cap must be a whole number from 1 to 100.',
  unitCost: 'The SMS unit cost must be a whole number of kobo from 0 to 100000.',
  sendRate: 'The send rate must be a whole number from 1 to 6000 per minute.',
  cannotOptOut: (label: string) => `${label} notices cannot be turned off.`,
  unknownKind: 'Unknown notice kind.',
  notFound: 'Notice not found.',
  badWebhookSecret: 'Delivery report refused.',
  unknownProvider: 'Unknown provider.',
  statusFilter: 'Unknown status.',
  kindFilter: 'Unknown notice kind.',
} as const;

const clockTime = z.string({ error: NOTICE_MESSAGES.clock }).regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, NOTICE_MESSAGES.clock);

/** The school's notice settings the admin edits (the channels' configuration comes from the environment). */
export const noticeSettingsSchema = z.object({
  sender_id: textField('Sender ID', { error: NOTICE_MESSAGES.senderId })
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9 ]{2,10}$/, NOTICE_MESSAGES.senderId),
  quiet_start: clockTime,
  quiet_end: clockTime,
  daily_cap_per_parent: z
    .number({ error: NOTICE_MESSAGES.dailyCap })
    .int(NOTICE_MESSAGES.dailyCap)
    .min(1, NOTICE_MESSAGES.dailyCap)
    .max(100, NOTICE_MESSAGES.dailyCap),
  sms_unit_cost_kobo: z
    .number({ error: NOTICE_MESSAGES.unitCost })
    .int(NOTICE_MESSAGES.unitCost)
    .min(0, NOTICE_MESSAGES.unitCost)
    .max(100_000, NOTICE_MESSAGES.unitCost),
  send_rate_per_minute: z
    .number({ error: NOTICE_MESSAGES.sendRate })
    .int(NOTICE_MESSAGES.sendRate)
    .min(1, NOTICE_MESSAGES.sendRate)
    .max(6000, NOTICE_MESSAGES.sendRate),
});
export type NoticeSettings = z.infer<typeof noticeSettingsSchema>;

export const DEFAULT_NOTICE_SETTINGS: NoticeSettings = {
  sender_id: 'School',
  quiet_start: '21:00',
  quiet_end: '07:00',
  daily_cap_per_parent: 5,
  sms_unit_cost_kobo: 400,
  send_rate_per_minute: 120,
};

/** GET /api/notice-settings/: the settings and what the environment configured. */
export interface NoticeSettingsView extends NoticeSettings {
  channels: { sms: { configured: boolean; provider: SmsProviderName | null }; email: { configured: boolean } };
}

export const noticePreferencesSchema = z.object({
  kinds: z
    .array(z.object({ kind: z.enum(NOTICE_KINDS, { error: NOTICE_MESSAGES.unknownKind }), opted_out: z.boolean() }))
    .max(NOTICE_KINDS.length * 2),
});
export type NoticePreferencesInput = z.infer<typeof noticePreferencesSchema>;

export interface NoticePreferencesView {
  kinds: { kind: NoticeKind; label: string; opted_out: boolean; can_opt_out: boolean }[];
}

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
  next: number | null;
  unread: number;
  results: InboxNotice[];
}

export interface NoticeLogRow {
  id: number;
  kind: NoticeKind;
  channel: NoticeChannel;
  to_address: string;
  subject: string;
  status: NoticeStatus;
  urgent: boolean;
  attempts: number;
  provider: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  next_attempt_at: string | null;
}

export interface NoticeLogPage {
  count: number;
  next: number | null;
  results: NoticeLogRow[];
}

export const NOTICE_PAGE_SIZE = 50;

const PAGE_MESSAGE = 'The page must be a whole number from 1.';
const pageParam = z.coerce.number({ error: PAGE_MESSAGE }).int(PAGE_MESSAGE).min(1, PAGE_MESSAGE).max(100_000, PAGE_MESSAGE).optional();

export const inboxQuerySchema = z.object({ page: pageParam });
export const noticeLogQuerySchema = z.object({
  page: pageParam,
  status: z.enum(NOTICE_STATUSES, { error: NOTICE_MESSAGES.statusFilter }).optional(),
  kind: z.enum(NOTICE_KINDS, { error: NOTICE_MESSAGES.kindFilter }).optional(),
});

// Control characters in a notice's text: an SMS or an email header must never carry them.
// eslint-disable-next-line no-control-regex
const NOTICE_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/g;
const LINE_BREAKS = /[\r\n\u2028\u2029\t]+/g;

/** A notice body made safe to send: control characters and direction overrides removed, line breaks kept. */
export function cleanNoticeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(NOTICE_CONTROL, '');
}

/** A one-line value (an email subject, a header): control characters removed and line breaks made spaces. */
export function cleanNoticeLine(text: string): string {
  return cleanNoticeText(text).replace(LINE_BREAKS, ' ').trim();
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML email body: escaped, paragraphs and line breaks kept. */
export function noticeHtml(text: string): string {
  const escaped = cleanNoticeText(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
  return escaped
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

function minutesOf(clock: string): number {
  const [h, m] = clock.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

const wallFormatters = new Map<string, Intl.DateTimeFormat>();

/** The school's wall-clock minutes since midnight at `instant`. */
export function wallMinutesIn(timeZone: string, instant: Date): number {
  let f = wallFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric' });
    wallFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, Number(x.value)]));
  return (p.hour ?? 0) * 60 + (p.minute ?? 0);
}

function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The instant the school's clock reads `clock` on its day `day` (whole-hour offsets, as Nigeria's). */
export function wallClockInstant(day: string, clock: string, timeZone: string): Date {
  return new Date(Date.parse(dayStartIn(day, timeZone)) + minutesOf(clock) * 60_000);
}

/**
 * Quiet hours: when `instant` falls inside [start, end) of the school's clock (a window may cross
 * midnight: 21:00–07:00), the instant they end; otherwise null. Equal start and end: no quiet hours.
 */
export function quietHoursEnd(instant: Date, timeZone: string, start: string, end: string): Date | null {
  const s = minutesOf(start);
  const e = minutesOf(end);
  if (s === e) return null;
  const now = wallMinutesIn(timeZone, instant);
  const today = todayIn(timeZone, instant);
  const inside = s < e ? now >= s && now < e : now >= s || now < e;
  if (!inside) return null;
  // The end is today when it is still ahead on the clock, else tomorrow.
  const endDay = now < e ? today : addDays(today, 1);
  return wallClockInstant(endDay, end, timeZone);
}

/** The next morning's send time after the daily cap: tomorrow at the end of quiet hours. */
export function nextMorning(instant: Date, timeZone: string, end: string): Date {
  return wallClockInstant(addDays(todayIn(timeZone, instant), 1), end, timeZone);
}

/**
 * The wait before retry `attempt` (1 = the first retry): exponential from `baseMs`, capped at
 * `maxMs`, with "equal jitter" (half fixed, half random) so failed messages do not all return at once.
 */
export function retryDelayMs(attempt: number, random: () => number, baseMs = 30_000, maxMs = 3_600_000): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full / 2 + random() * (full / 2));
}
