import {
  type BlastCounts,
  type BlastEstimate,
  type BlastPage,
  type BlastView,
  estimateSmsCost,
  NOTICE_TEMPLATE_MESSAGES as M,
  noticeDate,
  renderTemplate,
  type BlastAudience,
  type BlastBody,
  type BlastChannel,
  type BlastStatus,
  type NoticePlaceholder,
} from '@portal/domain';
import { writeAudit } from '../../db/audit';
import { nowIso, type Trx } from '../../db/index';
import { queueNoticeMessages, type NoticeMessageDraft } from '../../db/notice-outbox';
import { badRequest, conflict, notFound } from '../../http/errors';
import type { CalendarService } from '../calendar/calendar.service';
import type { FeeReportsService } from '../payments/fee-reports.service';
import type { SettingsService } from '../settings/settings.service';
import type { TeachingService } from '../teaching/teaching.service';
import type { BlastRow, NoticeBlastsRepository } from './blasts.repository';
import type { FamilyFilter, FamilyRow, NoticeRecipientsRepository } from './composer.repository';
import type { NoticeTemplatesService } from './templates.service';

/** The blasts' answers: typed by their response schemas (packages/domain/src/notices-responses.ts). */
export type { BlastCounts, BlastEstimate, BlastPage, BlastView } from '@portal/domain';

export const BLAST_PAGE_SIZE = 20;

/** The message statuses a blast's progress shows, each under one of its counts. */
const COUNT_OF: Record<string, keyof BlastCounts> = {
  queued: 'queued',
  sending: 'queued',
  held: 'held',
  sent: 'sent',
  unknown: 'sent',
  delivered: 'delivered',
  failed: 'failed',
  dead: 'failed',
  skipped: 'skipped',
  cancelled: 'cancelled',
};

function countsOf(byStatus: Record<string, number> | undefined): BlastCounts {
  const out: BlastCounts = { queued: 0, sent: 0, delivered: 0, failed: 0, skipped: 0, held: 0, cancelled: 0 };
  for (const [status, n] of Object.entries(byStatus ?? {})) out[COUNT_OF[status] ?? 'queued'] += n;
  return out;
}

function present(row: BlastRow, byStatus: Record<string, number> | undefined): BlastView {
  return {
    id: row.id,
    status: row.status as BlastStatus,
    audience: JSON.parse(row.audience) as BlastAudience,
    channels: JSON.parse(row.channels) as BlastChannel[],
    subject: row.subject,
    body: row.body,
    recipients: row.recipients,
    created_by: row.created_by_name,
    created_at: row.created_at,
    finished_at: row.finished_at,
    counts: countsOf(byStatus),
  };
}

/** One parent of the audience, with what the blast says to them. */
interface Addressee {
  user_id: number;
  name: string;
  phone: string | null;
  email: string | null;
}

/** The parents among the audience's families, each once. */
function addressees(rows: readonly FamilyRow[]): Addressee[] {
  const byUser = new Map<number, Addressee>();
  for (const r of rows) {
    if (r.parent_user_id === null || byUser.has(r.parent_user_id)) continue;
    byUser.set(r.parent_user_id, { user_id: r.parent_user_id, name: r.parent_name ?? '', phone: r.phone, email: r.email });
  }
  return [...byUser.values()];
}

/**
 * Custom notices from the admin to a whole audience (decision record 037): all parents, an arm's, a
 * level's, or the debtors' (the payments module's debtors list, so only what has fallen due). A blast
 * is a `notice_blasts` row and one `notice_messages` row per parent and channel, all queued in one
 * transaction with multi-row inserts; its progress is its messages' counts. Pause holds what is
 * still queued, resume releases it, cancel cancels what was not sent (what was sent stays).
 */
export class NoticeBlastsService {
  constructor(
    private readonly repo: NoticeBlastsRepository,
    private readonly recipients: NoticeRecipientsRepository,
    private readonly templates: NoticeTemplatesService,
    private readonly feeReports: FeeReportsService,
    private readonly teaching: TeachingService,
    private readonly settings: SettingsService,
    private readonly calendar: CalendarService,
    /** The school's SMS unit cost in kobo (the notice settings). */
    private readonly smsUnitCost: () => Promise<number>,
  ) {}

  /** The audience's families: students of the filter with their parents (one statement; debtors: after the debtors list). */
  private async families(a: BlastAudience): Promise<FamilyRow[]> {
    const filter: FamilyFilter = {};
    if (a.kind === 'arm') {
      await this.teaching.assertClass(a.arm!, { field: 'audience.arm', unknownMessage: M.armRequired });
      filter.arm = a.arm;
    } else if (a.kind === 'level') filter.level = a.level;
    else if (a.kind === 'debtors') {
      const report = await this.feeReports.debtorsAll({ sort: 'balance', order: 'desc' });
      filter.admissionNumbers = report.debtors.map((d) => d.admission_number);
    }
    return this.recipients.families(filter);
  }

