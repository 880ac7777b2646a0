/**
 * Web budgets: builds the web app (to a temporary directory, never apps/web/dist), reports the
 * gzipped JS and CSS each route loads first, and runs Lighthouse (mobile emulation, the system
 * Chromium) on `/` and the three login pages served by the real server; then the signed-in pages
 * people open most (bench/web-signed-in.ts: report card, my results, payment form, score sheet).
 *
 *   npm run bench:web [-- --quick] [--no-lighthouse] [--no-grid] [--no-signed-in] [--no-public]
 *                     [--pages report-card,…] [--runs 20] [--dist <a build made with --manifest>]
 *                     [--no-floor] [--floor-runs 7] [--floor-trace-runs 5] [--lever-off <lever>] [--levers] [--before <main's build>]
 *
 * The floor (bench/web-floor.ts, issue 37): the report card, my results and the payment form
 * against a trivial page of the same server, desktop and a 4x-throttled 360 px phone, first and
 * return visits, LCP medians and their cost over the floor; INP on the phone. `--levers` measures
 * decision 049's levers one by one (each turned off in turn, all off, all on) and `--before` adds
 * another build (main's, all levers off) to the same interleaved run.
 *
 * `--quick`: bundle sizes and the signed-in pages' warm render over 5 runs only (no Lighthouse, no
 * INP runs), about a minute.
 *
 * Writes the `web` key of bench/results/latest.json. Budgets: initial JS ≤ 150 KB
 * gzipped for `/` and the login pages; Lighthouse performance ≥ 90 and accessibility ≥ 95;
 * the score grid (`/score-sheet`) adds ≤ 40 KB gzipped JS of its own, and typing in it on a
 * mobile-emulated, 4x CPU-throttled page keeps INP < 200 ms (`--no-grid` skips that run); the
 * report card page's LCP on Lighthouse's mobile profile ≤ 1.5 s and its warm render p50 ≤ 100 ms; the
 * installable app (registration, update prompt, sw.js) adds < 30 KB gzipped (`pwaShellWeight`).
 * report card page's LCP on Lighthouse's mobile profile ≤ 1.5 s and its warm render p50 ≤ 100 ms.
 * Dashboards (issue 36): no route's first JS grows by more than 10 KB gzipped over its size before
 * them, and each dashboard's own chunk (its charts included) stays ≤ 60 KB gzipped.
 * The build it measures fails if a domain response schema (`*-responses.ts`, `.meta({ id })`) reaches a
 * browser chunk (apps/web/vite.config.ts `noResponseSchemas`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Locator, Page } from '@playwright/test';
import { ROOT, apiCaller, freePort, intArg, mergeResults, parseArgs, spawnPortalServer, untilHealthy } from './common';
import { signedInPages, type SignedInPageResult } from './web-signed-in';
import { floorRun, floorTable, type FloorFigures, type FloorVariant } from './web-floor';

const WEB = path.join(ROOT, 'apps/web');
export const JS_BUDGET_KB = 150;
export const LH_PERFORMANCE_MIN = 90;
export const LH_ACCESSIBILITY_MIN = 95;
export const GRID_JS_BUDGET_KB = 40;
export const GRID_INP_BUDGET_MS = 200;
const GRID_MODULE = 'src/features/results/pages/score-sheet.tsx';

/** Route → the module its lazy route loads (apps/web/src/app/router.tsx). */
const ROUTES: { route: string; module: string; budget: boolean }[] = [
  { route: '/', module: 'src/features/home/public-home.tsx', budget: true },
  { route: '/Admin', module: 'src/features/auth/login-routes.tsx', budget: true },
  { route: '/StaffLogin', module: 'src/features/auth/login-routes.tsx', budget: true },
  { route: '/StudentLogin', module: 'src/features/auth/login-routes.tsx', budget: true },
  { route: '/adminHomePage', module: 'src/features/home/home-pages.tsx', budget: false },
  { route: '/staffHomePage', module: 'src/features/home/home-pages.tsx', budget: false },
  { route: '/StudentHomePage', module: 'src/features/home/home-pages.tsx', budget: false },
  { route: '/score-sheet', module: GRID_MODULE, budget: false },
];
const LIGHTHOUSE_PAGES = ['/', '/Admin', '/StaffLogin', '/StudentLogin'];

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface RouteWeight {
  route: string;
  files: string[];
  jsKb: number;
  jsGzipKb: number;
  cssKb: number;
  cssGzipKb: number;
  budget: { text: string; met: boolean; figure: string } | null;
}

export interface LighthouseScore {
  page: string;
  performance: number | null;
  accessibility: number | null;
  metrics: Record<string, number | null>;
  budgets: { text: string; met: boolean; figure: string }[];
  error?: string;
}

const kb = (n: number) => Math.round((n / 1024) * 10) / 10;

