import { randomBytes } from 'node:crypto';
import type { SimulatorOutcome } from '@portal/domain';
import type { Config } from '../../config';
import type { DB } from '../../db/index';
import './payments.tables';
import { SimulatorRepository } from './simulator.repository';

/** One interface over the card payment providers: Paystack, or the built-in simulator. */
export interface InitializeInput {
  reference: string;
  amountKobo: number;
  currency: string;
  email: string;
  /** Where the provider sends the payer back: `${origin}/PaymentForm`. */
  callbackUrl: string;
  /** This server's public origin (the simulator's checkout page lives here). */
  origin: string;
  metadata: Record<string, string | null>;
}

export interface InitializeResult {
  authorizationUrl: string;
  accessCode: string | null;
}

/** The provider's view of one transaction. `pending` covers every not-yet-final state. */
export type ProviderTransactionStatus = 'success' | 'failed' | 'abandoned' | 'pending';

export interface VerifyResult {
  status: ProviderTransactionStatus;
  amountKobo: number;
  currency: string;
  paidAt: string | null;
  transactionId: string | null;
  /** The provider's own status word (for the audit trail). */
  providerStatus: string;
}

/** The provider could not be asked (timeout, network, 5xx, malformed answer): nothing is decided. */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'timeout' | 'network' | 'http' | 'bad_response',
    message: string,
  ) {
    super(message);
  }
}

export interface PaymentProvider {
  readonly name: 'paystack' | 'simulator' | 'off';
  initialize(input: InitializeInput): Promise<InitializeResult>;
  verify(reference: string): Promise<VerifyResult>;
}

// ---------------------------------------------------------------- Paystack

interface PaystackEnvelope<T> {
  status?: boolean;
  message?: string;
  data?: T;
}
interface PaystackInitData {
  authorization_url?: string;
  access_code?: string;
  reference?: string;
}
interface PaystackVerifyData {
  id?: number | string;
  status?: string;
  reference?: string;
  amount?: number | string;
  currency?: string;
  paid_at?: string | null;
  paidAt?: string | null;
}

/** Maps Paystack's transaction statuses onto ours: only `success` is money received. */
export function mapPaystackStatus(s: string | undefined): ProviderTransactionStatus {
  switch (s) {
    case 'success':
      return 'success';
    case 'failed':
    case 'reversed':
      return 'failed';
    case 'abandoned':
      return 'abandoned';
    default:
      // ongoing, pending, processing, queued, or anything new: not final, ask again later.
      return 'pending';
  }
}

export class PaystackProvider implements PaymentProvider {
  readonly name = 'paystack' as const;
  constructor(
    private readonly secretKey: string,
    private readonly baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: PaystackEnvelope<T> }> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.secretKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderError('timeout', `Paystack ${path} timed out`);
      throw new ProviderError('network', `Paystack ${path} unreachable: ${(err as Error).message}`);
    }
    let json: PaystackEnvelope<T>;
    try {
      json = (await res.json()) as PaystackEnvelope<T>;
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderError('timeout', `Paystack ${path} timed out`);
      throw new ProviderError('bad_response', `Paystack ${path} answered ${res.status} without JSON`);
    }
    return { status: res.status, json };
  }

  async initialize(input: InitializeInput): Promise<InitializeResult> {
    const { status, json } = await this.call<PaystackInitData>('POST', '/transaction/initialize', {
      amount: input.amountKobo,
      email: input.email,
      reference: input.reference,
      currency: input.currency,
      callback_url: input.callbackUrl,
      metadata: input.metadata,
    });
    const url = json.data?.authorization_url;
    if (status < 200 || status >= 300 || json.status !== true || !url) {
      throw new ProviderError('http', `Paystack initialize refused (${status}): ${json.message ?? ''}`);
    }
    return { authorizationUrl: url, accessCode: json.data?.access_code ?? null };
  }

  async verify(reference: string): Promise<VerifyResult> {
    const { status, json } = await this.call<PaystackVerifyData>('GET', `/transaction/verify/${encodeURIComponent(reference)}`);
    const d = json.data;
    if (status < 200 || status >= 300 || json.status !== true || !d) {
      throw new ProviderError('http', `Paystack verify refused (${status}): ${json.message ?? ''}`);
    }
    if (d.reference !== undefined && d.reference !== reference) {
      throw new ProviderError('bad_response', 'Paystack verify answered for another reference');
    }
    const amount = Number(d.amount);
    return {
      status: mapPaystackStatus(d.status),
      amountKobo: Number.isFinite(amount) ? amount : -1,
      currency: String(d.currency ?? ''),
      paidAt: d.paid_at ?? d.paidAt ?? null,
      transactionId: d.id === undefined ? null : String(d.id),
      providerStatus: String(d.status ?? 'unknown'),
    };
  }
}

