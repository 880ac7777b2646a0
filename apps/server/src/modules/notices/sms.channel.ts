import type { SmsProviderName } from '@portal/domain';

/** One SMS to send; `reference` is the message's own id ("notice-<id>"), the same on every attempt. */
export interface OutgoingSms {
  reference: string;
  /** E.164, "+2348031234567". */
  to: string;
  body: string;
  senderId: string;
}

/**
 * What a send attempt came to:
 * - accepted: the provider took it (its id, for delivery reports);
 * - rejected: it did not take it (`retryable`: worth another attempt later; else never);
 * - unknown: it may have taken it (a timeout or a broken connection after the request went out).
 */
export type SendOutcome =
  | { kind: 'accepted'; providerMessageId: string }
  | { kind: 'rejected'; retryable: boolean; error: string }
  | { kind: 'unknown'; error: string };

/** An SMS provider's HTTP API. Add a provider: one adapter and one name in the domain's SMS_PROVIDERS. */
export interface SmsAdapter {
  readonly name: SmsProviderName;
  /**
   * Whether the provider recognises a repeated `reference` and sends it once. Only then may the
   * worker send again a message whose outcome it does not know (docs/decisions/036).
   */
  readonly dedupesByReference: boolean;
  send(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome>;
}

/** A delivery report read from a provider's callback: its message id and what became of it. */
export interface DeliveryReport {
  providerMessageId: string;
  outcome: 'delivered' | 'failed' | 'pending';
  error?: string;
}

/** What went wrong with a fetch: refused before the request left (safe to retry), or unknown. */
function fetchFailure(err: unknown): SendOutcome {
  const e = err as { name?: string; cause?: { code?: string } };
  const code = e.cause?.code ?? '';
  // The connection was never made: the provider cannot have the message.
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET_BEFORE_SEND', 'UND_ERR_CONNECT_TIMEOUT'].includes(code)) {
    return { kind: 'rejected', retryable: true, error: `connection failed (${code})` };
  }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return { kind: 'unknown', error: 'timed out waiting for the provider' };
  return { kind: 'unknown', error: `connection broke (${code || e.name || 'error'})` };
}

/** HTTP statuses worth a retry: the provider's trouble or our limits, not the message's. */
function retryableStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 408 || status === 429 || status >= 500;
}

/** Provider error text kept short, and never with the key (a provider may echo the request back). */
function short(text: string, secret?: string): string {
  const clean = secret ? text.split(secret).join('[redacted]') : text;
  return clean.replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * Termii (https://developers.termii.com, "Send message"): POST {base}/api/sms/send with a JSON body
 * {to, from, sms, type: 'plain', channel, api_key}; 200 answers {message_id, message, balance}.
 * Numbers without the '+'. No idempotency key: a repeat is a second SMS.
 */
export class TermiiSms implements SmsAdapter {
  readonly name = 'termii' as const;
  readonly dedupesByReference = false;
  constructor(
    private readonly apiKey: string,
    private readonly baseUrl = 'https://api.ng.termii.com',
    private readonly channel: 'generic' | 'dnd' = 'dnd',
  ) {}

  async send(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/api/sms/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          to: sms.to.replace(/^\+/, ''),
          from: sms.senderId,
          sms: sms.body,
          type: 'plain',
          channel: this.channel,
          api_key: this.apiKey,
        }),
        signal,
      });
    } catch (err) {
      return fetchFailure(err);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok)
      return { kind: 'rejected', retryable: retryableStatus(res.status), error: `termii ${res.status}: ${short(text, this.apiKey)}` };
    try {
      const body = JSON.parse(text) as { message_id?: string | number; code?: string };
      if (body.message_id === undefined || body.message_id === '')
        return { kind: 'unknown', error: `termii answered without an id: ${short(text, this.apiKey)}` };
      return { kind: 'accepted', providerMessageId: String(body.message_id) };
    } catch {
      return { kind: 'unknown', error: `termii answered ${res.status} with no JSON` };
    }
  }

  /** Termii's delivery report (JSON): {message_id, status: 'DELIVERED' | 'Message Failed' | 'Rejected' | 'Expired' | ...}. */
  static report(body: Record<string, unknown>): DeliveryReport | null {
    const id = body.message_id ?? body.id;
    if (typeof id !== 'string' && typeof id !== 'number') return null;
    const status = (typeof body.status === 'string' ? body.status : '').toLowerCase();
    const outcome = status === 'delivered' ? 'delivered' : /fail|reject|expire|undeliver|dnd/.test(status) ? 'failed' : 'pending';
    return { providerMessageId: String(id), outcome, ...(outcome === 'failed' ? { error: short(status) } : {}) };
  }
}

