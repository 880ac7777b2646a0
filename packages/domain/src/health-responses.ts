import { z } from 'zod';

/** GET /api/health: the database answers (200) or not (503). */
export const healthSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['ok', 'unreachable']),
    dialect: z.enum(['sqlite', 'postgres']),
  })
  .meta({ id: 'Health' });

/** GET /api/health/live: the process answers. */
export const livenessSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Liveness' });

const databaseReadiness = z.enum(['ok', 'unreachable', 'migrations_pending']);

/** GET /api/health/ready 200: ready for traffic (`degraded` while a shared limiter store is down). */
export const readinessSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: databaseReadiness,
    limiter_store: z.enum(['ok', 'down']).optional(),
  })
  .meta({ id: 'Readiness' });

/** GET /api/health/ready 503: not ready (shutting down, the database, or a full disk). */
export const notReadySchema = z
  .object({
    status: z.enum(['shutting_down', 'unavailable']),
    database: databaseReadiness.optional(),
    storage: z.literal('full').optional(),
  })
  .meta({ id: 'NotReady' });
