import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { AUTH_MESSAGES } from '@portal/domain';
import type { Config } from './config';
import type { DatabaseHandle } from './db/index';
import { registerAuth } from './http/auth';
import type { AppDeps } from './http/deps';
import { registerErrorHandling } from './http/errors';
import { registerHeavyReports } from './http/heavy-reports';
import { registerIdempotency } from './http/idempotency';
import { loggerOptions, OneLinePerRequest } from './http/logging';
import { registerNulGuard } from './http/nul-guard';
import { LimiterStoreStatus, limiterRedis, rateLimitStore } from './http/rate-limit-store';
import { registerSpa } from './http/spa';
import { createResponseSerializerCompiler } from './http/response-serializer';
import { registerErrorEnvelopes } from './http/error-envelopes';
import { openapiTransform, openapiTransformObject } from './http/openapi';
import { ConcurrencyLimiter, HeavyReportLimiter } from './lib/limiter';
import { listenForTableChanges } from './db/table-listener';
import { StorageStatus } from './lib/storage-status';
import { buildServices } from './composition';
import { attendanceRoutes } from './modules/attendance/attendance.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { capabilitiesRoutes } from './modules/auth/capabilities.routes';
import { bursaryRoutes } from './modules/payments/bursary.routes';
import { healthRoutes } from './modules/health/health.routes';
import { Lifecycle } from './modules/health/lifecycle';
import { registerMetrics } from './modules/health/metrics';
import { paymentsRoutes } from './modules/payments/payments.routes';
import { peopleRoutes } from './modules/people/people.routes';
import { reportApprovalRoutes } from './modules/results/report-approvals.routes';
import { calendarRoutes } from './modules/calendar/calendar.routes';
import { resultsRoutes } from './modules/results/results.routes';
import { reportSheetsRoutes } from './modules/results/report-sheets.routes';
import { scoreSheetRoutes } from './modules/results/score-sheet.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { rolloverRoutes } from './modules/rollover/rollover.routes';
import { dashboardsRoutes } from './modules/dashboards/dashboards.routes';
import { setupRoutes } from './modules/setup/setup.routes';
import { promotionRoutes } from './modules/promotion/promotion.routes';
import { teachingRoutes } from './modules/teaching/teaching.routes';
import { parentsRoutes } from './modules/parents/parents.routes';
import { noticeTemplatesRoutes } from './modules/notices/templates.routes';
import { noticeBlastsRoutes } from './modules/notices/blasts.routes';
import { noticesRoutes } from './modules/notices/notices.routes';
import { pinsRoutes } from './modules/pins/pins.routes';

export interface BuildOptions {
  config: Config;
  handle: DatabaseHandle;
  /** A logger instance to use instead of building one from the config (tests pass false). */
  logger?: boolean;
  /** Tests: send the log lines here (at config.logLevel, or 'info' when that is 'silent') to check what is logged. */
  loggerStream?: { write(line: string): void };
  /** Tests: a fixed clock for "today" (the attendance register); production uses Date.now. */
  now?: () => number;
  /**
   * Tests: the clock of tokens and every sign-in limit (clock-steps.test.ts steps it); Date.now
   * otherwise. Apart from `now` on purpose: tests move "today" by days and keep their tokens.
   */
  clock?: () => number;
}

