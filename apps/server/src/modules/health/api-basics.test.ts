import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GENERAL_MESSAGES } from '@portal/domain';
import { withTestContext, describeEachDatabase, createTestContext, type TestContext } from '../../../test/helpers';
import { routeTable } from '../../http/auth';

describeEachDatabase('API basics', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));

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

  it('documents every attendance endpoint under its tag, with its query or body schema', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { tags?: string[]; parameters?: unknown[]; requestBody?: unknown }>>;
    }>();
    const ops = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/api/attendance/'))
      .flatMap(([p, methods]) => Object.entries(methods).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })));
    expect(ops.map((o) => o.key).sort()).toEqual([
      'DELETE /api/attendance/events/{id}/',
      'GET /api/attendance/absent/',
      'GET /api/attendance/calendar/',
      'GET /api/attendance/month/',
      'GET /api/attendance/register/',
      'GET /api/attendance/student/',
      'GET /api/attendance/totals/',
      'POST /api/attendance/carried/import/',
      'POST /api/attendance/events/',
      'PUT /api/attendance/register/',
      'PUT /api/attendance/settings/',
      'PUT /api/attendance/terms/',
    ]);
    for (const { key, op } of ops) {
      expect(op.tags, key).toEqual(['attendance']);
      if (key.startsWith('PUT') || key.startsWith('POST')) expect(op.requestBody, key).toBeDefined();
      if (key.startsWith('GET /api/attendance/register') || key.startsWith('GET /api/attendance/month'))
        expect(op.parameters, key).not.toHaveLength(0);
    }
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
    for (const r of routes) expect(r.auth === 'public' || r.auth === 'operator' || Array.isArray(r.auth)).toBe(true);
    // Only the operator's endpoint and the installable app's manifest (decision 045) sit outside /api.
    expect(routes.filter((r) => !r.url.startsWith('/api')).map((r) => `${r.method} ${r.url} ${String(r.auth)}`)).toEqual([
      'GET /metrics operator',
      'GET /manifest.webmanifest public',
    ]);
  });
});

describeEachDatabase('serving the web app', (dialect) => {
  let ctx: TestContext;
  let dist: string;
  const INDEX = '<!doctype html><title>portal</title><div id="root"></div>';
  const SCRIPT = 'console.log("portal");'.repeat(50);
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
    // A file beside the web root that no URL may reach.
    writeFileSync(path.join(path.dirname(dist), `${path.basename(dist)}-secret.txt`), 'not for browsers');
    ctx = await createTestContext(dialect, { webDist: dist });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dist, { recursive: true, force: true });
    rmSync(path.join(path.dirname(dist), `${path.basename(dist)}-secret.txt`), { force: true });
  });

  it('answers every non-API path with the app, uncached, so a deep link opens the right screen', async () => {
    for (const url of ['/', '/StudentHomePage', '/dashboard/staff/STAFF-0001/edit', '/report-card?term=1st']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets as immutable, and the gzip copy to browsers that accept it', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.vary).toContain('Accept-Encoding');
    const zipped = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(SCRIPT);
  });

  it('keeps unknown API paths and other methods as JSON 404s, and never reaches outside the web root', async () => {
    const api = await ctx.app.inject({ method: 'GET', url: '/api/nothing-here/' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: GENERAL_MESSAGES.notFound });
    expect((await ctx.app.inject({ method: 'POST', url: '/StudentHomePage' })).statusCode).toBe(404);
    const secret = `${path.basename(dist)}-secret.txt`;
    for (const url of [
      `/../${secret}`,
      `/assets/..%2f..%2f${secret}`,
      `/%2e%2e/${secret}`,
      `/assets/%2e%2e/%2e%2e/${secret}`,
      '/assets/..%5c..%5cetc/passwd',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('not for browsers');
    }
  });
});
