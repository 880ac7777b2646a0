import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps';
import { pingDatabase } from '../../db/index';

/**
 * SQLite: asks the connection directly rather than through Kysely, whose single connection a long
 * write transaction (a 10,000-row import) holds until it commits; the health check
 * answers between the import's slices instead of waiting for the whole import.
 */
function pingSqlite(sqlite: NonNullable<AppDeps['handle']['sqlite']>): boolean {
  try {
    return sqlite.prepare('select 1 as ok').get() !== undefined;
  } catch {
    return false;
  }
}

export function healthRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/api/health', { config: { auth: 'public' }, schema: { tags: ['health'] } }, async (_request, reply) => {
    const database = deps.handle.sqlite ? pingSqlite(deps.handle.sqlite) : await pingDatabase(deps.db);
    return reply
      .status(database ? 200 : 503)
      .send({ status: database ? 'ok' : 'unavailable', database: database ? 'ok' : 'unreachable', dialect: deps.handle.dialect });
  });
}
