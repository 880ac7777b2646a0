import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, describeEachDatabase, type TestContext } from '../../test/helpers';

const INDEX =
  '<!doctype html>\n<html>\n  <head>\n    <script type="module" src="/assets/index-e1.js"></script>\n  </head>\n  <body><div id="root"></div></body>\n</html>\n';
const PRELOADS = {
  '/report-card': ['/assets/report-card-a1.js', '/assets/results-b2.js'],
  '/adminHomePage/*': ['/assets/home-pages-c3.js'],
  // Never trusted to be well formed: not a chunk of the build's assets, or markup.
  '/bad': ['https://elsewhere.example/x.js', '/assets/x.js"><script>alert(1)</script>', 42],
};

describeEachDatabase('index.html with the page’s chunks to preload', (dialect) => {
  let ctx: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'portal-preload-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'assets', 'index-e1.js'), 'export {};');
    writeFileSync(path.join(dist, 'route-preloads.json'), JSON.stringify(PRELOADS));
    ctx = await createTestContext(dialect, { webDist: dist });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('a screen opened by its address preloads its page’s chunks in the head, uncached like index.html', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/report-card?session_id=2&term=3rd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/report-card-a1.js">');
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/results-b2.js">');
    expect(res.body.replace(/ *<link rel="modulepreload"[^>]*>\n/g, '')).toBe(INDEX);
  });

  it('a file the build does not have is a 404, never index.html: a stale chunk after a release fails as one', async () => {
    const there = await ctx.app.inject({ method: 'GET', url: '/assets/index-e1.js' });
    expect(there.statusCode).toBe(200);
    for (const url of [
      '/assets/report-card-OLDHASH.js',
      '/assets/index-OLD.css',
      '/assets/sub/dir/x.js',
      '/icons/gone.png',
      '/old-sw.js',
      '/x.webmanifest',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    // Screens (no file extension) still get the app.
    for (const url of ['/StudentLogin', '/report-card?session_id=2&term=3rd', '/adminHomePage/anything']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
    }
  });

  it('a route ending in /* covers the paths under it; other paths get index.html as built', async () => {
    const home = await ctx.app.inject({ method: 'GET', url: '/adminHomePage/settings' });
    expect(home.body).toContain('href="/assets/home-pages-c3.js"');
    for (const url of ['/', '/report-cardx', '/bad', '/StudentHomePage']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
    }
  });
});

describeEachDatabase('the installable app: service worker, shell and manifest (decision 045)', (dialect) => {
  let ctx: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'portal-sw-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});\n');
    writeFileSync(path.join(dist, 'sw.js.br'), 'brotli bytes');
    writeFileSync(path.join(dist, 'assets', 'index-e1.js'), 'export {};\n');
    ctx = await createTestContext(dialect, { webDist: dist });
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves sw.js from the root (its scope is the whole site), revalidated on every update check, allowed by the CSP', async () => {
    for (const headers of [{}, { 'accept-encoding': 'br' }]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/sw.js', headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('no-cache');
      // No Service-Worker-Allowed needed: the worker sits at the root. The CSP lets this origin's worker and manifest load.
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("worker-src 'self'");
      expect(csp).toContain("manifest-src 'self'");
    }
    const shell = await ctx.app.inject({ method: 'GET', url: '/index.html' });
    expect(shell.statusCode).toBe(200);
    expect(shell.headers['cache-control']).toBe('no-cache');
    // Hashed assets stay immutable.
    const chunk = await ctx.app.inject({ method: 'GET', url: '/assets/index-e1.js' });
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("answers /manifest.webmanifest with the school's name, without a session, never cached stale", async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const manifest = res.json<{ name: string; short_name: string; start_url: string; icons: unknown[] }>();
    const settings = (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json<{ school_name: string }>();
    expect(manifest.name).toBe(settings.school_name);
    expect(manifest.start_url).toBe('/app');
    expect(manifest.icons).toHaveLength(3);
  });
});
