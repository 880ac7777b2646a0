import { expect, it } from 'vitest';
import { describeEachDatabase, withTestContext, type TestContext } from '../../../test/helpers';

/**
 * Issue 37.12: every operation of payments, the bursary and notices documents its 2xx answer (a JSON
 * body's schema, a file's media type, or a 204), so an integrator and a generated client get a type
 * for each. The schemas themselves are proven by the modules' API tests: the serializer parses every
 * answer through them.
 */
const PREFIXES = ['/api/payments/', '/api/bursary/', '/api/notices/', '/api/notice-'];

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

describeEachDatabase('payments and notices answers in the OpenAPI document', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));

  it('documents a 2xx answer for every operation, with a body schema unless it is a 204', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, Operation>> }>();
    const operations = Object.entries(doc.paths)
      .filter(([path]) => PREFIXES.some((p) => path.startsWith(p)))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));
    expect(operations.length).toBeGreaterThanOrEqual(60);
    const undocumented = operations
      .filter(({ op }) => {
        const success = Object.entries(op.responses ?? {}).filter(([code]) => /^2\d\d$/.test(code));
        if (success.length === 0) return true;
        return success.some(([code, answer]) => code !== '204' && !Object.values(answer.content ?? {}).some((c) => c.schema));
      })
      .map(({ key }) => key);
    expect(undocumented).toEqual([]);
  });
});