/** Builds the whole portal (API and SPA) as one Fastify instance. Tests use `app.inject`. */
export async function buildApp({
  config,
  handle,
  logger,
  loggerStream,
  now = Date.now,
  clock = Date.now,
}: BuildOptions): Promise<FastifyInstance> {
  const log = await loggerOptions(config, logger, loggerStream);
  const app = Fastify({
    logger: log.logger,
    // Pretty (development): one line per request instead of Fastify's two.
    ...(log.pretty ? { logController: new OneLinePerRequest() } : {}),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A request that reaches a closing instance on a connection still open is served (its answer
    // closes the connection) rather than answered 503: nginx no longer sends a 503 elsewhere, since
    // an instance's 503 during a database outage must not count as its failure (issue 37.9).
    return503OnClosing: false,
    // Reject absurd path parameters early (the fuzz tests send them).
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    genReqId: () => crypto.randomUUID(),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.decorate('printAfterLogs', log.printAfterLogs);
  // Answers leave through their zod schema by fast-json-stringify; tests also check each answer
  // against it (http/response-serializer.ts, decision 052).
  const checkResponses = config.env === 'test' || process.env.VITEST !== undefined;
  app.setSerializerCompiler(createResponseSerializerCompiler({ check: checkResponses, log: app.log }));
  // Every API route documents the error envelopes (http/error-envelopes.ts); before any route.
  registerErrorEnvelopes(app);

  // Every repository and service, built once (the composition root, src/composition.ts).
  const pdfRenders = new ConcurrencyLimiter(config.pdfRender.concurrency, config.pdfRender.waitMs);
  const services = buildServices({ db: handle.db, dialect: handle.dialect, config, log: app.log, now, clock, pdfRenders });
  const { tokens } = services;
  app.decorate('referenceCache', services.referenceCache);
  app.decorate('cardMemos', services.cardMemos);
  app.decorate('cardPdfs', services.cardPdfs);
  // Several instances on one PostgreSQL: each hears the others' committed changes to the reference
  // tables (LISTEN/NOTIFY, migration 0044); the cache stays off while it cannot (decision 047).
  if (handle.dialect === 'postgres' && handle.pgUrl) {
    const { referenceCache, cardMemos } = services;
    const caches = [referenceCache, cardMemos.card, cardMemos.classCards];
    const listener = listenForTableChanges({ url: handle.pgUrl, schema: handle.pgSchema, caches, log: app.log });
    app.addHook('onClose', () => listener.close());
  }
  const h = config.heavyReports;
  const heavyReports = new HeavyReportLimiter(h.perUser, new ConcurrencyLimiter(h.concurrency, h.waitMs, h.queue));
  const deps: AppDeps = { config, handle, db: handle.db, tokens, pdfRenders, now, clock };
  // What each module's routes take from: the app's dependencies and the services, each naming what it calls.
  const routeDeps = { ...deps, ...services };
  // Tests read how many PDFs render at once, and how many heavy reports run.
  app.decorate('pdfRenders', pdfRenders);
  app.decorate('heavyReports', heavyReports);
  // main.ts flips readiness on SIGTERM; tests flip it too.
  const lifecycle = new Lifecycle();
  app.decorate('lifecycle', lifecycle);
  // While draining, every answer ends its connection: a proxy's kept-alive connections to this
  // instance close one by one, so none is left idle for the proxy to reuse at the moment the server
  // closes (a request sent on it then would fail, and a POST would not be retried elsewhere).
  app.addHook('onSend', (_request, reply, _payload, done) => {
    if (lifecycle.draining) void reply.header('connection', 'close');
    done();
  });
  // Several instances share their per-address counters through Redis (docs/operations.md).
  const redis = config.redisUrl
    ? await limiterRedis(config.redisUrl, (err) =>
        app.log.warn({ event: 'redis_error', err: err.message }, 'Redis (rate-limit store) unreachable'),
      )
    : undefined;
  if (redis) app.addHook('onClose', () => redis.disconnect());
  const limiterStore = new LimiterStoreStatus(redis);
  // Before any route, so every request is timed (only when the operator asked for metrics).
  const metrics = config.metricsToken ? registerMetrics(app, limiterStore) : undefined;

  // Security headers. Built once: @fastify/helmet rebuilt the whole helmet middleware (parsing the
  // CSP) on every request, ~20 µs each (bench/run.ts profile); the headers are the same.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        // The installable app (decision 045): its service worker and manifest, from this origin only.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // HSTS only makes sense over HTTPS; set it when the public URL is https.
    hsts: config.publicUrl?.startsWith('https://') ? { maxAge: 31536000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (err?: unknown) => (err ? done(err as Error) : done())),
  );

  // Cookies are read only where a page is rendered on the server (http/view-cookie.ts): not parsed on every request.
  await app.register(cookie, { hook: false });
  await app.register(rateLimit, {
    global: false,
    // In memory by the app's clock, or Redis refusing with 503 while unreachable (http/rate-limit-store.ts).
    store: rateLimitStore(limiterStore, clock),
    errorResponseBuilder: (request) => {
      const isLogin = /\/login\/$/.test(request.url);
      const message = isLogin ? AUTH_MESSAGES.tooManyAttempts : AUTH_MESSAGES.tooManyRequests;
      return {
        statusCode: 429,
        detail: message,
        message,
        ...(isLogin ? { status: 'error', data: null, errors: { non_field_errors: [message] } } : {}),
      };
    },
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'School portal API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    // Zod schemas → JSON Schema, `.meta({ id })` → components (http/openapi.ts, decision 052).
    transform: openapiTransform,
    transformObject: openapiTransformObject,
  });
  const storage = new StorageStatus();
  registerErrorHandling(app, storage);
  registerNulGuard(app);
  registerAuth(app, services.accounts, tokens, { docs: config.apiDocs, operatorToken: config.metricsToken });
  registerHeavyReports(app, heavyReports);
  registerIdempotency(app, handle.db, now);
  // The API's map is for developers: public outside production, admins only or off in production (API_DOCS).
  if (config.apiDocs !== 'off') await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  healthRoutes(app, deps, { lifecycle, metrics, limiterStore, storage });
  authRoutes(app, routeDeps);
  settingsRoutes(app, routeDeps);
  setupRoutes(app, routeDeps);
  rolloverRoutes(app, routeDeps);
  promotionRoutes(app, routeDeps);
  peopleRoutes(app, routeDeps);
  calendarRoutes(app, routeDeps);
  resultsRoutes(app, routeDeps);
  reportApprovalRoutes(app, routeDeps);
  scoreSheetRoutes(app, routeDeps);
  reportSheetsRoutes(app, routeDeps);
  paymentsRoutes(app, routeDeps);
  bursaryRoutes(app, routeDeps);
  capabilitiesRoutes(app, routeDeps);
  teachingRoutes(app, routeDeps);
  attendanceRoutes(app, routeDeps);
  parentsRoutes(app, routeDeps);
  noticeTemplatesRoutes(app, routeDeps);
  noticeBlastsRoutes(app, routeDeps);
  noticesRoutes(app, routeDeps);
  pinsRoutes(app, routeDeps);
  dashboardsRoutes(app, routeDeps);
  // The notices worker: main.ts starts it (NOTICES_WORKER not 'off'); closing the app stops it.
  app.decorate('noticeDelivery', services.noticeDelivery);
  app.addHook('onClose', () => services.noticeDelivery.stop());
  // The background PDF renderer finishes its card before the database closes (decision 050).
  app.addHook('onClose', () => services.cardPdfs.stop());
  // Fees-overdue reminders, once per school day, where the worker runs (decision record 037).
  if (config.notices.worker) app.addHook('onReady', () => services.feeReminders.start());
  app.addHook('onClose', () => services.feeReminders.stop());
  // A promotion run in progress finishes (or rolls back) before the database closes.
  app.addHook('onClose', () => services.promotion.settled());

  registerSpa(app, config, tokens);
  return app;
}
