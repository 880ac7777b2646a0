import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ANY_ROLE,
  childQuerySchema,
  idParams,
  TRANSFER_REPORT_MESSAGES,
  transferRejectSchema,
  transferConfirmationSchema,
  transferReportListSchema,
  transferReportPageSchema,
  transferReportResponseSchema,
  transferReportQuerySchema,
  transferReportSchema,
} from '@portal/domain';
import { sendInline } from '../../http/attachment';
import { binaryResponse } from '../../http/response-schemas';
import { currentUser } from '../../http/auth';
import { forbidden } from '../../http/errors';
import { BURSAR } from './bursar-access';
import type { AccessScope } from '../access/scope.service';
import type { TransferReportsService } from './transfer-reports.service';

const tags = ['bursary'];

/** A report is the student's own: staff and admin hear so before their body is even read. */
function studentsOnly(request: FastifyRequest): Promise<void> {
  const role = currentUser(request).role;
  return role === 'student' || role === 'parent' ? Promise.resolve() : Promise.reject(forbidden(TRANSFER_REPORT_MESSAGES.studentsOnly));
}

/** Transfers students report and the bursar confirms or rejects; registered from bursaryRoutes. */
export function transferReportRoutes(
  app: FastifyInstance,
  { transferReports: service, scope }: { transferReports: TransferReportsService; scope: AccessScope },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/bursary/transfer-reports/',
    {
      config: { auth: [...ANY_ROLE, 'parent'], idempotent: true },
      preValidation: studentsOnly,
      // A 2 MB slip is about 2.8 MB as base64.
      bodyLimit: 3_200_000,
      // A parent names the child in the body (`admission_number`) and reports for them, as the child.
      schema: {
        tags,
        summary: 'A student reports a bank transfer or teller payment, with the slip',
        body: transferReportSchema.and(childQuerySchema),
        response: { 201: transferReportResponseSchema },
      },
    },
    async (request, reply) => {
      const { admission_number, ...body } = request.body;
      const actor = await scope.actingFor(currentUser(request), admission_number);
      return reply.status(201).send(await service.report(actor, body));
    },
  );

  r.get(
    '/api/bursary/transfer-reports/mine/',
    {
      config: { auth: [...ANY_ROLE, 'parent'] },
      preValidation: studentsOnly,
      schema: {
        tags,
        summary: "The student's own reports, newest first",
        querystring: childQuerySchema,
        response: { 200: transferReportListSchema },
      },
    },
    async (request) => service.mine(await scope.actingFor(currentUser(request), request.query.admission_number)),
  );

  r.get(
    '/api/bursary/transfer-reports/',
    {
      config: BURSAR,
      schema: {
        tags,
        summary: 'Reported transfers: waiting ones first, oldest first',
        querystring: transferReportQuerySchema,
        response: { 200: transferReportPageSchema },
      },
    },
    async (request) => service.queue(request.query),
  );

  r.post(
    '/api/bursary/transfer-reports/:id/confirm/',
    {
      config: { ...BURSAR, idempotent: true },
      schema: {
        tags,
        summary: 'Confirm a reported transfer: records the payment',
        params: idParams,
        response: { 200: transferConfirmationSchema },
      },
    },
    async (request) => service.confirm(currentUser(request), request.params.id),
  );

  r.post(
    '/api/bursary/transfer-reports/:id/reject/',
    {
      config: BURSAR,
      schema: {
        tags,
        summary: 'Reject a reported transfer with the reason the student reads',
        params: idParams,
        body: transferRejectSchema,
        response: { 200: transferReportResponseSchema },
      },
    },
    async (request) => service.reject(currentUser(request), request.params.id, request.body.reason),
  );

  // The reporting student reads their own slip, so the capability is checked in the service for staff.
  r.get(
    '/api/bursary/transfer-reports/:id/scan/',
    {
      config: { auth: ANY_ROLE },
      schema: {
        tags,
        summary: "A reported transfer's slip",
        params: idParams,
        response: { 200: binaryResponse(['image/png', 'image/jpeg', 'application/pdf'], 'The slip as the student sent it (inline)') },
      },
    },
    async (request, reply) => {
      const scan = await service.scan(currentUser(request), request.params.id);
      return sendInline(reply, scan, `slip-${request.params.id}`);
    },
  );
}