/** A chunk and everything it imports statically: what the browser must load before it runs. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const k of manifest[key]?.imports ?? []) closure(manifest, k, seen);
  return seen;
}

export function routeWeights(outDir: string): RouteWeight[] {
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error('no entry in the Vite manifest');
  const sizes = new Map<string, { raw: number; gz: number }>();
  const size = (file: string) => {
    let s = sizes.get(file);
    if (!s) {
      const buf = readFileSync(path.join(outDir, file));
      s = { raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
      sizes.set(file, s);
    }
    return s;
  };
  return ROUTES.map(({ route, module, budget }) => {
    if (!manifest[module])
      throw new Error(`route ${route}: ${module} is not a chunk of the build (router.tsx changed? update bench/web.ts)`);
    const keys = new Set([...closure(manifest, entry), ...closure(manifest, module)]);
    const js = [...keys].map((k) => manifest[k]!.file);
    const css = [...new Set([...keys].flatMap((k) => manifest[k]!.css ?? []))];
    const jsGz = js.reduce((a, f) => a + size(f).gz, 0);
    const jsGzipKb = kb(jsGz);
    return {
      route,
      files: [...js, ...css],
      jsKb: kb(js.reduce((a, f) => a + size(f).raw, 0)),
      jsGzipKb,
      cssKb: kb(css.reduce((a, f) => a + size(f).raw, 0)),
      cssGzipKb: kb(css.reduce((a, f) => a + size(f).gz, 0)),
      budget: budget
        ? {
            text: `initial JS of ${route} <= ${JS_BUDGET_KB} KB gzipped`,
            met: jsGzipKb <= JS_BUDGET_KB,
            figure: `${jsGzipKb} KB (budget ${JS_BUDGET_KB} KB)`,
          }
        : null,
    };
  });
}

export interface LazyRouteWeight {
  route: string;
  /** Chunks the route loads beyond the entry's (a cold navigation from any other screen). */
  lazyFiles: string[];
  lazyGzipKb: number;
  /** Of those, the chunks no other screen loads: what the route adds beyond the shared chunks. */
  ownFiles: string[];
  ownGzipKb: number;
  budget: { text: string; met: boolean; figure: string };
}

/** What the grid route adds: its lazy chunks beyond the entry, and those only it loads. */
export function gridWeight(outDir: string): LazyRouteWeight {
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  if (!manifest[GRID_MODULE]) throw new Error(`${GRID_MODULE} is not a chunk of the build (update bench/web.ts)`);
  const shell = closure(manifest, entry);
  const lazy = [...closure(manifest, GRID_MODULE)].filter((k) => !shell.has(k));
  // Every other lazy screen's closure: a chunk in one of them is shared, not the grid's own.
  const others = new Set<string>();
  for (const k of Object.keys(manifest))
    if (k !== GRID_MODULE && manifest[k]!.src && !shell.has(k) && (manifest[entry]!.dynamicImports ?? []).includes(k))
      for (const c of closure(manifest, k)) others.add(c);
  const own = lazy.filter((k) => !others.has(k));
  const gz = (keys: string[]) =>
    kb(keys.reduce((a, k) => a + gzipSync(readFileSync(path.join(outDir, manifest[k]!.file)), { level: 9 }).length, 0));
  const ownGzipKb = gz(own);
  return {
    route: '/score-sheet',
    lazyFiles: lazy.map((k) => manifest[k]!.file),
    lazyGzipKb: gz(lazy),
    ownFiles: own.map((k) => manifest[k]!.file),
    ownGzipKb,
    budget: {
      text: `JS the /score-sheet route adds beyond the shared chunks <= ${GRID_JS_BUDGET_KB} KB gzipped`,
      met: ownGzipKb <= GRID_JS_BUDGET_KB,
      figure: `${ownGzipKb} KB (budget ${GRID_JS_BUDGET_KB} KB)`,
    },
  };
}

/** The installable app's bytes (docs/decisions/045): what it adds to the app's JavaScript, and its worker. */
export const PWA_SHELL_BUDGET_KB = 30;

export interface PwaShellWeight {
  /** Its modules in chunks other screens load too (the entry, the signed-in layout): their code's gzipped size. */
  inSharedChunksGzipKb: number;
  /** The chunks only it loads (registration + workbox-window), after a signed-in screen is on screen. */
  ownChunks: string[];
  ownChunksGzipKb: number;
  /** sw.js, with the precache list (it grows with the number of chunks). */
  workerGzipKb: number;
  /** What the precache downloads at its first install (every chunk, the CSS, the shell, the icons), gzipped; a release fetches only changed files. */
  precacheGzipKb: number;
  precacheEntries: number;
  budget: { text: string; met: boolean; figure: string };
}

/**
 * The installable app's added bytes, from the build's `.vite/pwa-weight.json` (vite.config.ts
 * `pwaWeight`: each of its modules, the chunk it landed in, its code gzipped): the modules inside
 * shared chunks, plus the chunks holding nothing else, plus sw.js. Budget: under 30 KB gzipped.
 */
