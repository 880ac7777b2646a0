import { z } from 'zod';
import type { Agrees, Check } from './response-check';
import { valuesOf } from './choices';
import { CLASS_LEVELS } from './teaching';
import { NOTICE_PLACEHOLDERS, NOTICE_TEMPLATE_KINDS, type NoticeTemplateView } from './notice-templates';
import { BLAST_AUDIENCE_KINDS, BLAST_CHANNELS, BLAST_STATUSES, type NoticeReminders } from './notice-templates-schemas';
import type { SmsCostEstimate } from './notice-templates-sms';
import {
  NOTICE_CHANNELS,
  NOTICE_KINDS,
  NOTICE_STATUSES,
  SMS_PROVIDERS,
  type InboxNotice,
  type InboxPage,
  type NoticeLogPage,
  type NoticePreferencesView,
  type NoticeSettingsView,
} from './notices';

/**
 * The notices' answers (2xx) as zod schemas: what each route declares as its response, what Fastify
 * serialises through and the OpenAPI document publishes (each `id` a component). The interfaces the
 * web reads stay where they are, each checked against its schema at compile time (`Agrees` in response-check.ts, both
 * ways); the blasts' answers, typed only by the server before, are typed here by their schema.
 */


const noticeKind = z.enum(NOTICE_KINDS);
const nextPage = z.number().int().nullable();

// ---------------------------------------------------------------- the inbox, preferences, settings, log

export const inboxNoticeSchema = z
  .object({
    id: z.number().int(),
    kind: noticeKind,
    subject: z.string(),
    body: z.string(),
    created_at: z.string(),
    read_at: z.string().nullable(),
  })
  .meta({ id: 'InboxNotice' });
type _InboxNotice = Check<Agrees<typeof inboxNoticeSchema, InboxNotice>>;

export const inboxPageSchema = z
  .object({ count: z.number().int(), next: nextPage, unread: z.number().int(), results: z.array(inboxNoticeSchema) })
  .meta({ id: 'InboxPage' });
type _InboxPage = Check<Agrees<typeof inboxPageSchema, InboxPage>>;

export const noticePreferencesViewSchema = z
  .object({
    kinds: z.array(z.object({ kind: noticeKind, label: z.string(), opted_out: z.boolean(), can_opt_out: z.boolean() })),
  })
  .meta({ id: 'NoticePreferencesView' });
type _Preferences = Check<Agrees<typeof noticePreferencesViewSchema, NoticePreferencesView>>;

export const noticeSettingsViewSchema = z
  .object({
    sender_id: z.string(),
    quiet_start: z.string(),
    quiet_end: z.string(),
    daily_cap_per_parent: z.number().int(),
    sms_unit_cost_kobo: z.number().int(),
    send_rate_per_minute: z.number().int(),
    channels: z.object({
      sms: z.object({ configured: z.boolean(), provider: z.enum(SMS_PROVIDERS).nullable() }),
      email: z.object({ configured: z.boolean() }),
    }),
  })
  .meta({ id: 'NoticeSettingsView' });
type _Settings = Check<Agrees<typeof noticeSettingsViewSchema, NoticeSettingsView>>;

export const noticeLogPageSchema = z
  .object({
    count: z.number().int(),
    next: nextPage,
    results: z.array(
      z
        .object({
          id: z.number().int(),
          kind: noticeKind,
          channel: z.enum(NOTICE_CHANNELS),
          to_address: z.string(),
          subject: z.string(),
          status: z.enum(NOTICE_STATUSES),
          urgent: z.boolean(),
          attempts: z.number().int(),
          provider: z.string().nullable(),
          last_error: z.string().nullable(),
          created_at: z.string(),
          sent_at: z.string().nullable(),
          delivered_at: z.string().nullable(),
          next_attempt_at: z.string().nullable(),
        })
        .meta({ id: 'NoticeLogRow' }),
    ),
  })
  .meta({ id: 'NoticeLogPage' });
type _Log = Check<Agrees<typeof noticeLogPageSchema, NoticeLogPage>>;

/** What the portal answers an SMS provider's delivery report (the provider only needs the 200). */
export const noticeDeliveryReportResponseSchema = z
  .object({ status: z.literal('ok'), updated: z.number().int() })
  .meta({ id: 'NoticeDeliveryReportResponse' });

// ---------------------------------------------------------------- templates and reminders

const templateText = { sms_body: z.string(), email_subject: z.string(), email_body: z.string() };
export const noticeTemplateViewSchema = z
  .object({
    ...templateText,
    kind: z.enum(NOTICE_TEMPLATE_KINDS),
    placeholders: z.array(z.object({ name: z.enum(valuesOf(NOTICE_PLACEHOLDERS)), description: z.string() })),
    default: z.object(templateText),
    is_default: z.boolean(),
    sms: z.object({
      preview: z.string(),
      encoding: z.enum(['GSM-7', 'UCS-2']),
      characters: z.number().int(),
      units: z.number().int(),
    }),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'NoticeTemplate' });
type _Template = Check<Agrees<typeof noticeTemplateViewSchema, NoticeTemplateView>>;
export const noticeTemplateListSchema = z.array(noticeTemplateViewSchema).meta({ id: 'NoticeTemplateList' });

export const noticeRemindersResponseSchema = z.object({ days_after_due: z.array(z.number().int()) }).meta({ id: 'NoticeReminders' });
type _Reminders = Check<Agrees<typeof noticeRemindersResponseSchema, NoticeReminders>>;

// ---------------------------------------------------------------- blasts (the admin's own notices)

const smsCostEstimateSchema = z.object({
  encoding: z.enum(['GSM-7', 'UCS-2']),
  characters: z.number().int(),
  units_per_message: z.number().int(),
  total_units: z.number().int(),
  cost_kobo: z.number().int(),
});
type _SmsCost = Check<Agrees<typeof smsCostEstimateSchema, SmsCostEstimate>>;

export const blastEstimateSchema = z
  .object({ recipients: z.number().int(), sms: smsCostEstimateSchema })
  .meta({ id: 'NoticeBlastEstimate' });
export type BlastEstimate = z.infer<typeof blastEstimateSchema>;

export const blastCreatedSchema = z.object({ id: z.number().int() }).meta({ id: 'NoticeBlastCreated' });

const blastCountsSchema = z.object({
  queued: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  /** Waiting: a paused blast's, or for the morning (quiet hours, the daily cap). */
  held: z.number().int(),
  cancelled: z.number().int(),
});
export type BlastCounts = z.infer<typeof blastCountsSchema>;

export const blastViewSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(BLAST_STATUSES),
    /** As the admin chose it (the blast's body was checked by `blastAudienceSchema`). */
    audience: z.object({
      kind: z.enum(BLAST_AUDIENCE_KINDS),
      arm: z.string().optional(),
      level: z.enum(CLASS_LEVELS).optional(),
    }),
    channels: z.array(z.enum(BLAST_CHANNELS)),
    subject: z.string().nullable(),
    body: z.string(),
    recipients: z.number().int(),
    created_by: z.string().nullable(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    counts: blastCountsSchema,
  })
  .meta({ id: 'NoticeBlast' });
export type BlastView = z.infer<typeof blastViewSchema>;

export const blastPageSchema = z
  .object({ count: z.number().int(), next: nextPage, results: z.array(blastViewSchema) })
  .meta({ id: 'NoticeBlastPage' });
export type BlastPage = z.infer<typeof blastPageSchema>;
