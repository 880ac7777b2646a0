/**
 * The signed-in pages people open most, measured as they feel them: a student's
 * report card, "My Results" and the payment form, and a teacher's score sheet, on the bench school
 * (bench/data.ts, 1,500 students, a copy in a temporary directory) served by the real server in
 * production mode with the build being measured.
 *
 * For each page:
 * - **Warm render** (headless Chromium, desktop, no throttling): the page is opened once (HTTP cache
 *   filled; the hashed assets are `immutable`), then `runs` times more in the same tab (the way the
 *   issue measured its 238 ms), then `runs` times from `about:blank` (a fresh tab: "freshTab"). The figure
 *   is the time from navigation start (`performance.timeOrigin`) to the first animation frame in
 *   which every one of the page's `ready` selectors is in the DOM, i.e. its data has rendered (a
 *   MutationObserver installed before any page script spots the commit, then one
 *   `requestAnimationFrame`: the frame that paints it). p50 and p95.
 * - **Lighthouse** (navigation, mobile defaults: Moto G Power, simulated slow 4G, 4x CPU): FCP, LCP
 *   and its element, TBT, the longest critical request chain, and the requests the page made.
 *   Signed in the way the app keeps a session: the tokens in the origin's localStorage, which
 *   Lighthouse's storage reset leaves alone (it clears the HTTP cache, service workers and cache
 *   storage only), set through a page on the origin before each run.
 * - **Cold phone**: opened by its address with nothing cached, on DevTools' throttling of Lighthouse's
 *   mobile profile (latency, bandwidth, 4x CPU applied for real), 5 times: to the content's frame.
 * - **INP** (Lighthouse's navigation mode has none): one interaction typical of the page, driven by
 *   Playwright on a phone viewport with the CPU slowed 4x; the Event Timing entries
 *   (durationThreshold 16) give each interaction's time to the next paint; the worst is reported.
 */
import { copyFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  BENCH_ACCOUNTS,
  BENCH_SHEET_CLASS,
  BENCH_SHEET_SUBJECT,
  datasetLocation,
  freePort,
  spawnPortalServer,
  untilHealthy,
} from './common';
import { datasetIsCurrent, generate } from './data';

export const CARD_LCP_BUDGET_MS = 1500;
export const CARD_WARM_P50_BUDGET_MS = 100;
const STUDENTS = 1500;
const COLD_PHONE_RUNS = 5;
const PHONE_PROFILE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

export type Role = 'student' | 'staff';
export interface Ctx {
  sessionId: number;
}
export interface PageSpec {
  id: string;
  label: string;
  role: Role;
  path: (c: Ctx) => string;
  /** Every selector in the DOM = the page's main content has rendered with its data. */
  ready: string[];
  interaction: string;
  interact: (page: Page) => Promise<void>;
}

const CARD_READY = 'article[aria-label="Report card"] [data-testid="card-summary"]';

