import type { FastifyInstance } from 'fastify';
import { TEXT_MESSAGES } from '@portal/domain';

/**
 * The last line behind the field schemas: PostgreSQL refuses a NUL byte in any
 * text value, so a NUL that reached a query was a 500. Every free-text field is checked by the
 * domain's `textField`; this guard covers whatever is not (a route added later, an unknown key, a
 * route without a body schema): a NUL in the URL (path or query, `%00`) or in any string of the
 * body that reaches a handler answers 400 before the handler runs.
 *
 * The URL check runs first of all (onRequest). The body check runs after authentication and after
 * the route's schema (preHandler), so an anonymous caller still gets 401, and a field with a schema
 * gets its own message (`First name must not contain...`) rather than this generic one.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const url = request.raw.url ?? '';
    if (url.includes('\u0000') || /%00/i.test(url)) {
      return reply.status(400).send({ detail: TEXT_MESSAGES.nulInRequest });
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    const where = findNul(request.body, []);
    if (where) {
      const key = where.length ? where.join('.') : 'non_field_errors';
      return reply.status(400).send({ [key]: [TEXT_MESSAGES.nulInRequest] });
    }
  });
}

/** The path of the first string (or key) holding a NUL, or null. Buffers (raw webhook bodies) are not text. */
export function findNul(value: unknown, path: string[], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return path;
    const found = findNul(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}
