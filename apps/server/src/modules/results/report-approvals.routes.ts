import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ONLY,
  armActionSchema,
  armApprovalSchema,
  armReturnSchema,
  releaseResultSchema,
  releaseSchema,
  sessionIdField,
  STAFF_OR_ADMIN,
  termField,
} from '@portal/domain';
import { currentActor } from '../../http/auth';
import type { ReportApprovalsService } from './report-approvals.service';

const tags = ['report approvals'];

/** The approval and release of an arm's report cards. */
export function reportApprovalRoutes(
  app: FastifyInstance,
  { reportApprovals: approvals }: { reportApprovals: ReportApprovalsService },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/report-approvals/',
    {
      config: { auth: STAFF_OR_ADMIN },
      schema: {
        tags,
        querystring: z.object({ session_id: sessionIdField, term: termField }),
        response: { 200: z.array(armApprovalSchema) },
      },
    },
    (req) => approvals.list(currentActor(req), req.query),
  );
  const approval = { 200: armApprovalSchema };
  r.post(
    '/api/report-approvals/submit/',
    { config: { auth: STAFF_OR_ADMIN }, schema: { tags, body: armActionSchema, response: approval } },
    (req) => approvals.submit(currentActor(req), req.body),
  );
  r.post(
    '/api/report-approvals/approve/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, body: armActionSchema, response: approval } },
    (req) => approvals.approve(currentActor(req), req.body),
  );
  r.post(
    '/api/report-approvals/return/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, body: armReturnSchema, response: approval } },
    (req) => approvals.sendBack(currentActor(req), req.body),
  );
  r.post(
    '/api/report-approvals/release/',
    { config: { auth: ADMIN_ONLY }, schema: { tags, body: releaseSchema, response: { 200: releaseResultSchema } } },
    (req) => approvals.release(currentActor(req), req.body),
  );
}
