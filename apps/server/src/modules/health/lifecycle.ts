/**
 * Where the process is in its life, for /api/health/ready: serving, or draining after SIGTERM.
 * main.ts flips it before it closes the server, so a proxy or orchestrator polling readiness stops
 * sending new requests while the ones in flight finish.
 */
export class Lifecycle {
  draining = false;

  /** Readiness answers 503 from now on; liveness and every other route keep answering. */
  beginShutdown(): void {
    this.draining = true;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's lifecycle (main.ts flips it on SIGTERM; tests read and flip it). */
    lifecycle: Lifecycle;
  }
}
