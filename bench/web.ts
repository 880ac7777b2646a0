/**
 * Web budgets: builds the web app (to a temporary directory, never apps/web/dist), reports the
 * gzipped JS and CSS each route loads first, and runs Lighthouse (mobile emulation, the system
 * Chromium) on `/` and the three login pages served by the real server.
 *
 *   npm run bench:web [-- --quick] [--no-lighthouse]
 *
 * Writes the `web` key of bench/results/latest.json. Budgets: initial JS ≤ 150 KB
 * gzipped for `/` and the login pages; Lighthouse performance ≥ 90 and accessibility ≥ 95.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT, mergeResults, parseArgs } from './common';

const WEB = path.join(ROOT, 'apps/web');
export const JS_BUDGET_KB = 150;
export const LH_PERFORMANCE_MIN = 90;
export const LH_ACCESSIBILITY_MIN = 95;

/** Route → the module its lazy route loads (apps/web/src/app/router.tsx). */
const ROUTES: { route: string; module: string; budget: boolean }[] = [
  { route: '/', module: 'src/features/home/public-home.tsx', budget: true },
  { route: '/Admin', module: 'src/features/auth/login-routes.tsx', budget: true },
  { route: '/StaffLogin', module: 'src/features/auth/login-routes.tsx', budget: true },
  { route: '/StudentLogin', module: 'src/features/auth/login-routes.tsx', budget: true },
  { route: '/adminHomePage', module: 'src/features/home/home-pages.tsx', budget: false },
  { route: '/staffHomePage', module: 'src/features/home/home-pages.tsx', budget: false },
  { route: '/StudentHomePage', module: 'src/features/home/home-pages.tsx', budget: false },
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

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
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
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production needs its public address; the bench serves on loopback.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `sqlite:${path.join(tmp, 'web.db')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The pages measured need no school; DEMO_DATA is refused in production.
      DEMO_DATA: '0',
      DATA_DIR: tmp,
      WEB_DIST: outDir,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
      ADMIN_EMAIL: 'web-admin@bench.school',
      ADMIN_PASSWORD: 'Web-Admin-Pass-2026',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  server.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const base = `http://127.0.0.1:${port}`;
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  let chrome: Awaited<ReturnType<typeof chromeLauncher.launch>> | undefined;
  try {
    const until = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited: ${stderr}`);
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        // starting
      }
      if (Date.now() > until) throw new Error('server not ready in 60 s');
      await new Promise((r) => setTimeout(r, 150));
    }
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

export async function runWeb(opts: { quick?: boolean; lighthouse?: boolean } = {}): Promise<void> {
  const started = performance.now();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'portal-web-bench-'));
  const outDir = path.join(tmp, 'dist');
  try {
    process.stdout.write(`Building the web app into ${outDir}…\n`);
    const build = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
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
    let lighthouse: LighthouseScore[] = [];
    if (opts.lighthouse !== false) {
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
      ...lighthouse.flatMap((l) =>
        l.error ? [`Lighthouse ${l.page}: ${l.error}`] : l.budgets.filter((b) => !b.met).map((b) => `${b.text} (${b.figure})`),
      ),
    ];
    process.stdout.write(`\n${missed.length ? `Web budgets missed:\n  ${missed.join('\n  ')}` : 'Every web budget met.'}\n`);
    mergeResults({
      web: {
        generatedAt: new Date().toISOString(),
        command: 'npm run bench:web',
        loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
        routes,
        lighthouse,
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
  runWeb({ quick: args.quick === true, lighthouse: args['no-lighthouse'] !== true })
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
