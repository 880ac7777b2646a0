import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import { GENERAL_MESSAGES } from '@portal/domain';
import type { Config } from '../config';
import type { TokenService } from '../lib/tokens';
import { criticalCss, type CriticalCss } from './critical-css';
import { CARD_PDF_PAGE, SERVER_PAGES_MODULE, loadServerPages, type ServerPages } from './server-pages';

/** Written by the web build (apps/web/vite.config.ts, `routePreloads`): each screen's path → the chunks its page needs beyond the entry. */
const ROUTE_PRELOADS = 'route-preloads.json';
const CHUNK = /^\/assets\/[\w.-]+\.js$/;
/**
 * A file's address, not a screen's: anything under /assets/, or a name with a static file's
 * extension. Missing, it is a 404: the app's index.html in its place (a 200 of HTML) would be
 * taken for a stale chunk after a release ("Failed to load module script") and could be precached
 * as one by the service worker.
 */
const STATIC_FILE = /^\/assets\/|\.(?:js|mjs|css|map|json|webmanifest|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|txt|xml|br|gz)$/i;
/** The build's files whose names do not change between releases and which must never be served stale (the .br/.gz copies too). */
const UNHASHED_SHELL = /^(sw\.js|index\.html)(\.br|\.gz)?$/;

/**
 * index.html for each screen's path, with `modulepreload` links for the chunks of its page: opened
 * by its address, a page's code then downloads and compiles beside the entry instead of after it.
 * Read once at start-up (a release restarts the server); a path not in the table gets index.html as
 * built. A route `/adminHomePage/*` covers the paths under it.
 */
export function pagesWithPreloads(dist: string): Map<string, string> {
  const table = path.join(dist, ROUTE_PRELOADS);
  const pages = new Map<string, string>();
  if (!existsSync(table)) return pages;
  const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
  if (!index.includes('</head>')) return pages;
  const routes = JSON.parse(readFileSync(table, 'utf8')) as Record<string, unknown>;
  for (const [route, chunks] of Object.entries(routes)) {
    if (!Array.isArray(chunks)) continue;
    const links = chunks
      .filter((c): c is string => typeof c === 'string' && CHUNK.test(c))
      .map((c) => `    <link rel="modulepreload" crossorigin href="${c}">\n`)
      .join('');
    if (links) pages.set(route, index.replace('</head>', `${links}  </head>`));
  }
  return pages;
}

const ROOT_ELEMENT = '<div id="root"></div>';
const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>\s*/g;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="(\/assets\/[\w.-]+\.js)">\s*/g;
const STYLESHEET = /<link rel="stylesheet" crossorigin href="(\/assets\/[\w.-]+\.css)">/;
/** Where a rendered page's inlined styles go (`afterFirstPaint` leaves this in the shell). */
export const CRITICAL_STYLES = '<!--critical-styles-->';
/** The id of the app's stylesheet when it loads without blocking the paint. */
const LATER_SHEET = 'portal-sheet';

/** A `[data-print]` button prints before the app starts (the app's own button has no such attribute). */
const PRINT = `addEventListener('click',e=>{const b=e.target instanceof Element&&e.target.closest('[data-print]');if(b){e.preventDefault();print()}});`;

const brotli = promisify(brotliCompress);
const PAGE_ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];
const gzipped = promisify(gzip);

/**
 * A rendered page compressed for the browser that accepts it (brotli, else gzip), else as it is. The
 * card's page is ~67 KB of markup, styles and state, ~16 KB compressed: on a phone's network the
 * difference is most of its first visit. Fast settings: it is made for one request and never kept.
 * Behind nginx it passes through as it is (nginx does not compress an answer that already is).
 */
export async function compressedPage(
  html: string,
  acceptEncoding: string | undefined,
): Promise<{ body: Buffer | string; encoding?: 'br' | 'gzip' }> {
  // The browser's own preference by weight (q), ours on a tie; an encoding weighted 0 is refused.
  const encoding = acceptEncoding ? negotiate(acceptEncoding, PAGE_ENCODINGS) : null;
  if (encoding === 'br')
    return {
      body: await brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(html) } }),
      encoding,
    };
  if (encoding === 'gzip') return { body: await gzipped(html, { level: 6 }), encoding };
  return { body: html };
}

