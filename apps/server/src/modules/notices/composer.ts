import { z } from 'zod';
import {
  joinNames,
  noticeAmount,
  noticeDate,
  renderTemplate,
  STUDENT_NOTICE_TEXTS,
  type NoticeKind,
  type NoticePlaceholder,
  type NoticeTemplateText,
} from '@portal/domain';
import type { Conn, Trx } from '../../db/index';
import type { NoticeMessageDraft } from '../../db/notice-outbox';
import type { SessionRows } from '../calendar/sessions.service';
import { schoolSettingsIn } from '../settings/settings.service';
import type { FamilyRow, NoticeRecipientsRepository } from './composer.repository';
import type { NoticeComposer, NoticeEvent } from './notices.ports';
import type { NoticeTemplatesService } from './templates.service';

type Values = Partial<Record<NoticePlaceholder, string | number | null>>;

/** The payload each emitter writes (decision record 037); anything else is composed into nothing. */
const PAYLOADS = {
  results_released: z.object({ session_id: z.number(), term: z.string(), student_class: z.string() }),
  payment_received: z.object({
    student_id: z.number(),
    receipt_number: z.string(),
    amount_kobo: z.number(),
    session: z.string(),
    term: z.string().nullable(),
    paid_on: z.string(),
  }),
  absent_today: z.object({ student_id: z.number(), date: z.string() }),
  absent_streak: z.object({ student_id: z.number(), date: z.string(), days: z.number() }),
  fees_overdue: z.object({
    student_id: z.number(),
    balance_kobo: z.number(),
    days: z.number(),
    session: z.string(),
    term: z.string().nullable(),
    as_of: z.string(),
  }),
  parent_invited: z.object({ parent_id: z.number(), sign_in: z.string().optional(), password: z.string().optional() }),
};

/** One parent and the children a notice is about. */
interface Household {
  parent: { user_id: number; name: string; phone: string | null; email: string | null };
  children: FamilyRow[];
}

function householdsOf(rows: readonly FamilyRow[]): Household[] {
  const byParent = new Map<number, Household>();
  for (const r of rows) {
    if (r.parent_id === null || r.parent_user_id === null) continue;
    let h = byParent.get(r.parent_id);
    if (!h) {
      h = { parent: { user_id: r.parent_user_id, name: r.parent_name ?? '', phone: r.phone, email: r.email }, children: [] };
      byParent.set(r.parent_id, h);
    }
    if (!h.children.some((c) => c.student_id === r.student_id)) h.children.push(r);
  }
  return [...byParent.values()];
}

const nameOf = (r: Pick<FamilyRow, 'first_name' | 'last_name'>) => `${r.first_name} ${r.last_name}`.trim();

/**
 * The school's words to one parent on each channel they can be reached on: SMS to the phone, email
 * when they gave one, and in the app (the SMS text under the email's subject).
 */
export function parentDrafts(kind: NoticeKind, t: NoticeTemplateText, parent: Household['parent'], values: Values): NoticeMessageDraft[] {
  const v = { ...values, parent_name: parent.name };
  const sms = renderTemplate(t.sms_body, v);
  const subject = renderTemplate(t.email_subject, v);
  const out: NoticeMessageDraft[] = [];
  if (parent.phone) out.push({ kind, channel: 'sms', recipientUserId: parent.user_id, toAddress: parent.phone, body: sms });
  if (parent.email)
    out.push({
      kind,
      channel: 'email',
      recipientUserId: parent.user_id,
      toAddress: parent.email,
      subject,
      body: renderTemplate(t.email_body, v),
    });
  out.push({ kind, channel: 'in_app', recipientUserId: parent.user_id, toAddress: '', subject, body: sms });
  return out;
}

/**
 * Turns each outbox event into its messages (the notices-core `NoticeComposer`, decision record
 * 037): who (the students' linked parents, and a student's own in-app notice where one fits) and
 * what (the school's templates rendered for each parent, their children's names joined). Every read
 * is on the worker's transaction; the worker queues the drafts in it and marks the event expanded,
 * and notice_messages' unique (event, channel, recipient) makes a second run write nothing.
 */
export class NoticeComposerService implements NoticeComposer {
  constructor(
    private readonly recipients: NoticeRecipientsRepository,
    private readonly templates: NoticeTemplatesService,
    private readonly sessions: SessionRows,
    private readonly publicUrl: string | undefined,
  ) {}

  private async common(conn: Conn): Promise<{ templates: Awaited<ReturnType<NoticeTemplatesService['templatesIn']>>; values: Values }> {
    const [templates, settings] = await Promise.all([this.templates.templatesIn(conn), schoolSettingsIn(conn)]);
    return { templates, values: { school: settings.school_name, link: this.publicUrl ?? '' } };
  }

  async compose(trx: Trx, event: NoticeEvent): Promise<NoticeMessageDraft[]> {
    switch (event.kind) {
      case 'results_released':
        return this.resultsReleased(trx, event.payload);
      case 'payment_received':
        return this.paymentReceived(trx, event.payload);
      case 'absent_today':
      case 'absent_streak':
        return this.absence(trx, event.kind, event.payload);
      case 'fees_overdue':
        return this.feesOverdue(trx, event.payload);
      case 'parent_invited':
        return this.parentInvited(trx, event.payload);
      default:
        // Custom notices are blasts: queued when created, never through an event.
        return [];
    }
  }