export function pwaShellWeight(outDir: string): PwaShellWeight {
  const file = path.join(outDir, '.vite/pwa-weight.json');
  if (!existsSync(file)) throw new Error(`${file} is missing (vite.config.ts pwaWeight)`);
  const modules = JSON.parse(readFileSync(file, 'utf8')) as { module: string; chunk: string; gzipBytes: number }[];
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const gz = (f: string) => gzipSync(readFileSync(path.join(outDir, f)), { level: 9 }).length;
  // A chunk is the app's own when every module of it is one of the app's (the lazy registration chunk).
  const pwaChunks = new Set(modules.map((m) => m.chunk));
  const chunkSources = new Map<string, string[]>();
  for (const c of Object.values(manifest)) if (c.src) chunkSources.set(c.file, [...(chunkSources.get(c.file) ?? []), c.src]);
  const own = [...pwaChunks].filter(
    (chunk) => (chunkSources.get(chunk) ?? []).every((src) => /src\/lib\/pwa\//.test(src)) && chunkSources.has(chunk),
  );
  const shared = modules.filter((m) => !own.includes(m.chunk)).reduce((a, m) => a + m.gzipBytes, 0);
  const ownBytes = own.reduce((a, f) => a + gz(f), 0);
  const worker = existsSync(path.join(outDir, 'sw.js')) ? gz('sw.js') : 0;
  const sw = existsSync(path.join(outDir, 'sw.js')) ? readFileSync(path.join(outDir, 'sw.js'), 'utf8') : '';
  const precached = [...sw.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!);
  const total = kb(shared + ownBytes + worker);
  return {
    inSharedChunksGzipKb: kb(shared),
    ownChunks: own,
    ownChunksGzipKb: kb(ownBytes),
    workerGzipKb: kb(worker),
    precacheGzipKb: kb(precached.reduce((a, f) => a + gz(f), 0)),
    precacheEntries: precached.length,
    budget: {
      text: `the installable app's added bytes (registration, update prompt, sw.js) <= ${PWA_SHELL_BUDGET_KB} KB gzipped`,
      met: worker > 0 && total <= PWA_SHELL_BUDGET_KB,
      figure: worker > 0 ? `${total} KB (budget ${PWA_SHELL_BUDGET_KB} KB)` : 'no sw.js in the build',
    },
  };
}

/**
 * Each route's first JS (gzip KB) before the dashboards (issue 36), measured on the build of commit
 * c479c65d: a dashboard may add at most DASHBOARD_GROWTH_KB to any route's first JavaScript (its
 * charts load lazily, in the dashboard's own chunk). Update these only with a reason in the commit.
 */
export const FIRST_JS_BEFORE_DASHBOARDS_KB: Record<string, number> = {
  '/': 168.4,
  '/Admin': 172,
  '/StaffLogin': 172,
  '/StudentLogin': 172,
  '/adminHomePage': 198.7,
  '/staffHomePage': 198.7,
  '/StudentHomePage': 198.7,
  '/score-sheet': 193.7,
};
export const DASHBOARD_GROWTH_KB = 10;
export const DASHBOARD_JS_BUDGET_KB = 60;
const DASHBOARD_MODULE = /^src\/features\/dashboards\/[a-z-]+-dashboard\.tsx$/;
const HOME_MODULE = 'src/features/home/home-pages.tsx';

/** How much each route's first JS grew since the dashboards came: at most DASHBOARD_GROWTH_KB. */
export function firstJsGrowth(
  routes: RouteWeight[],
): { route: string; growthKb: number; budget: { text: string; met: boolean; figure: string } }[] {
  return routes
    .filter((r) => FIRST_JS_BEFORE_DASHBOARDS_KB[r.route] !== undefined)
    .map((r) => {
      const growthKb = Math.round((r.jsGzipKb - FIRST_JS_BEFORE_DASHBOARDS_KB[r.route]!) * 10) / 10;
      return {
        route: r.route,
        growthKb,
        budget: {
          text: `first JS of ${r.route} grows <= ${DASHBOARD_GROWTH_KB} KB gzipped with the dashboards`,
          met: growthKb <= DASHBOARD_GROWTH_KB,
          figure: `${growthKb >= 0 ? '+' : ''}${growthKb} KB (budget +${DASHBOARD_GROWTH_KB} KB)`,
        },
      };
    });
}

/**
 * Each dashboard's own chunk (issue 36): its file and whatever it imports that neither the entry nor
 * the home page loads already (the chart kit, visx), gzipped: at most DASHBOARD_JS_BUDGET_KB each.
 */
export function dashboardWeights(
  outDir: string,
): { module: string; files: string[]; gzipKb: number; budget: { text: string; met: boolean; figure: string } }[] {
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
  const loaded = new Set([...closure(manifest, entry), ...closure(manifest, HOME_MODULE)]);
  const dashboards = Object.keys(manifest).filter((k) => DASHBOARD_MODULE.test(k));
  if (!dashboards.length) throw new Error('no dashboard chunk in the build (src/features/dashboards/*-dashboard.tsx): update bench/web.ts');
  return dashboards.map((module) => {
    const own = [...closure(manifest, module)].filter((k) => !loaded.has(k));
    const gzipKb = kb(own.reduce((a, k) => a + gzipSync(readFileSync(path.join(outDir, manifest[k]!.file)), { level: 9 }).length, 0));
    return {
      module,
      files: own.map((k) => manifest[k]!.file),
      gzipKb,
      budget: {
        text: `${module} chunk (with its charts) <= ${DASHBOARD_JS_BUDGET_KB} KB gzipped`,
        met: gzipKb <= DASHBOARD_JS_BUDGET_KB,
        figure: `${gzipKb} KB (budget ${DASHBOARD_JS_BUDGET_KB} KB)`,
      },
    };
  });
}

export interface GridInp {
  cells: number;
  interactions: number;
  /** Worst event-to-next-paint latency of any interaction (keystroke), ms. */
  worstMs: number;
  /** INP as web-vitals reports it: the 98th percentile of interactions (one outlier per 50 ignored). */
  inpMs: number;
  /** The same keystrokes in the sign-in page's email field: the machine's floor. */
  signInFieldInpMs?: number;
  signInFieldWorstMs?: number;
  loadavg?: number[];
  budget: { text: string; met: boolean; figure: string };
  error?: string;
}

const DEMO_STAFF_PASSWORD = 'Bench-Teach-2026';
/** Lighthouse's mobile profile (Moto G Power): the CPU slowdown is set per page through CDP. */
const PHONE_PROFILE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

/**
 * Types a score into `cells` fields, each followed by `then` (Enter: the next row), and reads the
 * Event Timing entries (durationThreshold 16: what INP is built from) of every keystroke.
 */
async function typingLatency(page: Page, start: Locator, cells: number, then: string) {
  await page.evaluate(
    `window.__events = [];
     new PerformanceObserver((list) => {
       for (const e of list.getEntries()) window.__events.push({ id: e.interactionId, duration: e.duration });
     }).observe({ type: 'event', durationThreshold: 16, buffered: true });`,
  );
  await start.click();
  for (let i = 0; i < cells; i++) {
    await page.keyboard.type(String((i * 7) % 21), { delay: 60 });
    await page.keyboard.press(then, { delay: 30 });
    await page.waitForTimeout(120);
  }
  await page.waitForTimeout(3500); // the last row's autosave, and the observer's last entries
  const events = await page.evaluate<{ id: number; duration: number }[]>('window.__events');
  const byInteraction = new Map<number, number>();
  for (const e of events) if (e.id > 0) byInteraction.set(e.id, Math.max(byInteraction.get(e.id) ?? 0, e.duration));
  const worst = [...byInteraction.values()].sort((a, b) => b - a);
  // About three keystrokes per cell; web-vitals ignores one outlier per 50 interactions.
  // Nothing above the 16 ms threshold means every keystroke painted within it.
  const skip = Math.floor((cells * 3) / 50);
  return {
    worstMs: Math.round(worst[0] ?? 0),
    inpMs: Math.round(worst[Math.min(worst.length - 1, skip)] ?? 0),
    above: byInteraction.size,
  };
}
const GRID_ADMIN = { email: 'grid-admin@bench.school', password: 'Grid-Admin-Pass-2026' };

/**
 * Typing in the score grid as Lighthouse's mobile profile would: a phone viewport with touch, the
 * CPU slowed 4x, a signed-in teacher's 40-student SSS arm with CA1/CA2/Exam. 20 cells get a score
 * and Enter each; the Event Timing API (`event` entries, durationThreshold 16, what INP is built
 * from) gives each keystroke's latency to the next paint.
 */
async function gridInp(outDir: string, tmp: string): Promise<GridInp> {
  const fail = (error: string): GridInp => ({
    cells: 0,
    interactions: 0,
    worstMs: 0,
    inpMs: 0,
    budget: { text: `score grid INP < ${GRID_INP_BUDGET_MS} ms`, met: false, figure: 'n/a' },
    error,
  });
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromePath)) return fail(`no Chromium at ${chromePath}`);
  // The demo school (refused in production) gives a real arm, subject and teacher to sign in with.
  const started = spawnPortalServer(await freePort(), {
    NODE_ENV: 'test',
    DATABASE_URL: `sqlite:${path.join(tmp, 'grid.db')}`,
    DEMO_DATA: '1',
    DEMO_STAFF_PASSWORD,
    DEMO_STUDENT_PASSWORD: 'Bench-Learn-2026',
    DATA_DIR: tmp,
    WEB_DIST: outDir,
    ADMIN_EMAIL: GRID_ADMIN.email,
    ADMIN_PASSWORD: GRID_ADMIN.password,
    REDIS_URL: '',
  });
  const { server, base } = started;
  const { chromium } = await import('@playwright/test');
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  try {
    await untilHealthy(started, 90_000);
    const call = apiCaller(base);
    const admin = (await call<{ data: { access: string } }>('POST', '/admin/login/', null, GRID_ADMIN)).data.access;
    const session = (await call<{ id: number; is_current: boolean }[]>('GET', '/sessions/', admin)).find((s) => s.is_current)!;
    await call('PUT', '/assessment-schemes/SSS/', admin, {
      session_id: session.id,
      components: [
        { name: 'First Continuous Assessment', label: 'CA1', max: 20 },
        { name: 'Second Continuous Assessment', label: 'CA2', max: 20 },
        { name: 'Examination', label: 'Exam', max: 60 },
      ],
      confirm: true,
    });
    const lines = ['first_name,last_name,email,phone_number,gender,date_of_birth,student_class,fathers_name,home_address'];
    for (let i = 1; i <= 36; i++)
      lines.push(`Bench${i},Learner,bench${i}@grid.bench.school,0803${1000000 + i},F,2010-03-01,SSS 1A,Mr Learner,1 Road`);
    await call('POST', '/students/import/', admin, { csv: lines.join('\n') });
    // The SSS 1A Mathematics teacher of the demo school.
    const arms = await call<{ id: number; name: string }[]>('GET', '/classes/', admin);
    const subjects = await call<{ id: number; name: string }[]>('GET', '/subjects/', admin);
    const grid = await call<{ cells: { arm_id: number; subject_id: number; staff: { id: number }[] }[] }>(
      'GET',
      `/teaching/assignments/?session_id=${session.id}`,
      admin,
    );
    const armId = arms.find((a) => a.name === 'SSS 1A')!.id;
    const subjectId = subjects.find((s) => s.name === 'Mathematics')!.id;
    const staffId = grid.cells.find((c) => c.arm_id === armId && c.subject_id === subjectId)!.staff[0]!.id;
    const email = (await call<{ id: number; email: string }[]>('GET', '/staff/list/', admin)).find((s) => s.id === staffId)!.email;
    const login = (
      await call<{ data: { access: string; refresh: string; staff_id: string; first_name: string } }>('POST', '/staff/login/', null, {
        email,
        password: DEMO_STAFF_PASSWORD,
      })
    ).data;

    browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    // Lighthouse's mobile profile: Moto G Power screen, touch, 4x CPU slowdown.
    const context = await browser.newContext(PHONE_PROFILE);
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    // Scripts for the page are text: the bench compiles without the DOM types.
    await page.evaluate(
      `localStorage.setItem('accessToken', ${JSON.stringify(login.access)});
       localStorage.setItem('refreshToken', ${JSON.stringify(login.refresh)});
       localStorage.setItem('staffInfo', ${JSON.stringify(JSON.stringify({ staffId: login.staff_id, name: login.first_name }))});`,
    );
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${base}/score-sheet?session_id=${session.id}&term=3rd&class=SSS%201A&subject=Mathematics`);
    const first = page.locator('input[data-r][data-c="0"]').first();
    await first.waitFor({ timeout: 60_000 });
    const cells = 20;
    const typed = await typingLatency(page, first, cells, 'Enter');
    // The same keystrokes in the sign-in page's email field, same emulation: on a busy machine
    // this floor says how much of the figure is the machine rather than the grid.
    const plain = await browser.newContext(PHONE_PROFILE);
    const signIn = await plain.newPage();
    await (await plain.newCDPSession(signIn)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await signIn.goto(`${base}/StaffLogin`);
    const emailField = signIn.getByLabel('Email');
    await emailField.waitFor({ timeout: 60_000 });
    const floor = await typingLatency(signIn, emailField, cells, 'Backspace');
    const { worstMs, inpMs, above } = typed;
    return {
      cells,
      interactions: above,
      worstMs,
      inpMs,
      signInFieldInpMs: floor.inpMs,
      signInFieldWorstMs: floor.worstMs,
      loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
      budget: {
        text: `score grid INP (mobile, 4x CPU) < ${GRID_INP_BUDGET_MS} ms`,
        met: inpMs < GRID_INP_BUDGET_MS,
        figure:
          `${inpMs} ms p98, worst ${worstMs} ms over ${cells} cells (${above} keystrokes above 16 ms); ` +
          `the sign-in email field under the same conditions: ${floor.inpMs} ms p98, worst ${floor.worstMs} ms (load ${os.loadavg()[0]!.toFixed(1)})`,
      },
    };
  } catch (err) {
    return fail(String(err));
  } finally {
    await browser?.close();
    server.kill('SIGTERM');
  }
}

async function lighthouseScores(outDir: string, tmp: string): Promise<LighthouseScore[]> {
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromePath))
    return LIGHTHOUSE_PAGES.map((page) => ({
      page,
      performance: null,
      accessibility: null,
      metrics: {},
      budgets: [],
      error: `no Chromium at ${chromePath}`,
    }));
  const port = await freePort();
  const started = spawnPortalServer(port, {
    NODE_ENV: 'production',
    // Production needs its public address; the bench serves on loopback.
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: `sqlite:${path.join(tmp, 'web.db')}`,
    // The pages measured need no school; DEMO_DATA is refused in production.
    DEMO_DATA: '0',
    DATA_DIR: tmp,
    WEB_DIST: outDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    ADMIN_EMAIL: 'web-admin@bench.school',
    ADMIN_PASSWORD: 'Web-Admin-Pass-2026',
    REDIS_URL: '',
  });
  const { server, base } = started;
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  let chrome: Awaited<ReturnType<typeof chromeLauncher.launch>> | undefined;
  try {
    await untilHealthy(started, 60_000, 150);
    chrome = await chromeLauncher.launch({
      chromePath,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const out: LighthouseScore[] = [];
    for (const page of LIGHTHOUSE_PAGES) {
      try {
        // Lighthouse's defaults: mobile emulation (Moto G Power), simulated slow 4G and 4x CPU slowdown.
        const result = await lighthouse(`${base}${page}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility'],
        });
        const lhr = result?.lhr;
        if (!lhr) throw new Error('no result');
        const score = (c: string) => {
          const s = lhr.categories[c]?.score;
          return typeof s === 'number' ? Math.round(s * 100) : null;
        };
        const metric = (id: string) => {
          const v = lhr.audits[id]?.numericValue;
          return typeof v === 'number' ? Math.round(v) : null;
        };
        const performance = score('performance');
        const accessibility = score('accessibility');
        const failing = Object.values(lhr.audits)
          .filter(
            (a) => a.score !== null && a.score < 1 && lhr.categories.accessibility?.auditRefs.some((r) => r.id === a.id && r.weight > 0),
          )
          .map((a) => a.id);
        out.push({
          page,
          performance,
          accessibility,
          metrics: {
            fcpMs: metric('first-contentful-paint'),
            lcpMs: metric('largest-contentful-paint'),
            tbtMs: metric('total-blocking-time'),
            cls1000:
              lhr.audits['cumulative-layout-shift']?.numericValue !== undefined
                ? Math.round(lhr.audits['cumulative-layout-shift'].numericValue * 1000)
                : null,
            speedIndexMs: metric('speed-index'),
            transferKb:
              lhr.audits['total-byte-weight']?.numericValue !== undefined ? kb(lhr.audits['total-byte-weight'].numericValue) : null,
          },
          budgets: [
            {
              text: `Lighthouse performance of ${page} >= ${LH_PERFORMANCE_MIN}`,
              met: (performance ?? 0) >= LH_PERFORMANCE_MIN,
              figure: `${performance ?? 'n/a'}`,
            },
            {
              text: `Lighthouse accessibility of ${page} >= ${LH_ACCESSIBILITY_MIN}`,
              met: (accessibility ?? 0) >= LH_ACCESSIBILITY_MIN,
              figure: `${accessibility ?? 'n/a'}${failing.length ? ` (failing: ${failing.join(', ')})` : ''}`,
            },
          ],
        });
      } catch (err) {
        out.push({ page, performance: null, accessibility: null, metrics: {}, budgets: [], error: String(err) });
      }
    }
    return out;
  } finally {
    chrome?.kill();
    server.kill('SIGTERM');
  }
}

