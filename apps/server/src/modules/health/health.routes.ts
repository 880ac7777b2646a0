import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps';
import { pingDatabase } from '../../db/index';

export function healthRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/api/health', { config: { auth: 'public' }, schema: { tags: ['health'] } }, async (_request, reply) => {
    const database = await pingDatabase(deps.db);
    return reply
      .status(database ? 200 : 503)
      .send({ status: database ? 'ok' : 'unavailable', database: database ? 'ok' : 'unreachable', dialect: deps.handle.dialect });
  });
}