/** How a page rendered on the server starts (decision 049's levers; all on in use). */
export interface PageStart {
  /** The styles the page needs inline, the app's stylesheet loaded without blocking the paint. */
  inlineCss: boolean;
  /** The app starts when the browser is idle or at the first interaction, not right after the first paint. */
  idleStart: boolean;
  /**
   * With `idleStart`: the full stylesheet and the app's idle start wait for the first contentful
   * paint (decision 054), not for the first frame and the load event. Off only to measure it.
   */
  paintFirst?: boolean;
  /**
   * With `inlineCss`: the app's stylesheet is not in the document at all; the boot script adds it
   * when it would have switched it on (decision 055). The inline styles then carry the print rules
   * the markup uses, so Print works before it. Off only to measure it (the sheet is then in the
   * document as `media="print"`, fetched and parsed beside the first paint).
   */
  sheetLater?: boolean;
}

/**
 * index.html for a page the server rendered: the app's JavaScript starts after the first paint
 * instead of before it. The page is already on screen; downloading and running ~200 KB of
 * JavaScript first would hold its first frame back (the cached entry alone costs ~35 ms to evaluate;
 * on a phone's network the transfer costs seconds). An inline script, allowed by its hash in the
 * page's Content-Security-Policy, adds the entry and the page's chunks: at the first interaction
 * (pointer, key) or when the browser is next idle after the page has loaded and painted its content
 * (docs/decisions/049 and 054; before that, right after the first frame). Until then it also prints for a `[data-print]` button
 * (the card page's Print works before the app).
 *
 * With `inlineCss` the app's stylesheet is left out of the paint: the shell holds
 * `CRITICAL_STYLES` where the page's own styles are inlined (critical-css.ts), the stylesheet as
 * `media="print"` (fetched and used for printing, never blocking the paint), switched to all media
 * by the same script after the first contentful paint, and in a `<noscript>` for browsers without JavaScript.
 * Null when the index does not have the build's usual shape (the page is then sent without server rendering).
 */
