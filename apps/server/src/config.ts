import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const boolish = z.enum(['1', '0', 'true', 'false', 'yes', 'no', '']).transform((v) => v === '1' || v === 'true' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Default: 127.0.0.1 outside production, every interface (0.0.0.0) in production. */
  HOST: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  PAYSTACK_SECRET_KEY: z.string().optional(),
  PAYSTACK_BASE_URL: z.string().default('https://api.paystack.co'),
  PUBLIC_URL: z.string().optional(),
  /** Host names (optionally host:port), comma-separated, that payment return addresses may use when PUBLIC_URL is unset. */
  ALLOWED_HOSTS: z.string().optional(),
  /** Operator opt-in: the payment simulator in production, for demos only (credits fees with no money). */
  PAYMENT_SIMULATOR: boolish.optional(),
  DEMO_DATA: boolish.optional(),
  /** Tests only (refused in production): fixed demo passwords instead of random ones. */
  DEMO_PASSWORD: z.string().min(1).optional(),
  DEMO_STAFF_PASSWORD: z.string().min(1).optional(),
  DEMO_STUDENT_PASSWORD: z.string().min(1).optional(),
  /** Who may read /api/docs: `public` (default outside production), `admin`, or `off` (default in production). */
  API_DOCS: z.enum(['public', 'admin', 'off']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty` (one readable line per entry; default in development) or `json` (one JSON object a line; default otherwise). */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  REDIS_URL: z.string().optional(),
  /** Sign-in attempts allowed per client address per minute (default 30); benchmarks raise it. */
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  /** Payment checkouts one signed-in user may start per minute (default 20); the soak test raises it. */
  PAYMENT_INITIATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  TRUST_PROXY: boolish.default(false),
  /** Report-card PDFs rendered at once per process (default 2), and how long another may wait (ms, default 15000). */
  PDF_RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  PDF_RENDER_WAIT_MS: z.coerce.number().int().min(0).optional(),
  PDF_STORE: boolish.optional(),
  /** Report cards memoised per process until a write changes their tables (decision 053; `CARD_MEMO=0` computes every card). */
  CARD_MEMO: boolish.optional(),
  /** Heavy reports (broadsheets, an arm's cards, ledger, debtors, exports) one user may run at once (default 2). */
  HEAVY_REPORTS_PER_USER: z.coerce.number().int().min(1).max(16).optional(),
  /** Heavy reports run at once per process (default 1), and how many may wait (default 20) and how long (ms, default 30000). */
  HEAVY_REPORT_CONCURRENCY: z.coerce.number().int().min(1).max(16).optional(),
  HEAVY_REPORT_QUEUE: z.coerce.number().int().min(0).max(1000).optional(),
  HEAVY_REPORT_WAIT_MS: z.coerce.number().int().min(0).optional(),
  /** Where the built SPA is (tests build it elsewhere). */
  WEB_DIST: z.string().optional(),
  /**
   * For A/B benchmarks only (bench/web.ts `--levers`): the levers of the server-rendered card page
   * (docs/decisions/049, 054) to turn off, comma-separated: `inline-css`, `idle-start`, `one-lookup`, `paint-first`, `sheet-later` (decision 055).
   */
  SERVER_PAGE_LEVERS_OFF: z.string().optional(),
  /** The operator's bearer token for GET /metrics (Prometheus); unset: /metrics answers 404. */
  METRICS_TOKEN: z.string().optional(),
  /** On SIGTERM, how long (ms) the process keeps serving with /api/health/ready at 503 before it closes. */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** Notices (docs/decisions/036). SMS: `termii`, `africastalking`, `fake` (default outside production), or `off`. */
  SMS_PROVIDER: z.enum(['termii', 'africastalking', 'fake', 'off']).optional(),
  SMS_API_KEY: z.string().optional(),
  /** Africa's Talking's account user name (`sandbox` for its sandbox). */
  SMS_USERNAME: z.string().optional(),
  /** The school's registered sender ID (the admin's notice settings may name another). */
  SMS_SENDER_ID: z.string().optional(),
  /** The provider's API origin, to use a sandbox or a local stand-in. */
  SMS_BASE_URL: z.string().optional(),
  /** smtp(s)://user:password@host:port; unset: email through the local fake outside production, off in production. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().optional(),
  /** `off`: this instance sends no notices (another does); default on. */
  NOTICES_WORKER: z.enum(['on', 'off']).optional(),
  /** The secret providers' delivery reports carry (query `secret` or header x-notice-secret); unset: reports refused. */
  NOTICE_WEBHOOK_SECRET: z.string().optional(),
  /** Result-checker PINs' key (decision 043): hashes and encrypts PINs; unset: generated once under DATA_DIR. Every instance needs the same. */
  RESULT_PIN_SECRET: z.string().min(32, 'RESULT_PIN_SECRET must be at least 32 characters').optional(),
  /** Wrong PIN checks allowed per client address in 15 minutes (default 20); benchmarks raise it. */
  RESULT_PIN_ADDRESS_FAILURES: z.coerce.number().int().min(1).optional(),
});

export interface Config {
  env: string;
  production: boolean;
  port: number;
  host: string;
  dataDir: string;
  /** `sqlite:<file>` or a postgres:// URL */
  databaseUrl: string;
  adminEmail?: string;
  adminPassword?: string;
  jwtSecret: string;
  paystackSecretKey?: string;
  paystackBaseUrl: string;
  publicUrl?: string;
  /** Hosts (beyond loopback and HOST) accepted for payment return addresses when publicUrl is unset. */
  allowedHosts: string[];
  /** The simulator takes payments when no Paystack key is set: default outside production, opt-in in it. */
  paymentSimulator: boolean;
  demoData: boolean;
  /** Fixed demo passwords (tests); random ones, printed once, when absent. */
  demoPasswords?: { staff?: string; student?: string };
  apiDocs: 'public' | 'admin' | 'off';
  logLevel: string;
  /** pretty: pino-pretty lines (development); json: pino's lines, for log collectors (production, tests). */
  logFormat: 'pretty' | 'json';
  redisUrl?: string;
  trustProxy: boolean;
  /** Where the built SPA lives; absent in API-only tests. */
  webDist?: string;
  /** Levers of the server-rendered pages turned off for an A/B benchmark (docs/decisions/049); empty in use. */
  serverPageLeversOff?: ReadonlySet<string>;
  /** Sign-in throttling (ASVS 6.3.1). */
  loginLimits: {
    perAccountFailures: number;
    perAccountBlockSeconds: number;
    perAddressPerMinute: number;
  };
  /**
   * Wrong passwords for one account from browsers without its device cookie, counted across every
   * address (OWASP device cookies): past `failures` in `windowSeconds`, such browsers are refused
   * for the account for `blockSeconds`, while a browser that signed in to it before still gets in.
   */
  untrustedSignIn: { failures: number; windowSeconds: number; blockSeconds: number };
  /** How long a browser stays known to an account after signing in to it (the device cookie's life). */
  deviceCookieSeconds: number;
  /** Checkouts one signed-in user may start per minute: each one calls the payment provider. */
  paymentInitiatePerMinute: number;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /**
   * PDFs rendered at once; further requests wait up to `waitMs`, then get 503. `store`: released
   * report cards' PDFs stored and drawn at release (decision 050; `PDF_STORE=0` draws every download,
   * as before: the A/B of the results-day bench).
   */
  pdfRender: { concurrency: number; waitMs: number; store?: boolean };
  /** Report cards memoised until a write changes what they show (decision 053); false with `CARD_MEMO=0` (A/B runs). */
  cardMemo?: boolean;
  /**
   * Heavy reports: `perUser` at once for one user (more: 429), `concurrency` at once per process,
   * `queue` more waiting up to `waitMs` each (more, or longer: 503). lib/limiter.ts HeavyReportLimiter.
   */
  heavyReports: { perUser: number; concurrency: number; queue: number; waitMs: number };
  /** The operator's token for /metrics; absent: no metrics are collected and /metrics is a 404. */
  metricsToken?: string;
  /** Draining on SIGTERM: readiness answers 503 this long (ms) while requests are still served. */
  shutdownDelayMs: number;
  /** Notices' channels and worker (docs/decisions/036): secrets from the environment only, never logged. */
  notices: NoticesConfig;
  /** The result-checker PINs' secret (decision 043): the keys of their HMAC, their printable copies' encryption and PDF links. */
  resultPinSecret: string;
  /**
   * Wrong PIN checks (decision 043), counted as sign-in's are (login_throttle rows): per admission
   * number over every address, and per address; past `max` in `windowSeconds`, refused for `blockSeconds`.
   */
  resultPinLimits: {
    perNumber: { max: number; windowSeconds: number; blockSeconds: number };
    perAddress: { max: number; windowSeconds: number; blockSeconds: number };
  };
}

export interface NoticesConfig {
  /** Whether this process runs the delivery worker (main.ts starts it). */
  worker: boolean;
  /** null: SMS is off (production until configured). */
  sms: { provider: 'termii' | 'africastalking' | 'fake'; apiKey?: string; username?: string; senderId?: string; baseUrl?: string } | null;
  /** null: email is off; `fake`: recorded, not sent (development and tests). */
  email: { transport: 'smtp'; smtpUrl: string; from: string } | { transport: 'fake'; from: string } | null;
  webhookSecret?: string;
}

/**
 * The notice channels from the environment: fakes by default outside production; in production a
 * channel is off until its provider is configured, and the fakes are refused.
 */
function noticesConfig(e: z.infer<typeof envSchema>, production: boolean): NoticesConfig {
  const invalid = (m: string) => new Error(`Invalid configuration: ${m}`);
  const provider = e.SMS_PROVIDER ?? (production ? 'off' : 'fake');
  if (production && provider === 'fake') throw invalid('SMS_PROVIDER=fake is refused in production.');
  const apiKey = e.SMS_API_KEY?.trim() || undefined;
  if ((provider === 'termii' || provider === 'africastalking') && !apiKey) throw invalid(`SMS_PROVIDER=${provider} needs SMS_API_KEY.`);
  if (provider === 'africastalking' && !e.SMS_USERNAME?.trim()) throw invalid('SMS_PROVIDER=africastalking needs SMS_USERNAME.');
  const baseUrl = e.SMS_BASE_URL?.trim().replace(/\/+$/, '') || undefined;
  if (baseUrl && !/^https?:\/\/[^\s]+$/.test(baseUrl)) throw invalid('SMS_BASE_URL must be an http(s) URL.');
  const sms =
    provider === 'off'
      ? null
      : { provider, apiKey, username: e.SMS_USERNAME?.trim() || undefined, senderId: e.SMS_SENDER_ID?.trim() || undefined, baseUrl };
  const smtpUrl = e.SMTP_URL?.trim() || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw invalid('SMTP_URL must start with smtp:// or smtps://.');
  const from = e.MAIL_FROM?.trim() || undefined;
  if (smtpUrl && !from) throw invalid('SMTP_URL needs MAIL_FROM (e.g. MAIL_FROM="School <noreply@school.ng>").');
  const email = smtpUrl
    ? { transport: 'smtp' as const, smtpUrl, from: from! }
    : production
      ? null
      : { transport: 'fake' as const, from: from ?? 'School <noreply@school.invalid>' };
  const webhookSecret = e.NOTICE_WEBHOOK_SECRET?.trim() || undefined;
  if (webhookSecret && webhookSecret.length < 16) throw invalid('NOTICE_WEBHOOK_SECRET must be at least 16 characters.');
  return { worker: e.NOTICES_WORKER !== 'off', sms, email, webhookSecret };
}

/** 10 wrong passwords in 15 minutes from unknown browsers close the account to them for 15 minutes. */
const UNTRUSTED_SIGN_IN = { failures: 10, windowSeconds: 15 * 60, blockSeconds: 15 * 60 };
const DEVICE_COOKIE_SECONDS = 180 * 24 * 3600;
const HEAVY_REPORTS = { perUser: 2, concurrency: 1, queue: 20, waitMs: 30_000 };

const RESULT_PIN_LIMITS = {
  perNumber: { max: 10, windowSeconds: 15 * 60, blockSeconds: 15 * 60 },
  perAddress: { max: 20, windowSeconds: 15 * 60, blockSeconds: 15 * 60 },
};

/** A secret (the JWT's, the PINs') is generated once and kept under the data directory when not configured. */
function loadOrCreateSecret(dataDir: string, name = 'jwt-secret'): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const production = e.NODE_ENV === 'production';
  // Demo accounts with known passwords never reach a real school.
  const fixedDemo = ['DEMO_PASSWORD', 'DEMO_STAFF_PASSWORD', 'DEMO_STUDENT_PASSWORD'].filter((k) => env[k]);
  if (production && e.DEMO_DATA) throw new Error('Invalid configuration: DEMO_DATA is refused in production (NODE_ENV=production).');
  if (production && fixedDemo.length) throw new Error(`Invalid configuration: ${fixedDemo.join(', ')} is refused in production.`);
  // An empty DATABASE_URL means unset: never a throwaway database.
  const databaseUrl = e.DATABASE_URL?.trim() || `sqlite:${path.join(dataDir, 'portal.db')}`;
  const publicUrl = e.PUBLIC_URL?.trim().replace(/\/+$/, '') || undefined;
  if (publicUrl && !/^https?:\/\/[^/?#\s]+$/.test(publicUrl)) {
    throw new Error(`Invalid configuration: PUBLIC_URL must be an http(s) origin such as https://portal.school.ng (got ${publicUrl})`);
  }
  // Payment return addresses are built from PUBLIC_URL; production never takes them from the Host header.
  if (production && !publicUrl) {
    throw new Error('Invalid configuration: PUBLIC_URL is required in production (e.g. PUBLIC_URL=https://portal.school.ng)');
  }
  // A token an operator can type into Prometheus's `authorization` (bearer) setting, and long enough not to be guessed.
  const metricsToken = e.METRICS_TOKEN?.trim() || undefined;
  if (metricsToken && !/^[A-Za-z0-9._~+/=-]{32,512}$/.test(metricsToken)) {
    throw new Error(
      'Invalid configuration: METRICS_TOKEN must be 32 to 512 characters of A-Z, a-z, 0-9 and ._~+/=- (e.g. openssl rand -hex 32)',
    );
  }
  // src/ (tsx) and dist/ (compiled, `npm start`) both sit two levels below apps/.
  const webDist = e.WEB_DIST ? path.resolve(e.WEB_DIST) : path.resolve(import.meta.dirname, '../../web/dist');
  return {
    env: e.NODE_ENV,
    production,
    port: e.PORT,
    host: e.HOST || (production ? '0.0.0.0' : '127.0.0.1'),
    dataDir,
    databaseUrl,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir),
    paystackSecretKey: e.PAYSTACK_SECRET_KEY || undefined,
    paystackBaseUrl: e.PAYSTACK_BASE_URL.replace(/\/$/, ''),
    publicUrl,
    allowedHosts: (e.ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    paymentSimulator: e.PAYMENT_SIMULATOR ?? !production,
    demoData: e.DEMO_DATA ?? !production,
    demoPasswords: fixedDemo.length
      ? { staff: e.DEMO_STAFF_PASSWORD ?? e.DEMO_PASSWORD, student: e.DEMO_STUDENT_PASSWORD ?? e.DEMO_PASSWORD }
      : undefined,
    apiDocs: e.API_DOCS ?? (production ? 'off' : 'public'),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'development' ? 'pretty' : 'json'),
    redisUrl: e.REDIS_URL || undefined,
    trustProxy: e.TRUST_PROXY,
    webDist: existsSync(webDist) ? webDist : undefined,
    serverPageLeversOff: new Set(
      (e.SERVER_PAGE_LEVERS_OFF ?? '')
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
    ),
    loginLimits: { perAccountFailures: 5, perAccountBlockSeconds: 60, perAddressPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE ?? 30 },
    untrustedSignIn: UNTRUSTED_SIGN_IN,
    deviceCookieSeconds: DEVICE_COOKIE_SECONDS,
    paymentInitiatePerMinute: e.PAYMENT_INITIATE_LIMIT_PER_MINUTE ?? 20,
    accessTokenSeconds: 15 * 60,
    refreshTokenSeconds: 14 * 24 * 3600,
    pdfRender: { concurrency: e.PDF_RENDER_CONCURRENCY ?? 2, waitMs: e.PDF_RENDER_WAIT_MS ?? 15_000, store: e.PDF_STORE ?? true },
    cardMemo: e.CARD_MEMO ?? true,
    heavyReports: {
      perUser: e.HEAVY_REPORTS_PER_USER ?? HEAVY_REPORTS.perUser,
      concurrency: e.HEAVY_REPORT_CONCURRENCY ?? HEAVY_REPORTS.concurrency,
      queue: e.HEAVY_REPORT_QUEUE ?? HEAVY_REPORTS.queue,
      waitMs: e.HEAVY_REPORT_WAIT_MS ?? HEAVY_REPORTS.waitMs,
    },
    metricsToken,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS,
    notices: noticesConfig(e, production),
    resultPinSecret: e.RESULT_PIN_SECRET ?? loadOrCreateSecret(dataDir, 'result-pin-secret'),
    resultPinLimits: {
      ...RESULT_PIN_LIMITS,
      perAddress: { ...RESULT_PIN_LIMITS.perAddress, max: e.RESULT_PIN_ADDRESS_FAILURES ?? RESULT_PIN_LIMITS.perAddress.max },
    },
  };
}

