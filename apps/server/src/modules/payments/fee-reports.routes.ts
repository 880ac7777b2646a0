import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { collectionSummarySchema, collectionsQuerySchema, debtorsPageSchema, debtorsQuerySchema } from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import { sendAttachment } from '../../http/attachment';
import { binaryResponse } from '../../http/response-schemas';
import type { SettingsService } from '../settings/settings.service';
import { BURSAR } from './bursar-access';
import { debtorsCsv, debtorsPdf } from './fee-reports.documents';
import type { DebtorsReport, FeeReportsService } from './fee-reports.service';

const tags = ['bursary'];
/** Reports over every active student: limited per user and queued (http/heavy-reports.ts). */
const BURSAR_HEAVY = { ...BURSAR, heavy: true } as const;
/** The CSV and PDF take every row: the same filters without the page. */
const everyRowSchema = debtorsQuerySchema.omit({ page: true });

/** "debtors-SSS2B-2025-2026-1st": what a downloaded list is called. */
function fileName(r: DebtorsReport): string {
  return ['debtors', r.scope, r.session.name, r.term ?? 'session']
    .filter(Boolean)
    .join('-')
    .replace(/[^A-Za-z0-9-]+/g, '');
}

export type FeeReportRoutesDeps = Pick<AppDeps, 'pdfRenders' | 'now'> & { feeReports: FeeReportsService; settings: SettingsService };

/** The debtors list (JSON, CSV, PDF) and the collection summary: the bursar's (or the admin's). */
export function feeReportRoutes(app: FastifyInstance, deps: FeeReportRoutesDeps): void {
  const { feeReports: service, settings } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/bursary/debtors/',
    {
      config: BURSAR_HEAVY,
      schema: {
        tags,
        summary: 'Students who owe fees, sorted and paged',
        querystring: debtorsQuerySchema,
        response: { 200: debtorsPageSchema },
      },
    },
    async (request) => service.debtors(request.query),
  );

  r.get(
    '/api/bursary/debtors.csv',
    {
      config: BURSAR_HEAVY,
      schema: {
        tags,
        summary: 'Every debtor of the filter, as CSV',
        querystring: everyRowSchema,
        response: { 200: binaryResponse('text/csv', 'The debtors as CSV (an attachment)') },
      },
    },
    async (request, reply) => {
      const report = await service.debtorsAll(request.query);
      return sendAttachment(reply, 'csv', `${fileName(report)}.csv`, await debtorsCsv(report));
    },
  );

  r.get(
    '/api/bursary/debtors.pdf',
    {
      config: BURSAR_HEAVY,
      schema: {
        tags,
        summary: 'Every debtor of the filter, as an A4 PDF',
        querystring: everyRowSchema,
        response: { 200: binaryResponse('application/pdf', 'The debtors as an A4 PDF (an attachment)') },
      },
    },
    async (request, reply) => {
      const [report, school] = await Promise.all([service.debtorsAll(request.query), settings.get()]);
      const pdf = await deps.pdfRenders.run(() => debtorsPdf(report, school, { now: new Date(deps.now()) }));
      return sendAttachment(reply, 'pdf', `${fileName(report)}.pdf`, pdf);
    },
  );

  r.get(
    '/api/bursary/collections/',
    {
      config: BURSAR_HEAVY,
      schema: {
        tags,
        summary: 'Expected against collected; money received by day and method',
        querystring: collectionsQuerySchema,
        response: { 200: collectionSummarySchema },
      },
    },
    async (request) => service.collections(request.query),
  );
}