export const PAGES: PageSpec[] = [
  {
    id: 'report-card',
    label: "Student's report card",
    role: 'student',
    path: (c) => `/report-card?session_id=${c.sessionId}&term=3rd`,
    ready: [CARD_READY],
    interaction: 'pick the 2nd term, tap View Report Card',
    interact: async (page) => {
      await page.getByLabel('Academic Term').selectOption('2nd');
      await page.getByRole('button', { name: 'View Report Card' }).click();
      await page.waitForURL(/term=2nd/);
      await page.locator(CARD_READY).waitFor();
    },
  },
  {
    id: 'my-results',
    label: 'My Results (student)',
    role: 'student',
    path: () => '/ResultsCheck',
    ready: ['main table'],
    interaction: 'tap the first "View report card"',
    interact: async (page) => {
      await page
        .getByRole('link', { name: /^View report card/ })
        .first()
        .click();
      await page.locator(CARD_READY).waitFor();
    },
  },
  {
    id: 'payment-form',
    label: 'Payment form (student)',
    role: 'student',
    path: () => '/PaymentForm',
    ready: ['[data-testid="fees-due"]', '[data-testid="payment-history"]'],
    interaction: 'type an amount (5 keystrokes)',
    interact: async (page) => {
      await page.getByLabel('Amount (₦)').click();
      await page.keyboard.type('25000', { delay: 120 });
    },
  },
  {
    id: 'score-sheet',
    label: "Teacher's score sheet (SSS 1A, 60 students)",
    role: 'staff',
    path: (c) =>
      `/score-sheet?${new URLSearchParams({ session_id: String(c.sessionId), term: '3rd', class: BENCH_SHEET_CLASS, subject: BENCH_SHEET_SUBJECT }).toString()}`,
    ready: ['input[data-r][data-c="0"]'],
    interaction: 'type a score in 5 cells, Enter after each',
    interact: async (page) => {
      await page.locator('input[data-r][data-c="0"]').first().click();
      for (let i = 0; i < 5; i++) {
        await page.keyboard.type(String(10 + i), { delay: 60 });
        await page.keyboard.press('Enter', { delay: 30 });
        await page.waitForTimeout(120);
      }
    },
  },
];

interface Budget {
  text: string;
  met: boolean;
  figure: string;
}
export interface SignedInPageResult {
  id: string;
  label: string;
  path: string;
  warm: {
    runs: number;
    p50Ms: number;
    p95Ms: number;
    minMs: number;
    maxMs: number;
    /** The last warm opening: when each request started and ended, and the content's frame (ms from navigation start). */
    waterfall: { name: string; startMs: number; endMs: number; cached: boolean }[];
  } | null;
  /** The same, each opening in a fresh tab (from about:blank: a new renderer process). */
  freshTab: SignedInPageResult['warm'];
  /** Opened by its address on a phone's network and CPU (DevTools throttling), nothing cached: to the content's frame. */
  coldPhone: { runs: number; p50Ms: number; minMs: number; maxMs: number } | null;
  lighthouse: {
    performance: number | null;
    fcpMs: number | null;
    lcpMs: number | null;
    tbtMs: number | null;
    speedIndexMs: number | null;
    lcpElement: string | null;
    /** Requests one after another before the page can render: the longest critical chain. */
    longestChain: { length: number; durationMs: number } | null;
    transferKb: number | null;
    requests: { url: string; startMs: number; endMs: number; kb: number }[];
  } | null;
  inp: { interaction: string; interactions: number; worstMs: number } | null;
  budgets: Budget[];
  errors: string[];
}

const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Signs in from a page of the portal the way the app does: the API's answer sets the page-view
 * cookie (the server renders the report card with it), and the app's localStorage entries
 * (apps/web/src/lib/auth-store.ts) are written from its tokens. Evaluated in a page on the origin.
 */
export function signInScript(role: Role): string {
  const info =
    role === 'staff'
      ? "['staffInfo', { staffId: login.staff_id, name: login.first_name }]"
      : "['studentInfo', { admissionNumber: login.admission_number, name: login.first_name }]";
  return `(async () => {
    const res = await fetch('/api/${role}/login/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ${JSON.stringify(JSON.stringify(BENCH_ACCOUNTS[role]))},
    });
    if (!res.ok) throw new Error('${role} sign-in: ' + res.status + ' ' + (await res.text()));
    const login = (await res.json()).data;
    for (const k of ['adminInfo', 'staffInfo', 'studentInfo', 'mustChangePassword']) localStorage.removeItem(k);
    localStorage.setItem('accessToken', login.access);
    localStorage.setItem('refreshToken', login.refresh);
    const [key, info] = ${info};
    localStorage.setItem(key, JSON.stringify(info));
  })()`;
}

/** Installed before any page script: resolves with the time of the frame that paints the page's content. */
export function readyWatcher(selectors: string[]): string {
  return `(() => {
    const sel = ${JSON.stringify(selectors)};
    const found = () => sel.every((s) => document.querySelector(s));
    window.__contentAt = new Promise((resolve) => {
      const mo = new MutationObserver(() => {
        if (!found()) return;
        mo.disconnect();
        requestAnimationFrame(() => resolve(performance.now()));
      });
      mo.observe(document, { childList: true, subtree: true });
    });
  })();`;
}

