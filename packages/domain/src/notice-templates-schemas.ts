import { z } from 'zod';
import {
  BLAST_PLACEHOLDERS,
  checkTemplate,
  NOTICE_LIMITS,
  NOTICE_REMINDER_LIMITS,
  NOTICE_TEMPLATE_KINDS,
  NOTICE_TEMPLATE_MESSAGES as M,
  type NoticePlaceholder,
  type NoticeTemplateKind,
} from './notice-templates';
import { CLASS_LEVELS, isClassName } from './teaching';

/** The request bodies of the templates and blasts API (CONTRACT.md "NP"), checked the same way on the web. */

/** A template text: required, at most `max`, every placeholder known to `allowed`, no control character. */
function templateText(label: string, allowed: NoticeTemplateKind | readonly NoticePlaceholder[], max: number, required: string) {
  return z
    .string({ error: required })
    .max(max, M.tooLong(max))
    .superRefine((value, ctx) => {
      if (value.trim() === '') {
        ctx.addIssue({ code: 'custom', message: required });
        return;
      }
      for (const p of checkTemplate(allowed, value, label)) ctx.addIssue({ code: 'custom', message: p.message });
    });
}

export const noticeKindSchema = z.enum(NOTICE_TEMPLATE_KINDS, { error: M.kindUnknown });

/** `PUT /api/notice-templates/:kind/` for one kind: its placeholders are the ones allowed. */
export function noticeTemplateSchema(kind: NoticeTemplateKind) {
  return z.object({
    sms_body: templateText('The SMS', kind, NOTICE_LIMITS.smsBody, M.bodyRequired),
    email_subject: templateText('The subject', kind, NOTICE_LIMITS.emailSubject, M.subjectRequired),
    email_body: templateText('The email', kind, NOTICE_LIMITS.emailBody, M.bodyRequired),
  });
}

/** The route's body schema (any kind's placeholders pass here; the service checks the kind's own). */
export const noticeTemplateBodySchema = z.object({
  sms_body: z.string({ error: M.bodyRequired }).max(NOTICE_LIMITS.smsBody, M.tooLong(NOTICE_LIMITS.smsBody)),
  email_subject: z.string({ error: M.subjectRequired }).max(NOTICE_LIMITS.emailSubject, M.tooLong(NOTICE_LIMITS.emailSubject)),
  email_body: z.string({ error: M.bodyRequired }).max(NOTICE_LIMITS.emailBody, M.tooLong(NOTICE_LIMITS.emailBody)),
});
export type NoticeTemplateBody = z.infer<typeof noticeTemplateBodySchema>;

/** The channels a blast may use (the notices' own channel list, spelled here to keep this file standalone). */
export const BLAST_CHANNELS = ['sms', 'email', 'in_app'] as const;
export type BlastChannel = (typeof BLAST_CHANNELS)[number];

export const BLAST_AUDIENCE_KINDS = ['all', 'arm', 'level', 'debtors'] as const;
export type BlastAudienceKind = (typeof BLAST_AUDIENCE_KINDS)[number];

export const blastAudienceSchema = z
  .object({
    kind: z.enum(BLAST_AUDIENCE_KINDS),
    arm: z.string().max(40).optional(),
    level: z.enum(CLASS_LEVELS, { error: M.levelRequired }).optional(),
  })
  .superRefine((a, ctx) => {
    if (a.kind === 'arm' && !(a.arm && isClassName(a.arm))) ctx.addIssue({ code: 'custom', path: ['arm'], message: M.armRequired });
    if (a.kind === 'level' && !a.level) ctx.addIssue({ code: 'custom', path: ['level'], message: M.levelRequired });
  });
export type BlastAudience = z.infer<typeof blastAudienceSchema>;

/** `POST /api/notice-blasts/estimate/` and `POST /api/notice-blasts/`. */
export const blastBodySchema = z
  .object({
    audience: blastAudienceSchema,
    subject: z
      .string()
      .max(NOTICE_LIMITS.emailSubject, M.tooLong(NOTICE_LIMITS.emailSubject))
      .superRefine((value, ctx) => {
        for (const p of checkTemplate(BLAST_PLACEHOLDERS, value, 'The subject')) ctx.addIssue({ code: 'custom', message: p.message });
      })
      .optional(),
    body: templateText('The message', BLAST_PLACEHOLDERS, NOTICE_LIMITS.emailBody, M.bodyRequired),
    channels: z
      .array(z.enum(BLAST_CHANNELS), { error: M.channelsRequired })
      .min(1, M.channelsRequired)
      .max(3)
      .refine((c) => new Set(c).size === c.length, M.channelsRequired),
  })
  .superRefine((b, ctx) => {
    // An SMS holds at most six units; an email-only notice may be longer.
    if (b.channels.includes('sms') && b.body.length > NOTICE_LIMITS.smsBody)
      ctx.addIssue({ code: 'custom', path: ['body'], message: M.tooLong(NOTICE_LIMITS.smsBody) });
  });
export type BlastBody = z.infer<typeof blastBodySchema>;

export const BLAST_STATUSES = ['sending', 'paused', 'cancelled', 'done'] as const;
export type BlastStatus = (typeof BLAST_STATUSES)[number];

/** `PUT /api/notice-reminders/`: the days after a fee falls due on which a debtor is reminded. */
export const noticeRemindersSchema = z.object({
  days_after_due: z
    .array(
      z.number({ error: M.reminderDays }).int(M.reminderDays).min(1, M.reminderDays).max(NOTICE_REMINDER_LIMITS.maxDays, M.reminderDays),
      { error: M.reminderDays },
    )
    .max(NOTICE_REMINDER_LIMITS.maxCount, M.reminderDays)
    .refine((d) => new Set(d).size === d.length, M.reminderDays),
});
export type NoticeReminders = z.infer<typeof noticeRemindersSchema>;
