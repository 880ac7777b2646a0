import nodemailer, { type Transporter } from 'nodemailer';
import { cleanNoticeLine, cleanNoticeText, noticeHtml } from '@portal/domain';
import type { SendOutcome } from './sms.channel';

/** One email to send; `reference` ("notice-<id>") becomes its Message-ID. */
export interface OutgoingEmail {
  reference: string;
  to: string;
  subject: string;
  /** Plain text: the HTML part is this text escaped, never HTML the school typed. */
  body: string;
}

export interface EmailAdapter {
  readonly name: 'smtp' | 'fake';
  /** SMTP has no idempotency key: a repeat is a second email (docs/decisions/036). */
  readonly dedupesByReference: boolean;
  send(mail: OutgoingEmail, signal: AbortSignal): Promise<SendOutcome>;
}

/** The message nodemailer is given: text and its escaped HTML, one-line subject and address. */
export function mailOf(from: string, mail: OutgoingEmail, domain: string) {
  return {
    from,
    to: cleanNoticeLine(mail.to),
    subject: cleanNoticeLine(mail.subject),
    text: cleanNoticeText(mail.body),
    html: noticeHtml(mail.body),
    messageId: `<${mail.reference}@${domain}>`,
  };
}

/** SMTP reply codes and nodemailer's error codes, read as an outcome. */
function smtpFailure(err: unknown): SendOutcome {
  const e = err as { code?: string; responseCode?: number; message?: string };
  const error = `smtp ${e.code ?? ''} ${e.responseCode ?? ''} ${(e.message ?? '').slice(0, 160)}`.replace(/\s+/g, ' ').trim();
  if (e.responseCode && e.responseCode >= 500) return { kind: 'rejected', retryable: false, error };
  if (e.responseCode && e.responseCode >= 400) return { kind: 'rejected', retryable: true, error };
  // Not connected, not signed in: the server never had the message.
  if (e.code === 'ECONNECTION' || e.code === 'EDNS' || e.code === 'EAUTH' || e.code === 'ETLS') {
    return { kind: 'rejected', retryable: true, error };
  }
  if (e.code === 'EENVELOPE') return { kind: 'rejected', retryable: false, error };
  // A timeout or a broken socket during the exchange: it may have been taken.
  return { kind: 'unknown', error };
}

/** Email through an SMTP server (SMTP_URL), with nodemailer. */
export class SmtpEmail implements EmailAdapter {
  readonly name = 'smtp' as const;
  readonly dedupesByReference = false;
  private readonly transport: Transporter;
  private readonly domain: string;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    timeoutMs = 15_000,
  ) {
    // The URL's own settings, with timeouts so a stuck server never holds a send past its lease.
    const url = new URL(smtpUrl);
    url.searchParams.set('connectionTimeout', String(timeoutMs));
    url.searchParams.set('greetingTimeout', String(timeoutMs));
    url.searchParams.set('socketTimeout', String(timeoutMs));
    this.transport = nodemailer.createTransport(url.toString());
    this.domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'portal.invalid';
  }

  async send(mail: OutgoingEmail, signal: AbortSignal): Promise<SendOutcome> {
    if (signal.aborted) return { kind: 'rejected', retryable: true, error: 'not sent: stopping' };
    try {
      const info = (await this.transport.sendMail(mailOf(this.from, mail, this.domain))) as { messageId?: string };
      return { kind: 'accepted', providerMessageId: info.messageId ?? mail.reference };
    } catch (err) {
      return smtpFailure(err);
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** The local email channel of development and tests: nodemailer's JSON transport, every message kept. */
export class FakeEmail implements EmailAdapter {
  readonly name = 'fake' as const;
  readonly dedupesByReference = false;
  private readonly transport = nodemailer.createTransport({ jsonTransport: true });
  /** What nodemailer built for each message (from, to, subject, text, html, messageId). */
  readonly sent: { from: string; to: string; subject: string; text: string; html: string; messageId: string }[] = [];
  /** Answers errors while set: 'temporary' (a 451), 'permanent' (a 550). */
  failing: 'temporary' | 'permanent' | null = null;

  constructor(private readonly from = 'School <noreply@school.invalid>') {}

  async send(mail: OutgoingEmail): Promise<SendOutcome> {
    if (this.failing) {
      return smtpFailure({ code: 'EMESSAGE', responseCode: this.failing === 'temporary' ? 451 : 550, message: 'fake refusal' });
    }
    const info = (await this.transport.sendMail(mailOf(this.from, mail, 'school.invalid'))) as { message: string; messageId: string };
    const built = JSON.parse(info.message) as {
      from: { address: string };
      to: { address: string }[];
      subject: string;
      text: string;
      html: string;
    };
    this.sent.push({
      from: built.from.address,
      to: built.to.map((t) => t.address).join(', '),
      subject: built.subject,
      text: built.text,
      html: built.html,
      messageId: info.messageId,
    });
    return { kind: 'accepted', providerMessageId: info.messageId };
  }
}