  /** Each addressee's drafts on the chosen channels: the blast's text inside the school's "custom" template. */
  private async drafts(body: BlastBody, people: readonly Addressee[]): Promise<NoticeMessageDraft[]> {
    const [templates, school, { today }] = await Promise.all([
      this.templates.templatesIn(),
      this.settings.get(),
      this.calendar.schoolToday(),
    ]);
    const t = templates.custom;
    const out: NoticeMessageDraft[] = [];
    const channels = new Set(body.channels);
    for (const p of people) {
      const v: Partial<Record<NoticePlaceholder, string>> = { parent_name: p.name, school: school.school_name, date: noticeDate(today) };
      const message = renderTemplate(body.body, v);
      const subject = renderTemplate(body.subject?.trim() ? body.subject : school.school_name, v);
      const values = { ...v, message, subject };
      const sms = renderTemplate(t.sms_body, values);
      if (channels.has('sms') && p.phone)
        out.push({ kind: 'custom', channel: 'sms', recipientUserId: p.user_id, toAddress: p.phone, body: sms });
      if (channels.has('email') && p.email)
        out.push({
          kind: 'custom',
          channel: 'email',
          recipientUserId: p.user_id,
          toAddress: p.email,
          subject: renderTemplate(t.email_subject, values),
          body: renderTemplate(t.email_body, values),
        });
      if (channels.has('in_app'))
        out.push({ kind: 'custom', channel: 'in_app', recipientUserId: p.user_id, toAddress: '', subject, body: message });
    }
    return out;
  }

  async estimate(body: BlastBody): Promise<BlastEstimate> {
    const people = addressees(await this.families(body.audience));
    const wantsSms = body.channels.includes('sms');
    const [drafts, unitCost] = await Promise.all([
      wantsSms ? this.drafts({ ...body, channels: ['sms'] }, people) : Promise.resolve([]),
      this.smsUnitCost(),
    ]);
    return {
      recipients: people.length,
      sms: estimateSmsCost(
        drafts.map((d) => d.body),
        unitCost,
      ),
    };
  }

  async create(actor: { id: number }, body: BlastBody): Promise<{ id: number }> {
    const people = addressees(await this.families(body.audience));
    if (!people.length) throw badRequest({ audience: [M.noRecipients] });
    const drafts = await this.drafts(body, people);
    const at = nowIso();
    const id = await this.repo.transaction(async (trx) => {
      const blastId = await this.repo.insert(trx, {
        created_by: actor.id,
        audience: JSON.stringify(body.audience),
        channels: JSON.stringify(body.channels),
        subject: body.subject?.trim() || null,
        body: body.body,
        recipients: people.length,
        created_at: at,
      });
      await queueNoticeMessages(
        trx,
        drafts.map((d) => ({ ...d, blastId })),
        at,
      );
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'create',
        entity: 'notice_blast',
        entityId: blastId,
        after: { audience: body.audience, channels: body.channels, recipients: people.length, messages: drafts.length },
      });
      return blastId;
    });
    return { id };
  }

  async list(page = 1): Promise<BlastPage> {
    const { rows, count } = await this.repo.page(BLAST_PAGE_SIZE, (page - 1) * BLAST_PAGE_SIZE);
    await this.settle(rows);
    const counts = await this.repo.counts(rows.map((r) => r.id));
    return {
      count,
      next: page * BLAST_PAGE_SIZE < count ? page + 1 : null,
      results: rows.map((r) => present(r, counts.get(r.id))),
    };
  }

  async one(id: number): Promise<BlastView> {
    const row = await this.repo.one(id);
    if (!row) throw notFound(M.blastNotFound);
    await this.settle([row]);
    return present(row, (await this.repo.counts([id])).get(id));
  }

  /** A sending blast whose messages have all left the queue is done: read, and stored once. */
  private async settle(rows: BlastRow[]): Promise<void> {
    for (const r of rows) {
      if (r.status !== 'sending') continue;
      const at = nowIso();
      if (await this.repo.finishIfDone(r.id, at)) Object.assign(r, { status: 'done', finished_at: at });
    }
  }

  private async change(
    actor: { id: number },
    id: number,
    from: readonly BlastStatus[],
    to: BlastStatus,
    refusal: string,
    messages: (trx: Trx) => Promise<number>,
  ): Promise<BlastView> {
    await this.repo.transaction(async (trx) => {
      const row = await this.repo.one(id, trx);
      if (!row) throw notFound(M.blastNotFound);
      const finished = to === 'cancelled' ? nowIso() : null;
      if (!(await this.repo.transition(trx, id, from, to, finished))) throw conflict(refusal);
      const n = await messages(trx);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: to,
        entity: 'notice_blast',
        entityId: id,
        before: { status: row.status },
        after: { status: to, messages: n },
      });
    });
    return this.one(id);
  }

  pause(actor: { id: number }, id: number): Promise<BlastView> {
    return this.change(actor, id, ['sending'], 'paused', M.blastNotSending, (trx) => this.repo.holdMessages(trx, id));
  }

  resume(actor: { id: number }, id: number): Promise<BlastView> {
    return this.change(actor, id, ['paused'], 'sending', M.blastNotPaused, (trx) => this.repo.releaseMessages(trx, id, nowIso()));
  }

  cancel(actor: { id: number }, id: number): Promise<BlastView> {
    return this.change(actor, id, ['sending', 'paused'], 'cancelled', M.blastFinished, (trx) => this.repo.cancelMessages(trx, id));
  }
}