/**
 * Africa's Talking (https://developers.africastalking.com, "SMS: sending"): POST
 * {base}/version1/messaging, form-encoded {username, to, message, from}, header `apiKey`; 201
 * answers SMSMessageData.Recipients[] with statusCode (100-102 taken) and messageId. The sandbox's
 * origin is https://api.sandbox.africastalking.com (username `sandbox`). No idempotency key.
 */
export class AfricasTalkingSms implements SmsAdapter {
  readonly name = 'africastalking' as const;
  readonly dedupesByReference = false;
  constructor(
    private readonly apiKey: string,
    private readonly username: string,
    private readonly baseUrl = username === 'sandbox' ? 'https://api.sandbox.africastalking.com' : 'https://api.africastalking.com',
  ) {}

  async send(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
    const form = new URLSearchParams({ username: this.username, to: sms.to, message: sms.body });
    if (sms.senderId) form.set('from', sms.senderId);
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}/version1/messaging`, {
        method: 'POST',
        headers: { apiKey: this.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        signal,
      });
    } catch (err) {
      return fetchFailure(err);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok)
      return {
        kind: 'rejected',
        retryable: retryableStatus(res.status),
        error: `africastalking ${res.status}: ${short(text, this.apiKey)}`,
      };
    let recipient: { statusCode?: number; status?: string; messageId?: string } | undefined;
    try {
      const body = JSON.parse(text) as { SMSMessageData?: { Recipients?: (typeof recipient)[] } };
      recipient = body.SMSMessageData?.Recipients?.[0];
    } catch {
      return { kind: 'unknown', error: `africastalking answered ${res.status} with no JSON` };
    }
    if (!recipient) return { kind: 'rejected', retryable: false, error: `africastalking took no recipient: ${short(text, this.apiKey)}` };
    const code = recipient.statusCode ?? 0;
    if (code >= 100 && code <= 102 && recipient.messageId) return { kind: 'accepted', providerMessageId: recipient.messageId };
    // 405 insufficient balance, 500-502 gateway trouble: later; 401-407 otherwise: this message never.
    const retryable = code === 405 || code >= 500;
    return { kind: 'rejected', retryable, error: `africastalking ${code} ${short(recipient.status ?? '')}` };
  }

  /** Africa's Talking's delivery report (form fields): id, status ('Success' | 'Failed' | 'Rejected' | 'Sent' | 'Buffered' ...), failureReason. */
  static report(body: Record<string, unknown>): DeliveryReport | null {
    const id = body.id;
    if (typeof id !== 'string' || !id) return null;
    const status = typeof body.status === 'string' ? body.status : '';
    const outcome = status === 'Success' ? 'delivered' : status === 'Failed' || status === 'Rejected' ? 'failed' : 'pending';
    const reason = typeof body.failureReason === 'string' ? body.failureReason : status;
    return { providerMessageId: id, outcome, ...(outcome === 'failed' ? { error: short(reason) } : {}) };
  }
}

/** How the fake answers one send. */
export type FakeSmsBehaviour =
  /** Takes it. */
  | 'ok'
  /** Refuses it for now (a 500): retried. */
  | 'error'
  /** Refuses it for good (an invalid number). */
  | 'reject'
  /** Never answers: the worker's timeout ends the wait; the message was not taken. */
  | 'timeout'
  /** Takes it, then never answers: the message WAS taken but the worker does not know. */
  | 'accept_then_timeout'
  /** Takes it, then answers an error (a proxy's 502 after the provider took it). */
  | 'accept_then_error';

export interface FakeSms {
  reference: string;
  id: string;
  to: string;
  body: string;
  senderId: string;
}

/**
 * The local SMS provider of development and tests (like the payment simulator): records what it
 * takes, answers as it is told (`script`, one behaviour per call, then `otherwise`), and, like a
 * provider with an idempotency key, takes a repeated reference once (`dedupe`, default on).
 */
export class FakeSmsProvider implements SmsAdapter {
  readonly name = 'fake' as const;
  readonly dedupesByReference: boolean;
  /** Every message taken, once each. */
  readonly sent: FakeSms[] = [];
  /** Every call, repeats included. */
  calls = 0;
  script: FakeSmsBehaviour[] = [];
  otherwise: FakeSmsBehaviour = 'ok';
  /** Milliseconds each answer takes (lets two workers interleave in tests). */
  latencyMs = 0;
  private next = 1;

  constructor(opts: { dedupe?: boolean } = {}) {
    this.dedupesByReference = opts.dedupe ?? true;
  }

  /** The next calls answer these, in order. */
  answer(...behaviours: FakeSmsBehaviour[]): this {
    this.script.push(...behaviours);
    return this;
  }

  /** The messages taken for a number. */
  to(number: string): FakeSms[] {
    return this.sent.filter((m) => m.to === number);
  }

  private take(sms: OutgoingSms): FakeSms {
    const seen = this.dedupesByReference ? this.sent.find((m) => m.reference === sms.reference) : undefined;
    if (seen) return seen;
    const taken = { reference: sms.reference, id: `fake-${this.next++}`, to: sms.to, body: sms.body, senderId: sms.senderId };
    this.sent.push(taken);
    return taken;
  }

  async send(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
    this.calls += 1;
    const behaviour = this.script.shift() ?? this.otherwise;
    if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
    const hang = () =>
      new Promise<SendOutcome>((resolve) => {
        const done = () => resolve({ kind: 'unknown', error: 'timed out waiting for the provider' });
        if (signal.aborted) done();
        else signal.addEventListener('abort', done, { once: true });
      });
    switch (behaviour) {
      case 'ok':
        return { kind: 'accepted', providerMessageId: this.take(sms).id };
      case 'error':
        return { kind: 'rejected', retryable: true, error: 'fake 500: try later' };
      case 'reject':
        return { kind: 'rejected', retryable: false, error: 'fake 400: invalid number' };
      case 'timeout':
        return hang();
      case 'accept_then_timeout':
        this.take(sms);
        return hang();
      case 'accept_then_error':
        this.take(sms);
        return { kind: 'unknown', error: 'fake 502 after the message was taken' };
    }
  }

  /** The fake's delivery report: {message_id, status: 'delivered' | 'failed'}. */
  static report(body: Record<string, unknown>): DeliveryReport | null {
    const id = body.message_id;
    if (typeof id !== 'string' || !id) return null;
    const outcome = body.status === 'delivered' ? 'delivered' : body.status === 'failed' ? 'failed' : 'pending';
    return { providerMessageId: id, outcome, ...(outcome === 'failed' ? { error: 'failed (fake report)' } : {}) };
  }
}

/** Reads a provider's delivery report body, or null when it is not one. */
export function readDeliveryReport(provider: SmsProviderName, body: Record<string, unknown>): DeliveryReport | null {
  if (provider === 'termii') return TermiiSms.report(body);
  if (provider === 'africastalking') return AfricasTalkingSms.report(body);
  return FakeSmsProvider.report(body);
}
