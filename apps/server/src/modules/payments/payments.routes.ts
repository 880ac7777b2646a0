import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  feeScheduleInputSchema,
  feeScheduleUpdateSchema,
  historyQuerySchema,
  initiatePaymentSchema,
  reportQuerySchema,
  textField,
  verifyPaymentSchema,
} from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import { currentUser } from '../../http/auth';
import { classReportCsv, receiptPdf } from './payments.documents';
import { PaystackProvider, SIMULATOR_PATH, SimulatorProvider, type PaymentProvider } from './payments.providers';
import { PaymentsRepository } from './payments.repository';
import { PaymentsService } from './payments.service';
import { simulatorCheckoutPage, simulatorNotFoundPage, simulatorReturnUrl } from './payments.simulator-page';

const ANYONE = ['admin', 'staff', 'student'] as const;
const STAFF_ADMIN = ['admin', 'staff'] as const;
const ADMIN = ['admin'] as const;
const tags = ['payments'];

/** Paystack when a secret key is configured, else the built-in simulator (design §7). */
export function paymentProviderFor(deps: AppDeps): PaymentProvider {
  return deps.config.paystackSecretKey
    ? new PaystackProvider(deps.config.paystackSecretKey, deps.config.paystackBaseUrl)
    : new SimulatorProvider(deps.db);
}

/** This server's origin as the browser sees it (used when PUBLIC_URL is not set). */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

const referenceParams = z.object({ reference: textField('Reference').min(1).max(100) });
const idParams = z.object({ id: z.coerce.number().int().positive() });

