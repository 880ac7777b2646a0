import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams, ADMIN_ONLY, ANY_ROLE, sessionCreateSchema, sessionPatchSchema } from '@portal/domain';
import { currentUser } from '../../http/auth';
import type { SessionsService } from './sessions.service';

/** Academic sessions: the school calendar's years. */
export function calendarRoutes(app: FastifyInstance, { sessions }: { sessions: SessionsService }): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/sessions/', { config: { auth: ANY_ROLE }, schema: { tags: ['sessions'] } }, () => sessions.list());
  r.post(
    '/api/sessions/',
    { config: { auth: ADMIN_ONLY }, schema: { tags: ['sessions'], body: sessionCreateSchema } },
    async (req, reply) => reply.status(201).send(await sessions.create(req.body, currentUser(req).id)),
  );
  r.patch(
    '/api/sessions/:id/',
    { config: { auth: ADMIN_ONLY }, schema: { tags: ['sessions'], params: idParams, body: sessionPatchSchema } },
    (req) => sessions.update(req.params.id, req.body, currentUser(req).id),
  );
}
