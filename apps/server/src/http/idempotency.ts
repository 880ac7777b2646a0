import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_MESSAGES, IDEMPOTENCY_TTL_HOURS } from '@portal/domain';
import type { DB } from '../db/index';
import { HttpError, nonFieldError } from './errors';
import { IdempotencyRepository, type IdempotencyScope, type StoredAnswer } from './idempotency.repository';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A request that creates money records: an `Idempotency-Key` header makes it safe to retry.
     * The same key and body within 24 hours gives the first answer again and records
     * nothing new; the same key with another body is a 422.
     */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this request claimed (it does the work; its answer is kept in onSend). */
    idempotencyClaim: number | null;
  }
}

const TTL_MS = IDEMPOTENCY_TTL_HOURS * 3_600_000;
/** How long a retry waits for the first request of its key to finish before answering 409. */
const WAIT_MS = 5_000;
const POLL_MS = 25;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Answers kept whole; a bigger one (never a money route's) is not kept and its claim is given back. */
const MAX_KEPT_BYTES = 256 * 1024;

const iso = (ms: number) => new Date(ms).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Routes that say `config: { idempotent: true }` honour the `Idempotency-Key` header, in the
 * database so that several instances agree:
 *  - the claim is a unique insert of (user, route, key) before the work: of two identical requests
 *    racing, exactly one inserts and does the work; the other waits for its answer and replays it
 *    (409 if it does not come within 5 s);
 *  - a 2xx answer is kept (status, body) and replayed for 24 hours with `idempotent-replayed: true`;
 *    any other answer recorded nothing (each write is one transaction), so its claim is given back
 *    and a retry does the work;
 *  - the same key with another body (or URL) is a 422; keys older than 24 hours are pruned.
 * A request without the header is served as before.
 */
export function registerIdempotency(app: FastifyInstance, db: DB, clock: () => number = Date.now): void {
  const repo = new IdempotencyRepository(db);
  let lastPrune = 0;
  app.decorateRequest('idempotencyClaim', null);

  const replay = (reply: FastifyReply, row: StoredAnswer) => {
    void reply
      .status(row.status_code!)
      .header('content-type', row.content_type ?? 'application/json; charset=utf-8')
      .header('idempotent-replayed', 'true');
    return reply.send(row.response_body ?? '');
  };

  const claimKey: preHandlerAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !IDEMPOTENCY_KEY_PATTERN.test(key)) throw nonFieldError(IDEMPOTENCY_MESSAGES.invalidKey);
    // Money routes are guarded: there is always a user.
    if (!request.user) return;
    const scope: IdempotencyScope = { userId: request.user.id, route: `${request.method} ${request.routeOptions.url}`, key };
    // The validated body (defaults applied) and the URL (a reversal's reference is in it).
    const hash = createHash('sha256')
      .update(JSON.stringify([request.url, request.body ?? null]))
      .digest('hex');
    const now = clock();
    if (now - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = now;
      await repo.prune(iso(now - TTL_MS));
    }
    await repo.dropExpired(scope, iso(now - TTL_MS));

    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const id = await repo.claim(scope, hash, iso(now));
      if (id !== null) {
        request.idempotencyClaim = id;
        return;
      }
      const row = await repo.find(scope);
      // Given back between our insert and our read: claim it again.
      if (!row) continue;
      if (row.request_hash !== hash) throw new HttpError(422, { detail: IDEMPOTENCY_MESSAGES.keyReused });
      if (row.status_code !== null) return replay(reply, row);
      if (Date.now() > deadline) throw new HttpError(409, { detail: IDEMPOTENCY_MESSAGES.inProgress });
      await sleep(POLL_MS);
    }
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.idempotent) return;
    const existing = route.preHandler;
    const list = existing ? (Array.isArray(existing) ? existing : [existing]) : [];
    route.preHandler = [...list, claimKey];
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const id = request.idempotencyClaim;
    if (id === null) return payload;
    request.idempotencyClaim = null;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    if (reply.statusCode >= 200 && reply.statusCode < 300 && body !== null && body.length <= MAX_KEPT_BYTES) {
      const type = reply.getHeader('content-type');
      await repo.complete(id, reply.statusCode, body, typeof type === 'string' ? type : null);
    } else {
      await repo.release(id);
    }
    return payload;
  });
}
