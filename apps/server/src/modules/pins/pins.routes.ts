import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ONLY,
  CHECK_RESULT_PATH,
  checkResultOptionsSchema,
  checkResultPdfQuerySchema,
  checkResultResponseSchema,
  checkResultSchema,
  idParams,
  resultPinBatchCreateSchema,
  resultPinBatchDetailSchema,
  resultPinBatchSchema,
  resultPinListQuerySchema,
  resultPinListSchema,
  resultPinSoldSchema,
  resultPinsSoldSchema,
  STAFF_OR_ADMIN,
} from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import { sendAttachment } from '../../http/attachment';
import { binaryResponse } from '../../http/response-schemas';
import { currentUser } from '../../http/auth';
import { paymentOrigin } from '../../http/public-origin';
import { writeRoutes } from '../../http/write-route';
import type { ResultCheckService } from './check.service';
import type { PinCardPdf } from './pins.ports';
import type { ResultPinsService } from './pins.service';

/** What the PIN routes call (built once by the composition root). */
export interface PinsRoutesDeps extends Pick<AppDeps, 'config' | 'pdfRenders'> {
  resultPins: ResultPinsService;
  resultCheck: ResultCheckService;
  pinCardPdf: PinCardPdf;
}

/** The admin and the bursar (staff holding the capability). */
const BURSAR = { auth: STAFF_OR_ADMIN, capability: 'bursar' } as const;

/** Result-checker PINs (issue 34, decision record 043): the admin's batches, the bursar's sales, the public check. */
export function pinsRoutes(app: FastifyInstance, deps: PinsRoutesDeps): void {
  const { resultPins, resultCheck } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['result pins'];
  const write = writeRoutes(r, tags);
  const checkAt = (request: Parameters<typeof paymentOrigin>[0]) => `${paymentOrigin(request, deps.config)}${CHECK_RESULT_PATH}`;

  write(
    'POST',
    '/api/result-pins/batches/',
    { auth: ADMIN_ONLY, status: 201 },
    { body: resultPinBatchCreateSchema, response: { 201: resultPinBatchSchema } },
    (user, request) => resultPins.createBatch(request.body, user.id),
  );
  r.get(
    '/api/result-pins/batches/',
    { config: BURSAR, schema: { tags, summary: 'PIN batches, newest first', response: { 200: z.array(resultPinBatchSchema) } } },
    () => resultPins.list(),
  );
  r.get(
    '/api/result-pins/batches/:id/',
    {
      config: BURSAR,
      schema: { tags, summary: 'A PIN batch with its counts', params: idParams, response: { 200: resultPinBatchDetailSchema } },
    },
    (request) => resultPins.detail(request.params.id),
  );
  r.get(
    '/api/result-pins/batches/:id/pins/',
    {
      config: BURSAR,
      schema: {
        tags,
        summary: "A batch's cards, by state, a page at a time",
        params: idParams,
        querystring: resultPinListQuerySchema,
        response: { 200: resultPinListSchema },
      },
    },
    (request) => resultPins.pins(request.params.id, request.query),
  );
  write(
    'POST',
    '/api/result-pins/batches/:id/sold/',
    BURSAR,
    { params: idParams, body: resultPinSoldSchema, response: { 200: resultPinsSoldSchema } },
    (user, request) => resultPins.markSold(request.params.id, request.body, user.id),
  );
  write(
    'POST',
    '/api/result-pins/batches/:id/seal/',
    { auth: ADMIN_ONLY },
    { params: idParams, body: z.object({}).optional(), response: { 200: resultPinBatchDetailSchema } },
    (user, request) => resultPins.seal(request.params.id, user.id),
  );
  r.get(
    '/api/result-pins/batches/:id/sheet.pdf',
    {
      config: { auth: ADMIN_ONLY, heavy: true },
      schema: {
        tags,
        summary: 'The batch as an A4 sheet of cards to print',
        params: idParams,
        response: { 200: binaryResponse('application/pdf', 'The sheet of PIN cards as a PDF') },
      },
    },
    async (request, reply) => {
      const at = checkAt(request);
      const { name, pdf } = await deps.pdfRenders.run(() => resultPins.sheetPdf(request.params.id, currentUser(request).id, at));
      return sendAttachment(reply, 'pdf', name, pdf);
    },
  );
  r.get(
    '/api/result-pins/batches/:id/cards.csv',
    {
      config: { auth: ADMIN_ONLY, heavy: true },
      schema: {
        tags,
        summary: "The batch's cards for a printer (CSV)",
        params: idParams,
        response: { 200: binaryResponse('text/csv', "The batch's cards as CSV") },
      },
    },
    async (request, reply) => {
      const { name, csv } = await resultPins.cardsCsv(request.params.id, currentUser(request).id, checkAt(request));
      return sendAttachment(reply, 'csv', name, csv);
    },
  );

  // ---------- the public check ----------
  r.get(
    '/api/check-result/options/',
    {
      config: { auth: 'public' },
      schema: { tags, summary: 'Whether the check is open, and its sessions', response: { 200: checkResultOptionsSchema } },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return resultCheck.options();
    },
  );
  r.post(
    '/api/check-result/',
    {
      config: { auth: 'public' },
      bodyLimit: 4096,
      schema: {
        tags,
        summary: 'A released report card by admission number and PIN',
        body: checkResultSchema,
        response: { 200: checkResultResponseSchema },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return resultCheck.check(request.body, request.ip);
    },
  );
  r.get(
    '/api/check-result/pdf/',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: "A checked card's PDF (the check's link; no further use)",
        querystring: checkResultPdfQuerySchema,
        response: { 200: binaryResponse('application/pdf', 'The checked report card as a PDF') },
      },
    },
    async (request, reply) => {
      const card = await resultCheck.cardOfLink(request.query.token);
      // Drawn (when not stored yet) within the PDF renders' limit by the port itself.
      const pdf = await deps.pinCardPdf(card);
      const name = `report-card-${card.student.admission_number}-${card.session.name.replace('/', '-')}-${card.term}.pdf`;
      return sendAttachment(reply, 'pdf', name, pdf);
    },
  );
}