export async function startServer(tmp: string, outDir: string, env: Record<string, string> = {}, name = 'signed-in') {
  const loc = datasetLocation(STUDENTS, undefined);
  if (loc.kind !== 'sqlite') throw new Error('the signed-in pages run on the SQLite bench school');
  let meta = datasetIsCurrent(loc.url, STUDENTS);
  if (!meta) {
    process.stdout.write(`Dataset ${loc.label} missing or stale: generating…\n`);
    meta = await generate({ students: STUDENTS, sessions: 2, url: loc.url, log: () => undefined });
  }
  // A copy: sign-ins and the score-sheet typing write to it.
  const db = path.join(tmp, `${name}.db`);
  copyFileSync(loc.url.slice('sqlite:'.length), db);
  const port = await freePort();
  const started = spawnPortalServer(port, {
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: `sqlite:${db}`,
    DEMO_DATA: '0',
    DATA_DIR: tmp,
    WEB_DIST: outDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
    REDIS_URL: '',
    ...env,
  });
  try {
    await untilHealthy(started, 90_000);
  } catch (err) {
    started.server.kill('SIGTERM');
    throw err;
  }
  return { server: started.server, base: started.base, sessionId: meta.currentSessionId };
}

export async function signedInPages(
  outDir: string,
  tmp: string,
  opts: { runs: number; lighthouse: boolean; inp: boolean; only?: Set<string> },
): Promise<SignedInPageResult[]> {
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromePath)) throw new Error(`no Chromium at ${chromePath}`);
  const pages = PAGES.filter((p) => !opts.only || opts.only.has(p.id));
  const { server, base, sessionId } = await startServer(tmp, outDir);
  const ctx: Ctx = { sessionId };
  const { chromium } = await import('@playwright/test');
  const out: SignedInPageResult[] = pages.map((p) => ({
    id: p.id,
    label: p.label,
    path: p.path(ctx),
    warm: null,
    freshTab: null,
    coldPhone: null,
    lighthouse: null,
    inp: null,
    budgets: [],
    errors: [],
  }));
  try {
    const browser = await chromium.launch({
      executablePath: chromePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      for (const [i, spec] of pages.entries()) {
        const r = out[i]!;
        // Warm render: desktop, no throttling.
        try {
          const context = await browser.newContext();
          await context.addInitScript(readyWatcher(spec.ready));
          const page = await context.newPage();
          await page.goto(`${base}/login`);
          await page.evaluate(signInScript(spec.role));
          const waterfallNow = async (t: number) =>
            [
              ...(await page.evaluate<{ name: string; startMs: number; endMs: number; cached: boolean }[]>(
                `[performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')].map((e) => ({
                   name: e.name.replace(location.origin, ''),
                   startMs: Math.round(e.startTime),
                   endMs: Math.round(e.responseEnd),
                   cached: e.transferSize === 0,
                 }))`,
              )),
              { name: 'content painted', startMs: Math.round(t), endMs: Math.round(t), cached: false },
            ].sort((a, b) => a.startMs - b.startMs);
          /**
           * `runs` openings after one that fills the cache. In the same tab: the page opened again from a
           * page of the portal (a reload, a link followed), the way the issue's 238 ms was measured, so
           * the tab's renderer process is reused. In a fresh tab: from `about:blank`, so Chromium starts a
           * renderer process for the origin, whose start and cold JavaScript engine cost several times
           * the page's own work on this machine.
           */
          const openings = async (from: 'same-tab' | 'fresh-tab') => {
            const times: number[] = [];
            let waterfall: Awaited<ReturnType<typeof waterfallNow>> = [];
            for (let k = 0; k <= opts.runs; k++) {
              if (from === 'fresh-tab') await page.goto('about:blank');
              await page.goto(`${base}${r.path}`, { waitUntil: 'commit' });
              const t = await page.evaluate<number>('window.__contentAt', undefined);
              if (k > 0) times.push(t); // the first opening fills the cache
              if (k === opts.runs) waterfall = await waterfallNow(t);
            }
            const s = [...times].sort((a, b) => a - b);
            return {
              runs: s.length,
              p50Ms: Math.round(pct(s, 50)),
              p95Ms: Math.round(pct(s, 95)),
              minMs: Math.round(s[0]!),
              maxMs: Math.round(s[s.length - 1]!),
              waterfall,
            };
          };
          r.warm = await openings('same-tab');
          r.freshTab = await openings('fresh-tab');
          await context.close();
        } catch (err) {
          r.errors.push(`warm render: ${String(err)}`);
        }
        if (opts.inp) {
          // A phone opening the page by its address with nothing cached, on the network and CPU of
          // Lighthouse's mobile profile applied by DevTools (its "devtools" throttling: 562.5 ms of
          // latency per request, 1.47 Mbit/s down, 675 kbit/s up, CPU 4x slower), in real time rather
          // than Lighthouse's simulation, so a request that leaves earlier shows as a page that
          // renders earlier. Each opening in a new context; the origin is entered on /favicon.svg so
          // that nothing of the app is loaded before.
          try {
            const times: number[] = [];
            for (let k = 0; k < COLD_PHONE_RUNS; k++) {
              const context = await browser.newContext(PHONE_PROFILE);
              await context.addInitScript(readyWatcher(spec.ready));
              const page = await context.newPage();
              await page.goto(`${base}/favicon.svg`);
              await page.evaluate(signInScript(spec.role));
              const cdp = await context.newCDPSession(page);
              await cdp.send('Network.enable');
              await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
              await cdp.send('Network.emulateNetworkConditions', {
                offline: false,
                latency: 562.5,
                downloadThroughput: (1474.56 * 1024) / 8,
                uploadThroughput: (675 * 1024) / 8,
              });
              await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
              await page.goto(`${base}${r.path}`, { waitUntil: 'commit' });
              times.push(await page.evaluate<number>('window.__contentAt', undefined));
              await context.close();
            }
            const s = [...times].sort((a, b) => a - b);
            r.coldPhone = { runs: s.length, p50Ms: Math.round(pct(s, 50)), minMs: Math.round(s[0]!), maxMs: Math.round(s[s.length - 1]!) };
          } catch (err) {
            r.errors.push(`cold phone: ${String(err)}`);
          }
        }
        if (opts.inp) {
          try {
            const context = await browser.newContext(PHONE_PROFILE);
            await context.addInitScript(readyWatcher(spec.ready));
            const page = await context.newPage();
            await page.goto(`${base}/login`);
            await page.evaluate(signInScript(spec.role));
            await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
            await page.goto(`${base}${r.path}`);
            await page.evaluate('window.__contentAt');
            await page.evaluate(
              `window.__events = [];
               new PerformanceObserver((list) => {
                 for (const e of list.getEntries()) window.__events.push({ id: e.interactionId, duration: e.duration });
               }).observe({ type: 'event', durationThreshold: 16, buffered: true });`,
            );
            await spec.interact(page);
            await page.waitForTimeout(1500); // the observer's last entries
            const events = await page.evaluate<{ id: number; duration: number }[]>('window.__events');
            const byInteraction = new Map<number, number>();
            for (const e of events) if (e.id > 0) byInteraction.set(e.id, Math.max(byInteraction.get(e.id) ?? 0, e.duration));
            r.inp = {
              interaction: spec.interaction,
              interactions: byInteraction.size,
              worstMs: Math.round(Math.max(0, ...byInteraction.values())),
            };
            await context.close();
          } catch (err) {
            r.errors.push(`INP: ${String(err)}`);
          }
        }
      }
    } finally {
      await browser.close();
    }

    if (opts.lighthouse) {
      const { default: lighthouse } = await import('lighthouse');
      const chromeLauncher = await import('chrome-launcher');
      const chrome = await chromeLauncher.launch({
        chromePath,
        chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      try {
        for (const [i, spec] of pages.entries()) {
          const r = out[i]!;
          try {
            // Sign in through a page Playwright opens and closes: the cookie and the tokens stay in the profile.
            const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
            const seed = await cdp.contexts()[0]!.newPage();
            await seed.goto(`${base}/login`);
            await seed.evaluate(signInScript(spec.role));
            await seed.close();
            await cdp.close();
            const result = await lighthouse(`${base}${r.path}`, {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance'],
            });
            const lhr = result?.lhr;
            if (!lhr) throw new Error('no result');
            if (lhr.finalDisplayedUrl && !lhr.finalDisplayedUrl.includes(r.path.split('?')[0]!))
              throw new Error(`ended on ${lhr.finalDisplayedUrl}: not signed in?`);
            const metric = (id: string) => {
              const v = lhr.audits[id]?.numericValue;
              return typeof v === 'number' ? Math.round(v) : null;
            };
            const lcpEl = lhr.audits['largest-contentful-paint-element']?.details as
              { items?: { items?: { node?: { snippet?: string; nodeLabel?: string } }[] }[] } | undefined;
            const node = lcpEl?.items?.[0]?.items?.[0]?.node;
            const chains = lhr.audits['critical-request-chains']?.details as
              { longestChain?: { length: number; duration: number } } | undefined;
            const requests = (
              (lhr.audits['network-requests']?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? []
            ).map((q) => ({
              url: String(q.url).replace(base, ''),
              startMs: Math.round(Number(q.networkRequestTime ?? 0)),
              endMs: Math.round(Number(q.networkEndTime ?? 0)),
              kb: kb(Number(q.transferSize ?? 0)),
            }));
            const performance = lhr.categories.performance?.score;
            r.lighthouse = {
              performance: typeof performance === 'number' ? Math.round(performance * 100) : null,
              fcpMs: metric('first-contentful-paint'),
              lcpMs: metric('largest-contentful-paint'),
              tbtMs: metric('total-blocking-time'),
              speedIndexMs: metric('speed-index'),
              lcpElement: node ? `${node.nodeLabel ?? ''} ${node.snippet ?? ''}`.trim().slice(0, 160) : null,
              longestChain: chains?.longestChain
                ? { length: chains.longestChain.length, durationMs: Math.round(chains.longestChain.duration) }
                : null,
              transferKb:
                lhr.audits['total-byte-weight']?.numericValue !== undefined ? kb(lhr.audits['total-byte-weight'].numericValue) : null,
              requests,
            };
          } catch (err) {
            r.errors.push(`Lighthouse: ${String(err)}`);
          }
        }
      } finally {
        chrome.kill();
      }
    }
  } finally {
    server.kill('SIGTERM');
  }
  for (const r of out) {
    if (r.id !== 'report-card') continue;
    if (r.lighthouse)
      r.budgets.push({
        text: `report card LCP (Lighthouse mobile) <= ${CARD_LCP_BUDGET_MS} ms`,
        met: r.lighthouse.lcpMs !== null && r.lighthouse.lcpMs <= CARD_LCP_BUDGET_MS,
        figure: `${r.lighthouse.lcpMs ?? 'n/a'} ms`,
      });
    if (r.warm)
      r.budgets.push({
        text: `report card warm render p50 <= ${CARD_WARM_P50_BUDGET_MS} ms`,
        met: r.warm.p50Ms <= CARD_WARM_P50_BUDGET_MS,
        figure:
          `${r.warm.p50Ms} ms p50, ${r.warm.p95Ms} ms p95 over ${r.warm.runs} openings in the same tab` +
          `${r.freshTab ? `; in a fresh tab ${r.freshTab.p50Ms} ms p50` : ''} (load ${os.loadavg()[0]!.toFixed(1)})`,
      });
  }
  return out;
}
