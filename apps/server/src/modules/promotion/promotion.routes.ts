import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_ONLY,
  idParams,
  promotionMoveResultSchema,
  promotionMoveSchema,
  promotionPreviewQuerySchema,
  promotionPreviewSchema,
  promotionRunResponseSchema,
  promotionRunSchema,
  promotionRunStartedSchema,
} from '@portal/domain';
import { currentUser } from '../../http/auth';
import { writeRoutes } from '../../http/write-route';
import type { PromotionService } from './promotion.service';

/** End-of-session promotion (issue 34, decision record 039): admin only. */
export function promotionRoutes(app: FastifyInstance, { promotion }: { promotion: PromotionService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['promotion'];
  const write = writeRoutes(r, tags);

  r.get(
    '/api/promotion/preview/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Each student’s decision and arm in the new session',
        querystring: promotionPreviewQuerySchema,
        response: { 200: promotionPreviewSchema },
      },
    },
    async (request) => promotion.preview(request.query),
  );
  // The same preview with the admin's mapping and per-student changes (the body of a run): nothing is written.
  write(
    'POST',
    '/api/promotion/preview/',
    { auth: ADMIN_ONLY },
    { body: promotionRunSchema, response: { 200: promotionPreviewSchema } },
    (_user, request) => promotion.preview(request.body),
  );
  r.post(
    '/api/promotion/runs/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Promote: one all-or-nothing step, running in the background',
        body: promotionRunSchema,
        response: { 202: promotionRunStartedSchema },
      },
    },
    async (request, reply) => reply.status(202).send(await promotion.start(request.body, currentUser(request).id)),
  );
  r.get(
    '/api/promotion/runs/',
    {
      config: { auth: ADMIN_ONLY },
      schema: { tags, summary: 'Promotion runs, newest first', response: { 200: z.array(promotionRunResponseSchema) } },
    },
    async () => promotion.list(),
  );
  r.get(
    '/api/promotion/runs/:id/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'A run: its progress while running, its summary after',
        params: idParams,
        response: { 200: promotionRunResponseSchema },
      },
    },
    async (request) => promotion.get(request.params.id),
  );
  write(
    'POST',
    '/api/promotion/runs/:id/undo/',
    { auth: ADMIN_ONLY },
    { params: idParams, response: { 200: promotionRunResponseSchema } },
    (user, request) => promotion.undo(request.params.id, user.id),
  );
  write(
    'POST',
    '/api/promotion/moves/',
    { auth: ADMIN_ONLY },
    { body: promotionMoveSchema, response: { 200: promotionMoveResultSchema } },
    (user, request) => promotion.move(request.body, user.id),
  );
}