// ---------------------------------------------------------------- Off

/**
 * No provider: in production without a Paystack key (and without the operator's explicit
 * PAYMENT_SIMULATOR opt-in), online payment is off. The service refuses before anything is stored.
 */
export class PaymentsOff implements PaymentProvider {
  readonly name = 'off' as const;
  initialize(): Promise<InitializeResult> {
    return Promise.reject(new ProviderError('http', 'online payment is off'));
  }
  verify(): Promise<VerifyResult> {
    return Promise.reject(new ProviderError('http', 'online payment is off'));
  }
}

// ---------------------------------------------------------------- Simulator

/** The checkout page (a screen of the web app, signed in); it completes through /api/payments/simulator/:code/. */
export const SIMULATOR_PATH = '/pay/simulator';

/** Where the simulator sends the payer back, as Paystack does: `callback?trxref=REF&reference=REF`. */
export function simulatorReturnUrl(tx: { callback_url: string; reference: string }): string {
  const sep = tx.callback_url.includes('?') ? '&' : '?';
  const ref = encodeURIComponent(tx.reference);
  return `${tx.callback_url}${sep}trxref=${ref}&reference=${ref}`;
}

/**
 * The built-in provider used when no Paystack key is configured: it keeps its own ledger of
 * transactions and serves a local checkout page (Pay / Decline / Abandon). Verification reads
 * that ledger, exactly as it would ask Paystack, so nothing the browser says is trusted.
 */
export class SimulatorProvider implements PaymentProvider {
  readonly name = 'simulator' as const;
  private readonly ledger: SimulatorRepository;
  constructor(db: DB) {
    this.ledger = new SimulatorRepository(db);
  }

  async initialize(input: InitializeInput): Promise<InitializeResult> {
    const accessCode = randomBytes(16).toString('hex');
    await this.ledger.insert({ ...input, accessCode });
    return { authorizationUrl: `${input.origin}${SIMULATOR_PATH}/${accessCode}`, accessCode };
  }

  async verify(reference: string): Promise<VerifyResult> {
    const tx = await this.ledger.byReference(reference);
    if (!tx) throw new ProviderError('http', 'Simulator: transaction reference not found');
    return {
      status: tx.status,
      amountKobo: tx.amount_kobo,
      currency: tx.currency,
      paidAt: tx.paid_at,
      transactionId: `SIM-${tx.access_code.slice(0, 10)}`,
      providerStatus: tx.status,
    };
  }

  findByAccessCode(code: string) {
    return this.ledger.byAccessCode(code);
  }

  /** Records the payer's choice once; a second click changes nothing. */
  complete(code: string, outcome: SimulatorOutcome): Promise<boolean> {
    return this.ledger.complete(code, outcome);
  }
}

/**
 * Paystack when a secret key is configured; else the built-in simulator outside production,
 * or in production only on the operator's explicit PAYMENT_SIMULATOR opt-in; else payments are off.
 */
export function paymentProviderFor(
  config: Pick<Config, 'paystackSecretKey' | 'paystackBaseUrl' | 'paymentSimulator'>,
  db: DB,
): PaymentProvider {
  if (config.paystackSecretKey) return new PaystackProvider(config.paystackSecretKey, config.paystackBaseUrl);
  return config.paymentSimulator ? new SimulatorProvider(db) : new PaymentsOff();
}
