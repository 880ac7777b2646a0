import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { registerErrorHandling } from './errors';
import { createResponseSerializerCompiler, firstDifference } from './response-serializer';

const item = z.object({ id: z.number().int(), name: z.string(), note: z.string().nullable() });
const list = z.object({ items: z.array(item), total: z.number() });
const byKind = z.union([
  z.object({ kind: z.literal('a'), a: z.number() }),
  z.object({ kind: z.literal('a'), a: z.number(), b: z.string() }),
]);
const withDate = z.object({ at: z.date() });
const grades = z.record(z.string(), z.array(z.string()));

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  vi.restoreAllMocks();
});

/** A tiny app whose routes answer `body` through `schema`. */
async function appWith(check: boolean, routes: { url: string; schema: z.ZodType; body: unknown; status?: number }[]) {
  const warnings: unknown[] = [];
  const a = Fastify({ logger: false });
  a.setValidatorCompiler(validatorCompiler);
  const log = { warn: (o: unknown) => warnings.push(o) } as unknown as FastifyInstance['log'];
  a.setSerializerCompiler(createResponseSerializerCompiler({ check, log }));
  registerErrorHandling(a);
  for (const r of routes) {
    a.get(r.url, { schema: { response: { [r.status ?? 200]: r.schema } } }, (_req, reply) => reply.status(r.status ?? 200).send(r.body));
  }
  a.get('/plain', () => ({ any: 'thing', n: 1 }));
  await a.ready();
  app = a;
  return { app: a, warnings };
}

describe('response serializer, production (no check)', () => {
  it('sends only the declared fields, as JSON.stringify would', async () => {
    const { app } = await appWith(false, [
      { url: '/list', schema: list, body: { items: [{ id: 1, name: 'Ada', note: null, password: 'secret' }], total: 1, internal: true } },
    ]);
    const res = await app.inject('/list');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [{ id: 1, name: 'Ada', note: null }], total: 1 });
    expect(res.body).not.toContain('secret');
  });

  it('writes through fast-json-stringify, which does not parse (a mismatch is coerced, not refused: tests check)', async () => {
    const { app } = await appWith(false, [{ url: '/list', schema: list, body: { items: [], total: '12.5' } }]);
    const res = await app.inject('/list');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"items":[],"total":12.5}');
  });

  it('writes a schema fast-json-stringify cannot take (a date) by zod + JSON.stringify, logged once', async () => {
    const { app, warnings } = await appWith(false, [{ url: '/date', schema: withDate, body: { at: new Date(0), extra: 1 } }]);
    for (let i = 0; i < 3; i++) {
      const res = await app.inject('/date');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ at: '1970-01-01T00:00:00.000Z' });
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ event: 'response_schema_fallback', route: 'GET /date 200' });
  });

  it('keeps today’s behaviour for a route without a response schema', async () => {
    const { app } = await appWith(false, []);
    expect((await app.inject('/plain')).body).toBe(JSON.stringify({ any: 'thing', n: 1 }));
  });
});

describe('response serializer, tests (check)', () => {
  const mismatch = async (schema: z.ZodType, body: unknown, status = 200) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { app } = await appWith(true, [{ url: '/x', schema, body, status }]);
    const res = await app.inject('/x');
    return { status: res.statusCode, said: errors.mock.calls.map((c) => String(c[0])).join('\n') };
  };

  it('passes an answer that matches, byte for byte the same JSON', async () => {
    const body = { items: [{ id: 1, name: 'Ada', note: null }], total: 1 };
    const { app } = await appWith(true, [{ url: '/list', schema: list, body }]);
    const res = await app.inject('/list');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(JSON.stringify(body));
  });

  it('fails (500) on a field the schema does not declare, naming it', async () => {
    const r = await mismatch(list, { items: [{ id: 1, name: 'Ada', note: null, password: 'x' }], total: 1 });
    expect(r.status).toBe(500);
    expect(r.said).toContain('items[0].password: returned but not declared');
  });

  it('fails on a null where the schema has none (fast-json-stringify would send "")', async () => {
    const r = await mismatch(list, { items: [{ id: 1, name: null, note: null }], total: 1 });
    expect(r.status).toBe(500);
    expect(r.said).toContain('items');
  });

  it('fails on a number sent as a string (fast-json-stringify would coerce it)', async () => {
    expect((await mismatch(list, { items: [], total: '12.50' })).status).toBe(500);
  });

  it('fails when a union’s first matching branch would drop a field', async () => {
    const r = await mismatch(byKind, { kind: 'a', a: 1, b: 'kept?' });
    expect(r.status).toBe(500);
    expect(r.said).toContain('b: returned but not declared');
  });

  it('passes a record of lists', async () => {
    const { app } = await appWith(true, [{ url: '/g', schema: grades, body: { maths: ['A', 'B'], english: [] } }]);
    expect((await app.inject('/g')).json()).toEqual({ maths: ['A', 'B'], english: [] });
  });

  it('sends an error answer as it is, and checks it against its envelope', async () => {
    const envelope = z.looseObject({ detail: z.string(), code: z.string().optional() });
    const body = { detail: 'Changed by someone else.', code: 'changed', current: { id: 1 } };
    const { app } = await appWith(true, [{ url: '/e', schema: envelope, body, status: 409 }]);
    const res = await app.inject('/e');
    expect(res.statusCode).toBe(409);
    expect(res.body).toBe(JSON.stringify(body));
    expect((await mismatch(envelope, { message: 'no detail' }, 409)).status).toBe(500);
  });
});

describe('firstDifference', () => {
  it('names where two answers differ', () => {
    expect(firstDifference({ a: [1, 2] }, { a: [1, 2] })).toBeUndefined();
    expect(firstDifference({ a: [1, 3] }, { a: [1, 2] })).toBe('a[1]: 2 returned, 3 would be sent');
    expect(firstDifference({ a: '' }, { a: null })).toBe('a: null returned, "" would be sent');
    expect(firstDifference({}, { a: 1 })).toContain('a: returned but not declared');
    expect(firstDifference({ a: 1 }, {})).toContain('a: not returned, but 1 would be sent');
  });
});