/** A configuration for tests: no env, no data dir, fast and deterministic. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    production: false,
    port: 0,
    host: '127.0.0.1',
    dataDir: '/tmp',
    databaseUrl: 'sqlite::memory:',
    jwtSecret: 'test-secret-test-secret-test-secret-0123456789',
    paystackBaseUrl: 'http://127.0.0.1:1',
    demoData: false,
    apiDocs: 'public',
    logLevel: 'silent',
    logFormat: 'json',
    trustProxy: false,
    allowedHosts: [],
    paymentSimulator: true,
    loginLimits: { perAccountFailures: 5, perAccountBlockSeconds: 60, perAddressPerMinute: 1000 },
    untrustedSignIn: UNTRUSTED_SIGN_IN,
    deviceCookieSeconds: DEVICE_COOKIE_SECONDS,
    paymentInitiatePerMinute: 1000,
    accessTokenSeconds: 15 * 60,
    refreshTokenSeconds: 14 * 24 * 3600,
    pdfRender: { concurrency: 2, waitMs: 15_000 },
    heavyReports: HEAVY_REPORTS,
    shutdownDelayMs: 0,
    notices: { worker: false, sms: { provider: 'fake' }, email: { transport: 'fake', from: 'School <noreply@test.school>' } },
    resultPinSecret: 'test-pin-secret-test-pin-secret-0123456789',
    resultPinLimits: RESULT_PIN_LIMITS,
    ...overrides,
  };
}
