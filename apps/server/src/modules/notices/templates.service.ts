import {
  DEFAULT_NOTICE_TEMPLATES,
  NOTICE_KIND_PLACEHOLDERS,
  NOTICE_PLACEHOLDERS,
  NOTICE_SAMPLE_VALUES,
  NOTICE_TEMPLATE_KINDS,
  noticeRemindersSchema,
  noticeTemplateSchema,
  renderTemplate,
  smsLength,
  type NoticeReminders,
  type NoticeTemplateBody,
  type NoticeTemplateKind,
  type NoticeTemplateText,
  type NoticeTemplateView,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { nowIso, type Conn } from '../../db/index';
import { badRequest, fieldErrorsFromIssues } from '../../http/errors';
import type { NoticeTemplatesRepository, StoredTemplate } from './templates.repository';

/** A kind's texts: the school's edited rows over the defaults. */
function textsOf(kind: NoticeTemplateKind, rows: readonly StoredTemplate[]): NoticeTemplateText & { edited: StoredTemplate[] } {
  const d = DEFAULT_NOTICE_TEMPLATES[kind];
  const sms = rows.find((r) => r.kind === kind && r.channel === 'sms');
  const email = rows.find((r) => r.kind === kind && r.channel === 'email');
  return {
    sms_body: sms?.body ?? d.sms_body,
    email_subject: email?.subject ?? d.email_subject,
    email_body: email?.body ?? d.email_body,
    edited: [sms, email].filter((r): r is StoredTemplate => r !== undefined),
  };
}

export type SchoolTemplates = Record<NoticeTemplateKind, NoticeTemplateText>;

/**
 * The school's notice templates (decision record 037): what each kind says by SMS and email, with
 * placeholders checked when saved (a 400 naming each unknown or malformed one); and the days after a
 * fee falls due on which debtors are reminded. The composer reads both through `templatesIn` and
 * `reminderDaysIn`, inside its transaction.
 */
export class NoticeTemplatesService {
  constructor(private readonly repo: NoticeTemplatesRepository) {}

  /** Every kind's texts (edited or default), read on `conn`. */
  async templatesIn(conn?: Conn): Promise<SchoolTemplates> {
    const rows = await this.repo.templates(conn);
    return Object.fromEntries(
      NOTICE_TEMPLATE_KINDS.map((k) => {
        const { edited: _, ...t } = textsOf(k, rows);
        return [k, t];
      }),
    ) as SchoolTemplates;
  }

  async list(): Promise<NoticeTemplateView[]> {
    const rows = await this.repo.templates();
    return NOTICE_TEMPLATE_KINDS.map((kind) => {
      const { edited, ...t } = textsOf(kind, rows);
      const preview = renderTemplate(t.sms_body, NOTICE_SAMPLE_VALUES);
      return {
        kind,
        ...t,
        placeholders: NOTICE_KIND_PLACEHOLDERS[kind].map((name) => ({ name, description: NOTICE_PLACEHOLDERS[name] })),
        default: DEFAULT_NOTICE_TEMPLATES[kind],
        is_default: edited.length === 0,
        sms: { preview, ...smsLength(preview) },
        updated_at:
          edited
            .map((r) => r.updated_at)
            .sort()
            .at(-1) ?? null,
      };
    });
  }

  /** Saves a kind's three texts, after the kind's own placeholder check (400 with each field's problems). */
  async put(actor: { id: number }, kind: NoticeTemplateKind, body: NoticeTemplateBody): Promise<NoticeTemplateView> {
    const checked = noticeTemplateSchema(kind).safeParse(body);
    if (!checked.success) throw badRequest(fieldErrorsFromIssues(checked.error.issues));
    const t = checked.data;
    await this.repo.transaction(async (trx) => {
      const before = textsOf(kind, await this.repo.templates(trx));
      await this.repo.putTemplate(
        trx,
        [
          { kind, channel: 'sms', subject: null, body: t.sms_body },
          { kind, channel: 'email', subject: t.email_subject, body: t.email_body },
        ],
        actor.id,
        nowIso(),
      );
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'update',
        entity: 'notice_template',
        entityId: kind,
        before: { sms_body: before.sms_body, email_subject: before.email_subject, email_body: before.email_body },
        after: t,
      });
    });
    return (await this.list()).find((v) => v.kind === kind)!;
  }

  reminderDaysIn(conn?: Conn): Promise<number[]> {
    return this.repo.reminderDays(conn);
  }

  async reminders(): Promise<NoticeReminders> {
    return { days_after_due: await this.repo.reminderDays() };
  }

  async putReminders(actor: { id: number }, body: NoticeReminders): Promise<NoticeReminders> {
    const checked = noticeRemindersSchema.safeParse(body);
    if (!checked.success) throw badRequest(fieldErrorsFromIssues(checked.error.issues));
    const days = [...checked.data.days_after_due].sort((a, b) => a - b);
    await this.repo.transaction(async (trx) => {
      const before = await this.repo.reminderDays(trx);
      await this.repo.putReminderDays(trx, days, actor.id, nowIso());
      await writeAudit(trx, { actorUserId: actor.id, action: 'update', entity: 'notice_reminders', entityId: 'days', before, after: days });
    });
    return { days_after_due: days };
  }
}
