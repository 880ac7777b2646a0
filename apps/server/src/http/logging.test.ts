import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../config';
import { loggerOptions, OneLinePerRequest } from './logging';

/** A Fastify instance logging JSON lines at `level` into `lines`, with the given log controller. */
function appWith(level: string, lines: Record<string, unknown>[], logController?: OneLinePerRequest) {
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  const app = Fastify({ logger: { level, stream }, ...(logController ? { logController } : {}) });
  app.get('/api/thing', () => ({ ok: true }));
  app.get('/api/broken', () => {
    throw new Error('broken on purpose');
  });
  return app;
}

describe('development logs: one line per request, at debug', () => {
  it('replaces "incoming request" and "request completed" (info) by one debug line with method, URL, status and time', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appWith('debug', lines, new OneLinePerRequest());
    await app.inject({ url: '/api/thing?reference=secret-ref' });
    const requestLines = lines.filter((l) => l.reqId);
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]!.level).toBe(20);
    // The payment reference is a capability: redacted as in the JSON request logs.
    expect(requestLines[0]!.msg).toMatch(/^GET \/api\/thing\?reference=\[redacted\] 200 \d+\.\d ms$/);
    await app.close();
  });

  it('shows no request line at the default level (info), but keeps the error of a failed request', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appWith('info', lines, new OneLinePerRequest());
    await app.inject({ url: '/api/thing' });
    expect(lines.filter((l) => l.reqId)).toEqual([]);
    await app.inject({ url: '/api/broken' });
    expect(lines.filter((l) => l.reqId && l.level === 50).map((l) => (l.err as { message: string }).message)).toEqual([
      'broken on purpose',
    ]);
    await app.close();
  });

  it("Fastify's own request logging (JSON: production, tests) keeps its two lines per request", async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appWith('info', lines);
    await app.inject({ url: '/api/thing' });
    expect(lines.filter((l) => l.reqId).map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    await app.close();
  });

  it('pretty only when asked (development) and never for a test stream', async () => {
    const stream = { write: () => undefined };
    expect((await loggerOptions(testConfig({ logLevel: 'info', logFormat: 'json' }), undefined)).pretty).toBe(false);
    expect((await loggerOptions(testConfig({ logLevel: 'info', logFormat: 'pretty' }), undefined)).pretty).toBe(true);
    expect((await loggerOptions(testConfig({ logLevel: 'info', logFormat: 'pretty' }), undefined, stream)).pretty).toBe(false);
    expect((await loggerOptions(testConfig({ logLevel: 'silent', logFormat: 'pretty' }), undefined)).logger).toBe(false);
  });
});