export async function runWeb(
  opts: {
    quick?: boolean;
    lighthouse?: boolean;
    grid?: boolean;
    signedIn?: boolean;
    publicPages?: boolean;
    pages?: Set<string>;
    runs?: number;
    /** A build made with `--manifest` elsewhere (another commit, for an A/B run): measured instead of building. */
    dist?: string;
    floor?: boolean;
    floorRuns?: number;
    /** Traced return visits of the floor and the card (web-trace.ts); 0 for none. */
    floorTraceRuns?: number;
    /** A lever of SERVER_PAGE_LEVERS_OFF measured off beside this build. */
    leverOff?: string;
    levers?: boolean;
    before?: string;
  } = {},
): Promise<void> {
  // --quick: bundle sizes and the signed-in pages' warm render over 5 runs; no Lighthouse, no INP.
  const quick = opts.quick === true;
  const lighthouseOn = opts.lighthouse !== false && !quick;
  const started = performance.now();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'portal-web-bench-'));
  const outDir = opts.dist ? path.resolve(opts.dist) : path.join(tmp, 'dist');
  try {
    process.stdout.write(opts.dist ? `Measuring the build in ${outDir}…\n` : `Building the web app into ${outDir}…\n`);
    const build = opts.dist
      ? { status: 0, stderr: '', stdout: '' }
      : spawnSync(
          process.execPath,
          [
            path.join(ROOT, 'node_modules/vite/bin/vite.js'),
            'build',
            '--manifest',
            '--outDir',
            outDir,
            '--emptyOutDir',
            '--logLevel',
            'warn',
          ],
          {
            cwd: WEB,
            encoding: 'utf8',
            timeout: 300_000,
          },
        );
    if (build.status !== 0) throw new Error(`vite build failed (${build.status}): ${build.stderr || build.stdout}`);
    const routes = routeWeights(outDir);
    process.stdout.write(`\n${'route'.padEnd(18)} ${'JS gz KB'.padStart(9)} ${'JS KB'.padStart(8)} ${'CSS gz KB'.padStart(10)} budget\n`);
    for (const r of routes) {
      process.stdout.write(
        `${r.route.padEnd(18)} ${String(r.jsGzipKb).padStart(9)} ${String(r.jsKb).padStart(8)} ${String(r.cssGzipKb).padStart(10)} ${r.budget ? `${r.budget.met ? 'MET' : 'MISSED'} ${r.budget.figure}` : '-'}\n`,
      );
    }
    const gridJs = gridWeight(outDir);
    process.stdout.write(
      `\n/score-sheet adds ${gridJs.lazyGzipKb} KB gzipped beyond the entry (${gridJs.lazyFiles.length} chunks), ` +
        `${gridJs.ownGzipKb} KB of it its own (${gridJs.ownFiles.join(', ')}): ${gridJs.budget.met ? 'MET' : 'MISSED'} ${gridJs.budget.figure}\n`,
    );
    const pwaShell = pwaShellWeight(outDir);
    process.stdout.write(
      `\nInstallable app: ${pwaShell.inSharedChunksGzipKb} KB in shared chunks + ${pwaShell.ownChunksGzipKb} KB of its own ` +
        `(${pwaShell.ownChunks.join(', ')}) + sw.js ${pwaShell.workerGzipKb} KB: ${pwaShell.budget.met ? 'MET' : 'MISSED'} ${pwaShell.budget.figure}; ` +
        `the precache downloads ${pwaShell.precacheGzipKb} KB gzipped (${pwaShell.precacheEntries} files) at its first install; a release, only the files that changed\n`,
    );
    const growth = firstJsGrowth(routes);
    const dashboards = dashboardWeights(outDir);
    process.stdout.write('\n');
    for (const g of growth) process.stdout.write(`${g.budget.met ? 'MET' : 'MISSED'} ${g.budget.text}: ${g.budget.figure}\n`);
    for (const d of dashboards)
      process.stdout.write(`${d.budget.met ? 'MET' : 'MISSED'} ${d.budget.text}: ${d.budget.figure} (${d.files.join(', ')})\n`);
    let grid: GridInp | null = null;
    if (opts.grid !== false && !quick) {
      process.stdout.write('\nTyping in the score grid (mobile emulation, 4x CPU)…\n');
      grid = await gridInp(outDir, tmp);
      process.stdout.write(
        `${grid.error ? `FAILED ${grid.error}` : `${grid.budget.met ? 'MET' : 'MISSED'} ${grid.budget.text}: ${grid.budget.figure}`}\n`,
      );
    }
    let floor: FloorFigures[] = [];
    let floorError: string | null = null;
    if (opts.floor !== false) {
      const runs = opts.floorRuns ?? (quick ? 3 : 7);
      const variants: FloorVariant[] = [{ label: 'this build' }];
      // One lever off beside this build, interleaved (an A/B of one lever).
      if (opts.leverOff) variants.push({ label: `${opts.leverOff} off`, leversOff: opts.leverOff });
      if (opts.levers) {
        const all = 'inline-css,idle-start,one-lookup,paint-first,sheet-later';
        variants.push(
          { label: 'levers off', leversOff: all },
          { label: 'only inline-css', leversOff: 'idle-start,one-lookup' },
          { label: 'only idle-start', leversOff: 'inline-css,one-lookup' },
          { label: 'only one-lookup', leversOff: 'inline-css,idle-start' },
        );
        if (opts.before) variants.push({ label: 'before (its build)', dist: opts.before, leversOff: all });
      } else if (opts.before)
        variants.push({ label: 'before (its build)', dist: opts.before, leversOff: 'inline-css,idle-start,one-lookup,paint-first,sheet-later' });
      process.stdout.write(`\nThe floor: LCP medians over ${runs} runs (${variants.map((v) => v.label).join(', ')})…\n`);
      try {
        floor = await floorRun(outDir, tmp, { runs, variants, inp: !quick, traceRuns: opts.floorTraceRuns ?? (quick ? 0 : 5) });
        process.stdout.write(`${floorTable(floor)}\n`);
        for (const f of floor) {
          for (const b of f.budgets) process.stdout.write(`  ${f.variant}: ${b.met ? 'MET' : 'MISSED'} ${b.text}: ${b.figure}\n`);
          for (const e of f.errors) process.stdout.write(`  ${f.variant}: FAILED ${e}\n`);
        }
      } catch (err) {
        floorError = String(err);
        process.stdout.write(`FAILED ${floorError}\n`);
      }
    }
    let lighthouse: LighthouseScore[] = [];
    let signedIn: SignedInPageResult[] = [];
    let signedInError: string | null = null;
    if (opts.signedIn !== false) {
      const runs = opts.runs ?? (quick ? 5 : 20);
      process.stdout.write(
        `\nSigned-in pages (bench school, 1,500 students): warm render over ${runs} runs` +
          `${lighthouseOn ? ', Lighthouse mobile' : ''}${quick ? '' : ', INP of one interaction (mobile, 4x CPU)'}…\n`,
      );
      try {
        signedIn = await signedInPages(outDir, tmp, { runs, lighthouse: lighthouseOn, inp: !quick, only: opts.pages });
      } catch (err) {
        signedInError = String(err);
        process.stdout.write(`FAILED ${signedInError}\n`);
      }
      process.stdout.write(
        `${'page'.padEnd(14)} ${'warm p50'.padStart(9)} ${'p95'.padStart(6)} ${'fresh tab'.padStart(9)} ${'cold phone'.padStart(10)}  ${'LH perf'.padStart(7)} ${'FCP'.padStart(6)} ${'LCP'.padStart(6)} ${'TBT'.padStart(5)} ${'chain'.padStart(5)} ${'INP'.padStart(5)}\n`,
      );
      const ms = (v: number | null | undefined) => (v === null || v === undefined ? '-' : String(v));
      for (const r of signedIn) {
        process.stdout.write(
          `${r.id.padEnd(14)} ${ms(r.warm?.p50Ms).padStart(9)} ${ms(r.warm?.p95Ms).padStart(6)} ${ms(r.freshTab?.p50Ms).padStart(9)} ${ms(r.coldPhone?.p50Ms).padStart(10)}  ${ms(r.lighthouse?.performance).padStart(7)} ` +
            `${ms(r.lighthouse?.fcpMs).padStart(6)} ${ms(r.lighthouse?.lcpMs).padStart(6)} ${ms(r.lighthouse?.tbtMs).padStart(5)} ` +
            `${ms(r.lighthouse?.longestChain?.length).padStart(5)} ${ms(r.inp?.worstMs).padStart(5)}` +
            `${r.lighthouse?.lcpElement ? `  LCP element: ${r.lighthouse.lcpElement.slice(0, 60)}` : ''}\n`,
        );
        for (const e of r.errors) process.stdout.write(`  FAILED ${e}\n`);
        for (const b of r.budgets) process.stdout.write(`  ${b.met ? 'MET' : 'MISSED'} ${b.text}: ${b.figure}\n`);
      }
    }
    if (lighthouseOn && opts.publicPages !== false) {
      process.stdout.write('\nLighthouse (mobile) against the real server…\n');
      lighthouse = await lighthouseScores(outDir, tmp);
      for (const l of lighthouse) {
        process.stdout.write(
          `${l.page.padEnd(14)} ${l.error ? `FAILED ${l.error}` : `performance ${l.performance}, accessibility ${l.accessibility}  (FCP ${l.metrics.fcpMs} ms, LCP ${l.metrics.lcpMs} ms, TBT ${l.metrics.tbtMs} ms, ${l.metrics.transferKb} KB transferred)`}  ${l.budgets.map((b) => `${b.met ? 'MET' : 'MISSED'}`).join('/')}\n`,
        );
      }
    }
    const missed = [
      ...routes.filter((r) => r.budget && !r.budget.met).map((r) => `${r.budget!.text} (${r.budget!.figure})`),
      ...(gridJs.budget.met ? [] : [`${gridJs.budget.text} (${gridJs.budget.figure})`]),
      ...(pwaShell.budget.met ? [] : [`${pwaShell.budget.text} (${pwaShell.budget.figure})`]),
      ...[...growth, ...dashboards].filter((b) => !b.budget.met).map((b) => `${b.budget.text} (${b.budget.figure})`),
      ...(grid
        ? grid.error
          ? [`score grid INP: ${grid.error}`]
          : grid.budget.met
            ? []
            : [`${grid.budget.text} (${grid.budget.figure})`]
        : []),
      ...lighthouse.flatMap((l) =>
        l.error ? [`Lighthouse ${l.page}: ${l.error}`] : l.budgets.filter((b) => !b.met).map((b) => `${b.text} (${b.figure})`),
      ),
      ...(signedInError ? [`signed-in pages: ${signedInError}`] : []),
      ...(floorError ? [`floor: ${floorError}`] : []),
      // The budgets are the served build's (the first variant); the others are A/B figures.
      ...(floor[0]?.budgets.filter((b) => !b.met).map((b) => `${b.text} (${b.figure})`) ?? []),
      ...(floor[0]?.errors.map((e) => `floor: ${e}`) ?? []),
      ...signedIn.flatMap((r) => [
        ...r.errors.map((e) => `${r.id}: ${e}`),
        ...r.budgets.filter((b) => !b.met).map((b) => `${b.text} (${b.figure})`),
      ]),
    ];
    process.stdout.write(`\n${missed.length ? `Web budgets missed:\n  ${missed.join('\n  ')}` : 'Every web budget met.'}\n`);
    mergeResults({
      web: {
        generatedAt: new Date().toISOString(),
        command: `npm run bench:web${quick ? ' -- --quick' : ''}`,
        loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
        routes,
        gridJs,
        pwaShell,
        dashboardGrowth: growth,
        dashboards,
        gridInp: grid,
        lighthouse,
        signedIn,
        floor,
        budgetsMissed: missed,
        seconds: Math.round((performance.now() - started) / 1000),
      },
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const args = parseArgs();
  runWeb({
    quick: args.quick === true,
    lighthouse: args['no-lighthouse'] !== true,
    grid: args['no-grid'] !== true,
    signedIn: args['no-signed-in'] !== true,
    publicPages: args['no-public'] !== true,
    dist: typeof args.dist === 'string' ? args.dist : undefined,
    pages: typeof args.pages === 'string' ? new Set(args.pages.split(',')) : undefined,
    runs: args.runs === undefined ? undefined : intArg(args, 'runs', 20),
    floor: args['no-floor'] !== true,
    floorRuns: args['floor-runs'] === undefined ? undefined : intArg(args, 'floor-runs', 7),
    leverOff: typeof args['lever-off'] === 'string' ? args['lever-off'] : undefined,
    floorTraceRuns: args['floor-trace-runs'] === undefined ? undefined : intArg(args, 'floor-trace-runs', 5),
    levers: args.levers === true,
    before: typeof args.before === 'string' ? args.before : undefined,
  })
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
