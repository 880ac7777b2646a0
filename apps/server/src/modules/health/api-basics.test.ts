import { afterAll, beforeAll, expect, it } from 'vitest';
import { GENERAL_MESSAGES } from '@portal/domain';
import { describeEachDatabase, createTestContext, type TestContext } from '../../../test/helpers';
import { routeTable } from '../../http/auth';

describeEachDatabase('API basics', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(() => ctx.close());

  it('reports health with the database reachable', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', dialect });
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/does-not-exist/' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: GENERAL_MESSAGES.notFound });
  });

  it('sends security headers, CSP included', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/admin/login/']).toBeDefined();
  });

  it('gives settings to everyone and refuses a malformed JSON body with a 400', async () => {
    const s = await ctx.app.inject({ method: 'GET', url: '/api/settings/' });
    expect(s.json().motto).toBe('raising role models');
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/login/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('every /api route declares who may call it', () => {
    const routes = routeTable(ctx.app);
    expect(routes.length).toBeGreaterThan(5);
    for (const r of routes) expect(r.auth === 'public' || Array.isArray(r.auth)).toBe(true);
  });
});