export function afterFirstPaint(
  html: string,
  start: PageStart = { inlineCss: false, idleStart: false },
): { html: string; scriptHash: string; stylesheet: string | null } | null {
  const entries = [...html.matchAll(ENTRY_SCRIPT)].map((m) => m[1]!);
  if (entries.length !== 1 || !html.includes(ROOT_ELEMENT)) return null;
  const chunks = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
  const stylesheet = start.inlineCss ? (STYLESHEET.exec(html)?.[1] ?? null) : null;
  const load =
    `for(const h of ${JSON.stringify(chunks)}){const l=document.createElement('link');` +
    `l.rel='modulepreload';l.crossOrigin='';l.href=h;document.head.append(l)}const s=document.createElement('script');` +
    `s.type='module';s.crossOrigin='';s.src=${JSON.stringify(entries[0])};document.head.append(s)`;
  const later = !!stylesheet && start.sheetLater !== false;
  const sheet = !stylesheet
    ? ''
    : later
      ? `const c=document.createElement('link');c.rel='stylesheet';c.crossOrigin='';c.href=${JSON.stringify(stylesheet)};c.id='${LATER_SHEET}';document.head.append(c);`
      : `const c=document.getElementById('${LATER_SHEET}');if(c)c.media='all';`;
  // After the page has painted its content, never before, the full sheet is switched on and the app's
  // idle start may begin. A frame the browser shows while the document is still being parsed (a phone
  // does) would otherwise apply the whole stylesheet, and an idle moment before the first frame (a
  // return visit's cached modules) would run the app: either styles and lays out the page again, or
  // runs the app, before its first contentful paint. Browsers without paint timing go on after their
  // first frame; the app's start at an interaction switches the sheet too.
  const afterContent =
    start.paintFirst === false
      ? `let sw=()=>{sw=null;${sheet}};const sheet=()=>sw&&sw();const ready=()=>idle();requestAnimationFrame(()=>setTimeout(sheet));`
      : `let sw=()=>{sw=null;${sheet}};const sheet=()=>sw&&sw();let waits=2;const ready=()=>--waits||idle();` +
        `const painted=()=>requestAnimationFrame(()=>setTimeout(()=>{sheet();ready()}));` +
        `if(self.PerformanceObserver&&(PerformanceObserver.supportedEntryTypes||[]).includes('paint')){const o=new PerformanceObserver(l=>{` +
        `if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();painted()}});o.observe({type:'paint',buffered:true})}else painted();`;
  const boot = start.idleStart
    ? // Once: at the first pointer or key press, or when idle after the load event and the first contentful paint; a [data-print] button prints until the app replaces it.
      `(()=>{let go=()=>{go=null;removeEventListener('pointerdown',now,true);removeEventListener('keydown',now,true);sheet();${load}};` +
      `const now=()=>go&&go();addEventListener('pointerdown',now,true);addEventListener('keydown',now,true);` +
      `${PRINT}` +
      `const idle=()=>(self.requestIdleCallback||setTimeout)(now,{timeout:2000});${afterContent}` +
      `if(document.readyState==='complete')ready();else addEventListener('load',ready)})()`
    : `${PRINT}requestAnimationFrame(()=>setTimeout(()=>{${sheet}${load}}))`;
  let shell = html.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, '');
  if (stylesheet)
    shell = shell.replace(
      STYLESHEET,
      () =>
        CRITICAL_STYLES +
        (later ? '' : `<link rel="stylesheet" crossorigin href="${stylesheet}" media="print" id="${LATER_SHEET}">`) +
        `<noscript><link rel="stylesheet" crossorigin href="${stylesheet}"></noscript>`,
    );
  return {
    html: shell.replace('</head>', `<script>${boot}</script>\n  </head>`),
    scriptHash: `'sha256-${createHash('sha256').update(boot).digest('base64')}'`,
    stylesheet,
  };
}

/**
 * Serves the built SPA with history fallback; unknown /api paths stay JSON 404s. The pages of the
 * build's server renderer (http/server-pages.ts) come rendered for a signed-in user.
 */
