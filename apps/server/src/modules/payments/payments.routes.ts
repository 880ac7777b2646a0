import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EVERY_ACCOUNT,
  childQuerySchema,
  classReportSchema,
  classReportSummarySchema,
  feeItemListSchema,
  feeItemSchema,
  feeItemsBulkResponseSchema,
  feeItemsCopyResponseSchema,
  paymentContextSchema,
  paymentInitiateResponseSchema,
  paymentListSchema,
  paymentProviderInfoSchema,
  paymentReceiptSchema,
  paymentVerifyResponseSchema,
  paystackWebhookResponseSchema,
  simulatorCheckoutSchema,
  idParams,
  ANY_ROLE,
  feeItemCreateSchema,
  feeItemsBulkSchema,
  feeItemsCopySchema,
  feeItemUpdateSchema,
  historyQuerySchema,
  initiatePaymentSchema,
  reportQuerySchema,
  simulatorCompleteSchema,
  STAFF_OR_ADMIN,
  textField,
  verifyPaymentSchema,
} from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import { sendAttachment } from '../../http/attachment';
import { currentUser } from '../../http/auth';
import { paymentOrigin } from '../../http/public-origin';
import { binaryResponse, noContent } from '../../http/response-schemas';
import { BURSAR } from './bursar-access';
import { classReportCsv, receiptPdf } from './payments.documents';
import type { PaymentsService } from './payments.service';
import type { AccessScope } from '../access/scope.service';

const tags = ['payments'];

const referenceParams = z.object({ reference: textField('Reference').min(1).max(100) });