  private async resultsReleased(trx: Trx, payload: unknown): Promise<NoticeMessageDraft[]> {
    const p = PAYLOADS.results_released.safeParse(payload);
    if (!p.success) return [];
    const [{ templates, values }, session, rows] = await Promise.all([
      this.common(trx),
      this.sessions.get(p.data.session_id, trx),
      this.recipients.families({ arm: p.data.student_class }, trx),
    ]);
    const v: Values = { ...values, term: p.data.term, session: session?.name ?? '', arm: p.data.student_class };
    const out: NoticeMessageDraft[] = [];
    for (const h of householdsOf(rows)) {
      out.push(
        ...parentDrafts('results_released', templates.results_released, h.parent, {
          ...v,
          student_name: joinNames(h.children.map(nameOf)),
        }),
      );
    }
    const mine = STUDENT_NOTICE_TEXTS.results_released;
    const students = new Map(rows.map((r) => [r.student_user_id, r]));
    for (const userId of students.keys()) {
      out.push({
        kind: 'results_released',
        channel: 'in_app',
        recipientUserId: userId,
        toAddress: '',
        subject: renderTemplate(mine.subject, v),
        body: renderTemplate(mine.body, v),
      });
    }
    return out;
  }

  private async paymentReceived(trx: Trx, payload: unknown): Promise<NoticeMessageDraft[]> {
    const p = PAYLOADS.payment_received.safeParse(payload);
    if (!p.success) return [];
    const [{ templates, values }, rows] = await Promise.all([
      this.common(trx),
      this.recipients.families({ studentIds: [p.data.student_id] }, trx),
    ]);
    const child = rows[0];
    if (!child) return [];
    const v: Values = {
      ...values,
      student_name: nameOf(child),
      arm: child.student_class,
      amount: noticeAmount(p.data.amount_kobo),
      receipt_number: p.data.receipt_number,
      term: p.data.term ?? '',
      session: p.data.session,
      date: noticeDate(p.data.paid_on),
    };
    const out = householdsOf(rows).flatMap((h) => parentDrafts('payment_received', templates.payment_received, h.parent, v));
    const mine = STUDENT_NOTICE_TEXTS.payment_received;
    out.push({
      kind: 'payment_received',
      channel: 'in_app',
      recipientUserId: child.student_user_id,
      toAddress: '',
      subject: renderTemplate(mine.subject, v),
      body: renderTemplate(mine.body, v),
    });
    return out;
  }

  private async absence(trx: Trx, kind: 'absent_today' | 'absent_streak', payload: unknown): Promise<NoticeMessageDraft[]> {
    const p = (kind === 'absent_today' ? PAYLOADS.absent_today : PAYLOADS.absent_streak).safeParse(payload);
    if (!p.success) return [];
    const [{ templates, values }, rows] = await Promise.all([
      this.common(trx),
      this.recipients.families({ studentIds: [p.data.student_id] }, trx),
    ]);
    const child = rows[0];
    if (!child) return [];
    const v: Values = {
      ...values,
      student_name: nameOf(child),
      arm: child.student_class,
      date: noticeDate(p.data.date),
      days: 'days' in p.data ? Number(p.data.days) : null,
    };
    return householdsOf(rows).flatMap((h) => parentDrafts(kind, templates[kind], h.parent, v));
  }

  private async feesOverdue(trx: Trx, payload: unknown): Promise<NoticeMessageDraft[]> {
    const p = PAYLOADS.fees_overdue.safeParse(payload);
    if (!p.success) return [];
    const [{ templates, values }, rows] = await Promise.all([
      this.common(trx),
      this.recipients.families({ studentIds: [p.data.student_id] }, trx),
    ]);
    const child = rows[0];
    if (!child) return [];
    const v: Values = {
      ...values,
      student_name: nameOf(child),
      arm: child.student_class,
      balance: noticeAmount(p.data.balance_kobo),
      days: p.data.days,
      term: p.data.term ?? '',
      session: p.data.session,
      date: noticeDate(p.data.as_of),
    };
    return householdsOf(rows).flatMap((h) => parentDrafts('fees_overdue', templates.fees_overdue, h.parent, v));
  }

  private async parentInvited(trx: Trx, payload: unknown): Promise<NoticeMessageDraft[]> {
    const p = PAYLOADS.parent_invited.safeParse(payload);
    if (!p.success) return [];
    const [{ templates, values }, [parent]] = await Promise.all([this.common(trx), this.recipients.parents(trx, [p.data.parent_id])]);
    if (!parent) return [];
    const v: Values = { ...values, sign_in: p.data.sign_in ?? parent.phone, password: p.data.password ?? '' };
    // No in-app copy: the parent reads it before they can sign in, and a password stays out of the inbox.
    return parentDrafts('parent_invited', templates.parent_invited, parent, v).filter((d) => d.channel !== 'in_app');
  }
}
