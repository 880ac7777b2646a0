import { createHash, timingSafeEqual } from 'node:crypto';
import {
  canOptOut,
  DELIVERY_REPORT_PROVIDERS,
  GENERAL_MESSAGES,
  NOTICE_KIND_LABELS,
  NOTICE_KINDS,
  NOTICE_MESSAGES,
  NOTICE_PAGE_SIZE,
  type InboxPage,
  type NoticeKind,
  type NoticeLogPage,
  type NoticePreferencesInput,
  type NoticePreferencesView,
  type NoticeStatus,
  type SmsProviderName,
} from '@portal/domain';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { presentInboxNotice, presentLogRow } from './notices.presenters';
import type { NoticesRepository } from './notices.repository';
import { readDeliveryReport } from './sms.channel';

/** Kinds a person sets preferences for: the invitation comes before the account can sign in. */
const PREFERENCE_KINDS = NOTICE_KINDS.filter((k) => k !== 'parent_invited');

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Compared as SHA-256 digests in constant time, whatever the lengths. */
export function secretMatches(given: string | undefined, expected: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(expected));
}

/** Reads a delivery report's body: JSON (Termii, the fake) or form fields (Africa's Talking); one report or a list. */
function reportBodies(raw: Buffer, contentType: string | undefined): Record<string, unknown>[] {
  const text = raw.toString('utf8');
  if (/application\/x-www-form-urlencoded/i.test(contentType ?? '')) return [Object.fromEntries(new URLSearchParams(text))];
  try {
    const parsed = JSON.parse(text) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x)).slice(0, 500);
  } catch {
    return [];
  }
}

/**
 * Notices as people see them: a person's in-app inbox and their opt-outs, the admin's log of every
 * message, and providers' delivery reports.
 */
export class NoticesService {
  constructor(
    private readonly repo: NoticesRepository,
    private readonly webhookSecret: string | undefined,
    private readonly clock: () => number = Date.now,
  ) {}

  private at(): string {
    return new Date(this.clock()).toISOString();
  }

  async inbox(userId: number, page = 1): Promise<InboxPage> {
    const { count, unread, results } = await this.repo.inboxPage(userId, (page - 1) * NOTICE_PAGE_SIZE, NOTICE_PAGE_SIZE);
    return { count, next: page * NOTICE_PAGE_SIZE < count ? page + 1 : null, unread, results: results.map(presentInboxNotice) };
  }

  /** Marks one of the person's in-app notices read; another person's is not found. */
  async markRead(userId: number, id: number) {
    const row = await this.repo.markRead(userId, id, this.at());
    if (!row) throw notFound(NOTICE_MESSAGES.notFound);
    return presentInboxNotice(row);
  }

  async preferences(userId: number): Promise<NoticePreferencesView> {
    const stored = new Map((await this.repo.preferencesOf(userId)).map((r) => [r.kind, r.opted_out === 1]));
    return {
      kinds: PREFERENCE_KINDS.map((kind) => ({
        kind,
        label: NOTICE_KIND_LABELS[kind],
        opted_out: canOptOut(kind) && (stored.get(kind) ?? false),
        can_opt_out: canOptOut(kind),
      })),
    };
  }

  /** Saves the kinds sent; turning off a receipt is refused (400), nothing saved. */
  async putPreferences(userId: number, input: NoticePreferencesInput): Promise<NoticePreferencesView> {
    const refused = input.kinds.filter((k) => k.opted_out && !canOptOut(k.kind));
    if (refused.length) throw badRequest({ kinds: refused.map((k) => NOTICE_MESSAGES.cannotOptOut(NOTICE_KIND_LABELS[k.kind])) });
    const last = new Map(input.kinds.map((k) => [k.kind, k.opted_out]));
    const rows = [...last].filter(([kind]) => canOptOut(kind)).map(([kind, opted_out]) => ({ kind, opted_out }));
    const at = this.at();
    await this.repo.transaction((trx) => this.repo.putPreferences(trx, userId, rows, at));
    return this.preferences(userId);
  }

  async log(filter: { status?: NoticeStatus; kind?: NoticeKind }, page = 1): Promise<NoticeLogPage> {
    const { count, results } = await this.repo.logPage(filter, (page - 1) * NOTICE_PAGE_SIZE, NOTICE_PAGE_SIZE);
    return { count, next: page * NOTICE_PAGE_SIZE < count ? page + 1 : null, results: results.map(presentLogRow) };
  }

  /**
   * A provider's delivery report (public route): refused unless it carries NOTICE_WEBHOOK_SECRET;
   * without one configured, the route is not there (404). Each report names the provider's message
   * id; the message becomes delivered or failed.
   */
  async deliveryReport(provider: string, secret: string | undefined, raw: Buffer, contentType: string | undefined) {
    if (!this.webhookSecret) throw notFound(GENERAL_MESSAGES.notFound);
    if (!secretMatches(secret, this.webhookSecret)) throw forbidden(NOTICE_MESSAGES.badWebhookSecret);
    if (!(DELIVERY_REPORT_PROVIDERS as readonly string[]).includes(provider)) throw notFound(NOTICE_MESSAGES.unknownProvider);
    let updated = 0;
    const at = this.at();
    for (const body of reportBodies(raw, contentType)) {
      const report = readDeliveryReport(provider as SmsProviderName, body);
      if (!report || report.outcome === 'pending') continue;
      updated += await this.repo.applyReport(provider, report.providerMessageId, report.outcome, at, report.error);
    }
    return { status: 'ok' as const, updated };
  }
}
