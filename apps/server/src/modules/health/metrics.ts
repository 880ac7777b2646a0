import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LimiterStoreStatus } from '../../http/rate-limit-store';

/**
 * Prometheus metrics for the operator (GET /metrics with METRICS_TOKEN): Node's process metrics
 * (CPU, memory, heap, event-loop delay, GC, handles) and the duration of every request by method,
 * route pattern and status. Labelled by the pattern (`/api/students/:admission_number/`), never the
 * URL, so a client cannot grow the label set; paths no route matches share `unmatched`.
 * Built only when METRICS_TOKEN is set: without it nothing is measured and requests pay nothing.
 */
export function registerMetrics(app: FastifyInstance, limiterStore?: LimiterStoreStatus): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (limiterStore) {
    // Read when scraped: the store counts its refusals itself (http/rate-limit-store.ts).
    new Gauge({
      name: 'rate_limit_store_up',
      help: 'Whether the store of the per-address limits (Redis when shared, else memory) answers: 1 or 0',
      registers: [registry],
      collect() {
        this.set(limiterStore.up ? 1 : 0);
      },
    });
    new Counter({
      name: 'rate_limit_store_unavailable_total',
      help: 'Requests to limited routes (sign-in, refresh, password change, checkout) refused with 503 because the store was unreachable',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(limiterStore.refusals);
      },
    });
  }
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    // The portal's budgets sit between 5 ms (a report card as JSON) and 1 s (results day, p99).
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode },
      reply.elapsedTime / 1000,
    );
    done();
  });
  return registry;
}
