import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { HeavyReportLimiter } from '../lib/limiter';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A heavy report (a whole-school broadsheet, an arm's cards as PDF, the ledger, debtors, an
     * export): limited per user and queued per process by the HeavyReportLimiter.
     */
    heavy?: boolean;
  }
}

/**
 * Routes that say `config: { heavy: true }` take a place of the HeavyReportLimiter after the guard
 * and the validation (a refused or malformed request takes none), and give it back when the answer
 * is over: finished, failed or abandoned by the client ('close' comes in every case), so a
 * streamed answer holds it to its last byte.
 */
export function registerHeavyReports(app: FastifyInstance, limiter: HeavyReportLimiter): void {
  const enter: preHandlerAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    // Heavy routes are guarded: there is always a user (an unguarded one would share one place).
    const release = await limiter.enter(request.user?.id ?? 0);
    reply.raw.once('close', release);
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.heavy) return;
    const existing = route.preHandler;
    const list = existing ? (Array.isArray(existing) ? existing : [existing]) : [];
    route.preHandler = [...list, enter];
  });
}
