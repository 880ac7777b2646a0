import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, describeEachDatabase, login, signInStudent, type TestContext } from '../../test/helpers';
import { VIEW_COOKIE } from '@portal/domain/auth-constants';

const INDEX = `<!doctype html>
<html>
  <head>
    <script type="module" crossorigin src="/assets/index-e1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/shared-s1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-c1.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

/**
 * A stand-in for the web build's renderer (apps/web/src/ssr/render-page.tsx; the e2e tests render
 * with the real one): it shows what the API answered it, so the tests see whose data it was given.
 */
const RENDERER = `
export const serverRenderedPaths = ['/report-card', '/broken'];
export async function renderPage(url, api) {
  if (url.startsWith('/broken')) throw new Error('render failed');
  const me = await api('/api/me/');
  if (!me.ok) return null;
  const who = await me.json();
  const asked = new URL(url, 'http://x').searchParams;
  const card = await api('/api/report-card/?session_id=1&term=1st&admission_number=' + (asked.get('admission_number') ?? who.public_id));
  return {
    html: '<p id="who" class="who">' + who.public_id + '</p><p id="card">' + card.status + '</p>',
    stateScript: '<script type="application/json" id="portal-state">{"path":"/report-card"}</script>',
  };
}
`;

/** The app's stylesheet: the rendered page uses `.who` and paragraphs only. */
const SHEET = '@layer base{p{margin:0}}@layer utilities{.who{color:green}.unused-class{color:blue}}';

const cookieOf = (setCookie: string | string[] | undefined) => [setCookie ?? []].flat().find((c) => c.startsWith(`${VIEW_COOKIE}=`)) ?? '';

describeEachDatabase('pages rendered on the server for the signed-in user', (dialect) => {
  let ctx: TestContext;
  let dist: string;
  let student: Awaited<ReturnType<typeof signInStudent>>;
  let cookie: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'portal-server-pages-'));
    mkdirSync(path.join(dist, 'assets'));
    mkdirSync(path.join(dist, 'server-pages'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'assets', 'index-c1.css'), SHEET);
    writeFileSync(path.join(dist, 'server-pages', 'render-page.js'), RENDERER);
    ctx = await createTestContext(dialect, { webDist: dist });
    student = await signInStudent(ctx);
    const res = await login(ctx.app, 'student', student.email);
    cookie = cookieOf(res.headers['set-cookie']).split(';')[0]!;
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const open = (headers: Record<string, string> = {}, url = '/report-card?session_id=1&term=1st') =>
    ctx.app.inject({ method: 'GET', url, headers });

  it('signing in sets the page-view cookie: SameSite=Lax, for the whole site, as long as the sign-in session, deletable by the app', async () => {
    const res = await login(ctx.app, 'student', student.email);
    const set = cookieOf(res.headers['set-cookie']);
    // Not HttpOnly: the app deletes it when it signs out offline (docs/decisions/013).
    expect(set).not.toMatch(/HttpOnly/i);
    expect(set).toMatch(/; SameSite=Lax/);
    expect(set).toMatch(/; Path=\//);
    expect(set).toMatch(/; Max-Age=1209600/);
  });

  it('the page comes rendered with the user’s own data, uncacheable, and the app starts after its first paint', async () => {
    const res = await open({ cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toContain('Cookie');
    // The API answered the renderer as this student: their own profile; no card for session 1 (404).
    expect(res.body).toContain(`<div id="root"><p id="who" class="who">${student.admissionNumber}</p><p id="card">404</p></div>`);
    expect(res.body).toContain('<script type="application/json" id="portal-state">');
    // No module script or preload in the markup: the inline boot script adds them, allowed by its hash.
    expect(res.body).not.toMatch(/<script type="module"|rel="modulepreload"/);
    const boot = /<script>(.*?)<\/script>/.exec(res.body)?.[1] ?? '';
    expect(boot).toContain('"/assets/index-e1.js"');
    expect(boot).toContain('"/assets/shared-s1.js"');
    const hash = `'sha256-${createHash('sha256').update(boot).digest('base64')}'`;
    expect(res.headers['content-security-policy']).toContain(`script-src 'self' ${hash}`);
  });

  it('the page is sent compressed to a browser that accepts it (brotli, else gzip), as it is otherwise', async () => {
    const plain = await open({ cookie });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    const asSent = (body: string) => body.replace(/"dehydratedAt":\d+/g, '');
    const br = await open({ cookie, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(asSent(brotliDecompressSync(br.rawPayload).toString('utf8'))).toBe(asSent(plain.body));
    const gz = await open({ cookie, 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(asSent(gunzipSync(gz.rawPayload).toString('utf8'))).toBe(asSent(plain.body));
    // Refused by weight: sent as it is.
    const none = await open({ cookie, 'accept-encoding': 'br;q=0, gzip;q=0.0, identity' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toContain('<div id="root">');
  });

  it('the page carries the styles its markup uses; the app’s stylesheet never blocks its paint and still styles it without JavaScript (decision 049)', async () => {
    const res = await open({ cookie });
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain('<style>@layer base{p{margin:0}}@layer utilities{.who{color:green}}</style>');
    expect(head).not.toContain('unused-class');
    // The app's stylesheet is not fetched before the first paint: the page's script adds it after (decision 055).
    expect(head).not.toContain('id="portal-sheet"');
    expect(head).toContain('<noscript><link rel="stylesheet" crossorigin href="/assets/index-c1.css"></noscript>');
    // The only render-blocking stylesheet is inside noscript.
    expect(head.replace(/<noscript>.*?<\/noscript>/g, '')).not.toMatch(/rel="stylesheet" crossorigin href="[^"]+">/);
    // The app starts at the first interaction or when the browser is idle.
    const boot = /<script>(.*?)<\/script>/.exec(res.body)?.[1] ?? '';
    expect(boot).toContain('requestIdleCallback');
    expect(boot).toContain("addEventListener('pointerdown'");
    expect(boot).toContain('c.href="/assets/index-c1.css"');
  });

  it('the card’s PDF link is the API’s answer for the cookie’s user; without one, or refused, it leads to the card’s page', async () => {
    const other = await signInStudent(ctx);
    const q = `session_id=1&term=1st&admission_number=${other.admissionNumber}`;
    for (const headers of [{}, { cookie }]) {
      const res = await ctx.app.inject({ method: 'GET', url: `/report-card.pdf?${q}`, headers });
      // No cookie; another student's card (403 from the API): the card's page says why.
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/report-card?${q}`);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
  });

  it('what the page may show is the API’s decision: another student’s card is refused to the renderer as to the app', async () => {
    const other = await signInStudent(ctx);
    const res = await open({ cookie }, `/report-card?session_id=1&term=1st&admission_number=${other.admissionNumber}`);
    expect(res.body).toContain(`<p id="who" class="who">${student.admissionNumber}</p><p id="card">403</p>`);
  });

  it('without a valid cookie the page is the plain app, as before', async () => {
    const access = student.access;
    const forged = cookie.replace(/.{4}$/, 'AAAA');
    const attempts: Record<string, string>[] = [
      {},
      { cookie: forged },
      { cookie: `${VIEW_COOKIE}=${access}` },
      { cookie: `${VIEW_COOKIE}=${'x'.repeat(5000)}` },
    ];
    for (const headers of attempts) {
      const res = await open(headers);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toContain('Cookie');
      expect(res.headers['content-security-policy']).toContain("script-src 'self';");
    }
  });

  it('hostile addresses never fail the page: the API refuses what it refuses, and the answer is the app, the page or the NUL guard’s 400', async () => {
    const hostile = [
      `admission_number=${encodeURIComponent('"><script>alert(1)</script>')}`,
      `admission_number=${encodeURIComponent('STU-0001\u0000')}&session_id=1&term=1st`,
      `session_id=${'9'.repeat(400)}&term=1st`,
      `term=${encodeURIComponent('\u202e1st')}&session_id=-1`,
      `admission_number=${'A'.repeat(5000)}`,
      'session_id=1&session_id=2&term=1st&term=2nd',
    ];
    for (const q of hostile) {
      const res = await open({ cookie }, `/report-card?${q}`);
      // 400 only from the NUL guard (http/nul-guard.ts), which refuses NUL in any address.
      expect(res.statusCode, q).toBe(q.includes('%00') ? 400 : 200);
      expect(res.body, q).not.toContain('<script>alert(1)');
    }
  });

  it('the cookie is never accepted by the API', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/me/', headers: { cookie } });
    expect(res.statusCode).toBe(401);
  });

  it('a renderer that fails leaves the plain app; paths it does not render are never rendered', async () => {
    expect((await open({ cookie }, '/broken')).body).toBe(INDEX);
    expect((await open({ cookie }, '/ResultsCheck')).body).toBe(INDEX);
  });

  it('the renderer is not served as a file', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/server-pages/render-page.js' });
    expect(res.body).not.toContain('renderPage');
  });

  it('signing out clears the cookie, and the cookie of an ended sign-in session renders nothing', async () => {
    const other = await login(ctx.app, 'student', student.email);
    const otherCookie = cookieOf(other.headers['set-cookie']).split(';')[0]!;
    const access = other.json<{ data: { access: string } }>().data.access;
    expect((await open({ cookie: otherCookie })).body).toContain('<p id="who" class="who">');
    const out = await ctx.app.inject({ method: 'POST', url: '/api/logout/', headers: { authorization: `Bearer ${access}` }, payload: {} });
    expect(out.statusCode).toBe(200);
    expect(cookieOf(out.headers['set-cookie'])).toMatch(new RegExp(`^${VIEW_COOKIE}=;.*Expires=Thu, 01 Jan 1970`));
    // A copy of the cookie kept by someone else: the session it belonged to has ended.
    expect((await open({ cookie: otherCookie })).body).toBe(INDEX);
    // The first sign-in's session is still on.
    expect((await open({ cookie })).body).toContain('<p id="who" class="who">');
  });
});
