import type { FastifyInstance } from 'fastify';
import type { AccessScope } from '../access/scope.service';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ANY_ROLE,
  isoDateField,
  ledgerEntrySchema,
  ledgerPageSchema,
  statementSchema,
  ledgerQuerySchema,
  offlinePaymentSchema,
  reversalSchema,
  statementQuerySchema,
  textField,
} from '@portal/domain';
import { sendAttachment, sendInline } from '../../http/attachment';
import { binaryResponse } from '../../http/response-schemas';
import { currentUser } from '../../http/auth';
import type { BanksService } from './banks.service';
import { BURSAR } from './bursar-access';
import type { BursaryService } from './bursary.service';
import { discountRoutes } from './discounts.routes';
import type { DiscountsService } from './discounts.service';
import { feeReportRoutes, type FeeReportRoutesDeps } from './fee-reports.routes';
import { ledgerCsv } from './payments.documents';
import type { StatementService } from './statement.service';
import { transferReportRoutes } from './transfer-reports.routes';
import type { TransferReportsService } from './transfer-reports.service';
import { bankRoutes } from './banks.routes';

const tags = ['bursary'];
const referenceParams = z.object({ reference: textField('Reference').min(1).max(100) });

/** What the bursar's routes call (their own and those they register): built once by src/composition.ts. */
export type BursaryRoutesDeps = FeeReportRoutesDeps & {
  scope: AccessScope;
  bursary: BursaryService;
  statements: StatementService;
  transferReports: TransferReportsService;
  discounts: DiscountsService;
  banks: BanksService;
};

/** The bursar's office: offline payments, reversals, the ledger and its CSV, scans, statements. */
export function bursaryRoutes(app: FastifyInstance, deps: BursaryRoutesDeps): void {
  const { bursary: service, statements } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/bursary/payments/',
    {
      config: { ...BURSAR, idempotent: true },
      // A 2 MB scan is about 2.8 MB as base64.
      bodyLimit: 3_200_000,
      schema: {
        tags,
        summary: 'Record an offline payment (bank transfer, teller, cash, POS)',
        body: offlinePaymentSchema,
        response: { 201: ledgerEntrySchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.record(currentUser(request), request.body)),
  );

  r.post(
    '/api/bursary/payments/:reference/reverse/',
    {
      config: { ...BURSAR, idempotent: true },
      schema: {
        tags,
        summary: 'Reverse a payment by an entry of the negative amount',
        params: referenceParams,
        body: reversalSchema,
        response: { 201: ledgerEntrySchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.reverse(currentUser(request), request.params.reference, request.body.reason)),
  );

  r.get(
    '/api/bursary/payments/',
    {
      config: BURSAR,
      schema: { tags, summary: 'The payments ledger', querystring: ledgerQuerySchema, response: { 200: ledgerPageSchema } },
    },
    async (request) => service.ledger(request.query),
  );

  r.get(
    '/api/bursary/payments/:reference/scan/',
    {
      config: BURSAR,
      schema: {
        tags,
        summary: "An offline payment's teller scan",
        params: referenceParams,
        response: { 200: binaryResponse(['image/png', 'image/jpeg', 'application/pdf'], 'The teller or transfer slip as stored (inline)') },
      },
    },
    async (request, reply) => {
      const scan = await service.scan(request.params.reference);
      return sendInline(reply, scan, `scan-${request.params.reference.replace(/[^A-Za-z0-9-]/g, '-')}`);
    },
  );

  r.get(
    '/api/bursary/ledger.csv',
    {
      config: { ...BURSAR, heavy: true },
      schema: {
        tags,
        summary: 'Every ledger entry in the range, as CSV',
        querystring: z.object({ from: isoDateField.optional(), to: isoDateField.optional() }),
        response: { 200: binaryResponse('text/csv', 'The ledger entries of the range as CSV (an attachment)') },
      },
    },
    async (request, reply) => {
      const entries = await service.ledgerAll(request.query);
      const name = `ledger-${request.query.from ?? 'start'}-to-${request.query.to ?? 'today'}`;
      return sendAttachment(reply, 'csv', `${name}.csv`, await ledgerCsv(entries));
    },
  );

  // A student reads their own statement; staff need the capability (checked by the guard's one lookup).
  r.get(
    '/api/bursary/statement/',
    {
      config: { auth: [...ANY_ROLE, 'parent'], capability: 'bursar' },
      schema: { tags, summary: "A student's statement of account", querystring: statementQuerySchema, response: { 200: statementSchema } },
    },
    // A parent names one of their children and reads the child's statement (decision 035).
    async (request) =>
      statements.statement(await deps.scope.actingFor(currentUser(request), request.query.admission_number), request.query),
  );

  feeReportRoutes(app, deps);
  transferReportRoutes(app, deps);
  discountRoutes(app, deps);
  bankRoutes(app, deps);
}