/** Routes of the payments feature. */
export function paymentsRoutes(
  app: FastifyInstance,
  deps: Pick<AppDeps, 'config' | 'pdfRenders'> & { payments: PaymentsService; scope: AccessScope },
): void {
  const { payments: service } = deps;
  const { provider } = service;
  const r = app.withTypeProvider<ZodTypeProvider>();
  if (deps.config.production && provider.name === 'simulator') {
    app.log.warn(
      { event: 'payment_simulator_in_production' },
      '!!! PAYMENT_SIMULATOR is on in production: payments are SIMULATED, fees are marked paid with no money taken. For demos only. !!!',
    );
  } else if (provider.name === 'off') {
    app.log.warn({ event: 'online_payment_off' }, 'online payment is off: set PAYSTACK_SECRET_KEY to take fees online');
  }

  r.post(
    '/api/payments/initiate/',
    {
      config: {
        // A parent pays for a child they name: the payment's payer (initiated_by) is the parent.
        auth: [...ANY_ROLE, 'parent'],
        idempotent: true,
        // Per signed-in user, after the guard has identified them: a school's pupils often share one address.
        rateLimit: {
          max: deps.config.paymentInitiatePerMinute,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (request: FastifyRequest) => `payment-initiate:${currentUser(request).id}`,
        },
      },
      schema: {
        tags,
        summary: 'Create a pending payment and ask the provider for a checkout address',
        body: initiatePaymentSchema,
        response: { 200: paymentInitiateResponseSchema },
      },
    },
    async (request) => service.checkout.initiate(currentUser(request), request.body, paymentOrigin(request, deps.config)),
  );

  r.post(
    '/api/payments/verify/',
    {
      config: { auth: [...ANY_ROLE, 'parent'] },
      schema: {
        tags,
        summary: 'Ask the provider how a payment went and credit it once',
        body: verifyPaymentSchema,
        response: { 200: paymentVerifyResponseSchema },
      },
    },
    async (request) => service.checkout.verify(currentUser(request), request.body.reference),
  );

  r.get(
    '/api/payments/history/',
    { config: { auth: [...ANY_ROLE, 'parent'] }, schema: { tags, querystring: historyQuerySchema, response: { 200: paymentListSchema } } },
    async (request) => service.reports.history(currentUser(request), request.query.admission_number),
  );

  r.get(
    '/api/payments/report/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: {
        tags,
        summary: 'Class payment report: every student of the class',
        querystring: reportQuerySchema,
        response: { 200: classReportSchema },
      },
    },
    async (request) => (await service.reports.classReport(request.query.class, request.query.session, request.query.term)).rows,
  );

  r.get(
    '/api/payments/report/summary/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, querystring: reportQuerySchema, response: { 200: classReportSummarySchema } } },
    async (request) => service.reports.classSummary(request.query.class, request.query.session, request.query.term),
  );

  r.get(
    '/api/payments/report/csv/',
    {
      config: { auth: STAFF_OR_ADMIN, heavy: true },
      schema: {
        tags,
        querystring: reportQuerySchema,
        response: { 200: binaryResponse('text/csv', 'The class payment report as CSV (an attachment)') },
      },
    },
    async (request, reply) => {
      const { session, rows } = await service.reports.classReport(request.query.class, request.query.session, request.query.term);
      const name = `payments-${request.query.class}-${session ?? 'all'}`.replace(/[^A-Za-z0-9-]+/g, '-');
      return sendAttachment(reply, 'csv', `${name}.csv`, classReportCsv(rows));
    },
  );

  // A parent names the child (`admission_number`) and gets the child's payment form context.
  r.get(
    '/api/payments/context/',
    { config: { auth: [...ANY_ROLE, 'parent'] }, schema: { tags, querystring: childQuerySchema, response: { 200: paymentContextSchema } } },
    async (request) => service.reports.context(await deps.scope.actingFor(currentUser(request), request.query.admission_number)),
  );

  r.get(
    '/api/payments/receipt/:reference/',
    { config: { auth: [...ANY_ROLE, 'parent'] }, schema: { tags, params: referenceParams, response: { 200: paymentReceiptSchema } } },
    async (request) => service.reports.receipt(currentUser(request), request.params.reference),
  );

  r.get(
    '/api/payments/receipt/:reference/pdf/',
    {
      config: { auth: [...ANY_ROLE, 'parent'] },
      schema: {
        tags,
        params: referenceParams,
        response: { 200: binaryResponse('application/pdf', 'The receipt as an A4 PDF (an attachment)') },
      },
    },
    async (request, reply) => {
      const receipt = await service.reports.receipt(currentUser(request), request.params.reference);
      const pdf = await deps.pdfRenders.run(() => receiptPdf(receipt));
      return sendAttachment(reply, 'pdf', `receipt-${receipt.reference}.pdf`, pdf);
    },
  );

  // Fee items: the admin and the bursar. The fee-schedule calls keep their shape, each schedule being one item.
  r.get(
    '/api/payments/fee-schedules/',
    {
      config: { auth: ANY_ROLE },
      schema: {
        tags,
        querystring: z.object({ session_id: z.coerce.number().int().positive().optional(), class: textField('Class').max(20).optional() }),
        response: { 200: feeItemListSchema },
      },
    },
    async (request) => service.fees.list({ sessionId: request.query.session_id, arm: request.query.class || undefined }),
  );

  r.post(
    '/api/payments/fee-schedules/',
    { config: BURSAR, schema: { tags, body: feeItemCreateSchema, response: { 201: feeItemSchema } } },
    async (request, reply) => reply.status(201).send(await service.fees.create(currentUser(request), request.body)),
  );

  r.put(
    '/api/payments/fee-schedules/:id/',
    { config: BURSAR, schema: { tags, params: idParams, body: feeItemUpdateSchema, response: { 200: feeItemSchema } } },
    async (request) => service.fees.update(currentUser(request), request.params.id, request.body),
  );

  r.delete(
    '/api/payments/fee-schedules/:id/',
    { config: BURSAR, schema: { tags, params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      await service.fees.remove(currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/api/payments/fee-items/bulk/',
    {
      config: BURSAR,
      schema: {
        tags,
        summary: 'Set the same fee items for many classes of one term (adds or updates by name)',
        body: feeItemsBulkSchema,
        response: { 200: feeItemsBulkResponseSchema },
      },
    },
    async (request) => service.fees.bulk(currentUser(request), request.body),
  );

  r.post(
    '/api/payments/fee-items/copy/',
    {
      config: BURSAR,
      schema: {
        tags,
        summary: "Copy one term's fee items into another (names the target has are kept)",
        body: feeItemsCopySchema,
        response: { 200: feeItemsCopyResponseSchema },
      },
    },
    async (request) => service.fees.copy(currentUser(request), request.body),
  );

  // The webhook needs the exact bytes Paystack signed: in its own scope every body is kept raw.
  void app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/payments/webhook/',
      {
        config: { auth: 'public' },
        schema: {
          tags,
          summary: 'Paystack events, authenticated by x-paystack-signature',
          response: { 200: paystackWebhookResponseSchema },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['x-paystack-signature'];
        const outcome = await service.checkout.webhook(raw, Array.isArray(header) ? header[0] : header);
        return { status: 'ok' as const, outcome };
      },
    );
    done();
  });

  r.get(
    '/api/payments/provider/',
    {
      config: { auth: EVERY_ACCOUNT },
      schema: {
        tags,
        summary: 'Whether online payment is available, and through which provider',
        response: { 200: paymentProviderInfoSchema },
      },
    },
    () => service.checkout.providerInfo(),
  );

  // The simulator's checkout: a screen of the web app (/pay/simulator/:code) calling these, signed in.
  const codeParams = z.object({ code: z.string().min(1).max(64) });
  r.get(
    '/api/payments/simulator/:code/',
    // A parent's checkout is theirs (they started it: initiated_by).
    {
      config: { auth: [...ANY_ROLE, 'parent'] },
      schema: {
        tags,
        summary: 'The simulator checkout: the payer or an admin only',
        params: codeParams,
        response: { 200: simulatorCheckoutSchema },
      },
    },
    async (request) => service.checkout.simulatorCheckout(currentUser(request), request.params.code),
  );
  r.post(
    '/api/payments/simulator/:code/',
    {
      config: { auth: [...ANY_ROLE, 'parent'] },
      schema: {
        tags,
        summary: 'Pay, decline or abandon a simulator checkout (once)',
        params: codeParams,
        body: simulatorCompleteSchema,
        response: { 200: simulatorCheckoutSchema },
      },
    },
    async (request) => service.checkout.completeSimulator(currentUser(request), request.params.code, request.body.outcome),
  );
}
