import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { healthSchema, livenessSchema, notReadySchema, readinessSchema } from '@portal/domain';
import type { AppDeps } from '../../http/deps';
import { databaseReadiness, pingDatabase } from '../../db/index';
import { notFound } from '../../http/errors';
import { binaryResponse } from '../../http/response-schemas';
import type { LimiterStoreStatus } from '../../http/rate-limit-store';
import type { Lifecycle } from './lifecycle';
import type { StorageStatus } from '../../lib/storage-status';

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

export interface OperationsDeps {
  lifecycle: Lifecycle;
  /** Present when METRICS_TOKEN is set. */
  metrics?: Registry;
  /** The per-address limits' store: reported when it is shared (Redis). */
  limiterStore?: LimiterStoreStatus;
  /** Writes failing for lack of space (issue 37.11): readiness reports the storage as failing. */
  storage?: StorageStatus;
}

export function healthRoutes(app: FastifyInstance, deps: AppDeps, ops: OperationsDeps): void {
  app.get(
    '/api/health',
    { config: { auth: 'public' }, schema: { tags: ['health'], response: { 200: healthSchema, 503: healthSchema } } },
    async (_request, reply) => {
      const database = deps.handle.sqlite ? pingSqlite(deps.handle.sqlite) : await pingDatabase(deps.db);
      return reply
        .status(database ? 200 : 503)
        .send({ status: database ? 'ok' : 'unavailable', database: database ? 'ok' : 'unreachable', dialect: deps.handle.dialect });
    },
  );

  // Liveness: the process answers; no database, so a database outage never gets instances restarted.
  app.get(
    '/api/health/live',
    { config: { auth: 'public' }, schema: { tags: ['health'], response: { 200: livenessSchema } } },
    (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  // Readiness: send this instance traffic (the database answers and is migrated, and no shutdown has begun).
  app.get(
    '/api/health/ready',
    { config: { auth: 'public' }, schema: { tags: ['health'], response: { 200: readinessSchema, 503: notReadySchema } } },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      if (ops.lifecycle.draining) return reply.status(503).send({ status: 'shutting_down' });
      const database = await databaseReadiness(deps.handle);
      if (database !== 'ok') return reply.status(503).send({ status: 'unavailable', database });
      // A full disk: reads would work, but no write does; say so until writes stop failing.
      if (ops.storage?.full) return reply.status(503).send({ status: 'unavailable', database, storage: 'full' });
      if (!ops.limiterStore?.shared) return reply.send({ status: 'ok', database });
      // Redis down: sign-in answers 503 on every instance alike, but signed-in users are served, so the
      // instance stays in rotation (200) and says what is wrong (docs/operations.md).
      const up = ops.limiterStore.up;
      return reply.send({ status: up ? 'ok' : 'degraded', database, limiter_store: up ? 'ok' : 'down' });
    },
  );

  // Prometheus text format, for the operator only: the guard checks METRICS_TOKEN ('operator'),
  // and answers 404 when it is unset, so the endpoint is never public.
  app.get(
    '/metrics',
    {
      config: { auth: 'operator' },
      schema: { tags: ['metrics'], security: [{ bearer: [] }], response: { 200: binaryResponse('text/plain', 'Prometheus text format') } },
    },
    async (_request, reply) => {
      const registry = ops.metrics;
      // The guard has already answered 404 without a token; no token means no registry.
      if (!registry) throw notFound();
      return reply
        .header('cache-control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    },
  );
}
