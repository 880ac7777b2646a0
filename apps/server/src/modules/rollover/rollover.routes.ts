import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ADMIN_ONLY, rolloverPreviewQuerySchema, rolloverPreviewSchema, rolloverResultSchema, rolloverSchema } from '@portal/domain';
import { currentUser } from '../../http/auth';
import type { RolloverService } from './rollover.service';

/** Starting the next session (admin only, docs/decisions/040): the preview, then the one step. */
export function rolloverRoutes(app: FastifyInstance, { rollover }: { rollover: RolloverService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sessions'];
  r.get(
    '/api/session-rollover/preview/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'What starting the next session would make',
        querystring: rolloverPreviewQuerySchema,
        response: { 200: rolloverPreviewSchema },
      },
    },
    (req) => rollover.preview(req.query.from_session_id),
  );
  r.post(
    '/api/session-rollover/',
    {
      config: { auth: ADMIN_ONLY },
      schema: {
        tags,
        summary: 'Start the next session: its terms and the ticked copies, all or nothing',
        body: rolloverSchema,
        response: { 201: rolloverResultSchema },
      },
    },
    async (req, reply) => reply.status(201).send(await rollover.apply({ id: currentUser(req).id }, req.body)),
  );
}