/** Routes of the payments feature. */
export function paymentsRoutes(app: FastifyInstance, deps: AppDeps, provider: PaymentProvider = paymentProviderFor(deps)): void {
  const repo = new PaymentsRepository(deps.db);
  const service = new PaymentsService(repo, provider, deps.config, app.log);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/payments/initiate/',
    {
      config: {
        auth: ANYONE,
        // Per signed-in user, after the guard has identified them: a school's pupils often share one address.
        rateLimit: {
          max: deps.config.paymentInitiatePerMinute,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (request: FastifyRequest) => `payment-initiate:${currentUser(request).id}`,
        },
      },
      schema: { tags, summary: 'Create a pending payment and ask the provider for a checkout address', body: initiatePaymentSchema },
    },
    async (request) => service.initiate(currentUser(request), request.body, originOf(request)),
  );

  r.post(
    '/api/payments/verify/',
    {
      config: { auth: ANYONE },
      schema: { tags, summary: 'Ask the provider how a payment went and credit it once', body: verifyPaymentSchema },
    },
    async (request) => service.verify(currentUser(request), request.body.reference),
  );

  r.get('/api/payments/history/', { config: { auth: ANYONE }, schema: { tags, querystring: historyQuerySchema } }, async (request) =>
    service.history(currentUser(request), request.query.admission_number),
  );

  r.get(
    '/api/payments/report/',
    {
      config: { auth: STAFF_ADMIN },
      schema: { tags, summary: 'Class payment report: every student of the class', querystring: reportQuerySchema },
    },
    async (request) => (await service.classReport(request.query.class, request.query.session)).rows,
  );

  r.get(
    '/api/payments/report/summary/',
    { config: { auth: STAFF_ADMIN }, schema: { tags, querystring: reportQuerySchema } },
    async (request) => service.classSummary(request.query.class, request.query.session),
  );

  r.get(
    '/api/payments/report/csv/',
    { config: { auth: STAFF_ADMIN }, schema: { tags, querystring: reportQuerySchema } },
    async (request, reply) => {
      const { session, rows } = await service.classReport(request.query.class, request.query.session);
      const name = `payments-${request.query.class}-${session ?? 'all'}`.replace(/[^A-Za-z0-9-]+/g, '-');
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}.csv"`)
        .send(classReportCsv(rows));
    },
  );

  r.get('/api/payments/context/', { config: { auth: ANYONE }, schema: { tags } }, async (request) => service.context(currentUser(request)));

  r.get('/api/payments/receipt/:reference/', { config: { auth: ANYONE }, schema: { tags, params: referenceParams } }, async (request) =>
    service.receipt(currentUser(request), request.params.reference),
  );

  r.get(
    '/api/payments/receipt/:reference/pdf/',
    { config: { auth: ANYONE }, schema: { tags, params: referenceParams } },
    async (request, reply) => {
      const receipt = await service.receipt(currentUser(request), request.params.reference);
      const pdf = await deps.pdfRenders.run(() => receiptPdf(receipt));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="receipt-${receipt.reference}.pdf"`)
        .send(pdf);
    },
  );

  r.get(
    '/api/payments/fee-schedules/',
    {
      config: { auth: ANYONE },
      schema: {
        tags,
        querystring: z.object({ session_id: z.coerce.number().int().positive().optional(), class: textField('Class').max(20).optional() }),
      },
    },
    async (request) => service.feeSchedules({ sessionId: request.query.session_id, studentClass: request.query.class || undefined }),
  );

  r.post(
    '/api/payments/fee-schedules/',
    { config: { auth: ADMIN }, schema: { tags, body: feeScheduleInputSchema } },
    async (request, reply) => reply.status(201).send(await service.createFeeSchedule(currentUser(request), request.body)),
  );

  r.put(
    '/api/payments/fee-schedules/:id/',
    { config: { auth: ADMIN }, schema: { tags, params: idParams, body: feeScheduleUpdateSchema } },
    async (request) => service.updateFeeSchedule(currentUser(request), request.params.id, request.body),
  );

  r.delete('/api/payments/fee-schedules/:id/', { config: { auth: ADMIN }, schema: { tags, params: idParams } }, async (request, reply) => {
    await service.deleteFeeSchedule(currentUser(request), request.params.id);
    return reply.status(204).send();
  });

  // The webhook needs the exact bytes Paystack signed: in its own scope every body is kept raw.
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));
    scope.post(
      '/api/payments/webhook/',
      { config: { auth: 'public' }, schema: { tags, summary: 'Paystack events, authenticated by x-paystack-signature' } },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['x-paystack-signature'];
        const outcome = await service.webhook(raw, Array.isArray(header) ? header[0] : header);
        return { status: 'ok', outcome };
      },
    );
    done();
  });

  // The simulator's checkout page: plain HTML forms, served only when the simulator is the provider.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const simulator = provider instanceof SimulatorProvider ? provider : null;
    const html = (reply: FastifyReply, status: number, body: string) =>
      reply.status(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
    const codeParams = z.object({ code: z.string().max(64) });

    scope.get<{ Params: { code: string } }>(
      `${SIMULATOR_PATH}/:code`,
      { schema: { hide: true, params: codeParams } },
      async (request, reply) => {
        const tx = simulator ? await simulator.findByAccessCode(request.params.code) : undefined;
        if (!tx) return html(reply, 404, simulatorNotFoundPage());
        return html(reply, 200, simulatorCheckoutPage(tx, (await repo.school()).school_name));
      },
    );

    scope.post<{ Params: { code: string }; Body: { outcome?: string } }>(
      `${SIMULATOR_PATH}/:code`,
      { schema: { hide: true, params: codeParams } },
      async (request, reply) => {
        const tx = simulator ? await simulator.findByAccessCode(request.params.code) : undefined;
        if (!tx) return html(reply, 404, simulatorNotFoundPage());
        const outcome = request.body?.outcome;
        if (outcome !== 'pay' && outcome !== 'decline' && outcome !== 'abandon') {
          return html(reply, 400, simulatorCheckoutPage(tx, (await repo.school()).school_name));
        }
        await simulator!.complete(tx.access_code, outcome);
        return reply.redirect(simulatorReturnUrl(tx), 303);
      },
    );
    done();
  });
}