export function registerSpa(app: FastifyInstance, config: Config, tokens: TokenService): void {
  const dist = config.webDist;
  const index = dist ? path.join(dist, 'index.html') : undefined;
  let pages = new Map<string, string>();
  let serverPages: Promise<ServerPages | null> = Promise.resolve(null);
  let indexHtml = '';
  const shells = new Map<string, ReturnType<typeof afterFirstPaint>>();
  const off = config.serverPageLeversOff ?? new Set<string>();
  const start: PageStart = {
    inlineCss: !off.has('inline-css'),
    idleStart: !off.has('idle-start'),
    paintFirst: !off.has('paint-first'),
    sheetLater: !off.has('sheet-later'),
  };
  // The app's stylesheet, parsed once on the first rendered page that inlines from it.
  const critical = new Map<string, CriticalCss | null>();
  const criticalFor = (sheet: string): CriticalCss | null => {
    if (!critical.has(sheet)) {
      const file = dist ? path.join(dist, sheet) : '';
      // With the sheet added later, Print before it uses the inline styles: their print rules travel too.
      critical.set(sheet, file && existsSync(file) ? criticalCss(readFileSync(file, 'utf8'), { print: start.sheetLater !== false }) : null);
    }
    return critical.get(sheet)!;
  };
  if (dist && index && existsSync(index)) {
    pages = pagesWithPreloads(dist);
    indexHtml = readFileSync(index, 'utf8');
    serverPages = loadServerPages(app, dist, tokens, { sharedLookups: !off.has('one-lookup') }).catch((err: unknown) => {
      app.log.warn({ event: 'server_pages_unavailable', err }, 'The web build’s page renderer did not load: pages render in the browser');
      return null;
    });
    void app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // The server's renderer is code for this process, not a file for browsers.
      allowedPath: (pathName) => !pathName.startsWith(`/${path.dirname(SERVER_PAGES_MODULE)}/`),
      // The web build writes .br/.gz copies of its text assets: sent to browsers that accept them.
      preCompressed: true,
      setHeaders(reply, file) {
        void reply.header('vary', 'Accept-Encoding');
        if (file.includes(`${path.sep}assets${path.sep}`)) void reply.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker and the shell it keeps offline are revalidated on every check, so a release
        // reaches installed apps at the next start (docs/decisions/045); the worker's scope is the site.
        else if (UNHASHED_SHELL.test(path.relative(dist, file))) void reply.header('cache-control', 'no-cache');
      },
    });
  }
  // The card's PDF link on a page rendered on the server (decision 049): the API's answer for the
  // cookie's user; a refusal, a failure or no cookie lead to the card's page, which says why.
  app.get(CARD_PDF_PAGE, async (request, reply) => {
    const rendering = await serverPages;
    const answer = rendering ? await rendering.cardPdf(request) : null;
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    void reply.header('cache-control', 'private, no-store');
    if (!answer || answer.status !== 200 || !answer.type.startsWith('application/pdf')) return reply.redirect(`/report-card${query}`, 303);
    if (answer.disposition) void reply.header('content-disposition', answer.disposition);
    return reply.type(answer.type).send(answer.body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url.startsWith('/api') || (request.method !== 'GET' && request.method !== 'HEAD') || !dist || !index || !existsSync(index)) {
      return reply.status(404).send({ detail: GENERAL_MESSAGES.notFound });
    }
    if (STATIC_FILE.test(url)) return reply.status(404).header('cache-control', 'no-store').send({ detail: GENERAL_MESSAGES.notFound });
    // The app's entry is revalidated on every visit, so a new release reaches phones at once.
    void reply.header('cache-control', 'no-cache');
    const page = pages.get(url) ?? pages.get(`${url.split('/').slice(0, 2).join('/')}/*`);
    const rendering = await serverPages;
    if (rendering?.paths.has(url) && request.method === 'GET') {
      void reply.header('vary', 'Cookie');
      if (!shells.has(url)) shells.set(url, afterFirstPaint(page ?? indexHtml, start));
      const shell = shells.get(url);
      const rendered = shell && (await rendering.render(request));
      if (shell && rendered) {
        const csp = reply.raw.getHeader('content-security-policy');
        if (typeof csp === 'string')
          void reply.header('content-security-policy', csp.replace("script-src 'self'", `script-src 'self' ${shell.scriptHash}`));
        // One user's data: never kept by a cache, shared or not.
        void reply.header('cache-control', 'private, no-store');
        const styles = shell.stylesheet ? criticalFor(shell.stylesheet.slice(1)) : null;
        // Without the sheet's file (an unusual build) the full stylesheet is applied at once: never an unstyled page.
        const inline = styles
          ? `<style>${styles.forHtml(rendered.html).replace(/<\/style/gi, '<\\/style')}</style>`
          : `<link rel="stylesheet" crossorigin href="${shell.stylesheet}">`;
        const document = await compressedPage(
          shell.html
            .replace(CRITICAL_STYLES, () => (shell.stylesheet ? inline : ''))
            .replace(ROOT_ELEMENT, () => `<div id="root">${rendered.html}</div>${rendered.stateScript}`),
          request.headers['accept-encoding'],
        );
        void reply.header('vary', 'Cookie, Accept-Encoding');
        if (document.encoding) void reply.header('content-encoding', document.encoding);
        return reply.type('text/html; charset=utf-8').send(document.body);
      }
      return reply.type('text/html; charset=utf-8').send(page ?? indexHtml);
    }
    if (page) return reply.type('text/html; charset=utf-8').send(page);
    return reply.sendFile('index.html', dist, { cacheControl: false });
  });
}
