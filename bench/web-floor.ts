/**
 * The browser's floor (issue 37, items 1–2; docs/decisions/049): how much the pages people open most
 * cost over a trivial page served by the same server in the same browser. The floor page is a
 * 244-byte HTML file the bench writes into the build it measures (`bench-floor.html`, served as a
 * static file; never part of a release), so the difference is the page's own cost: its styles, its
 * markup and layout, its scripts, its data.
 *
 * For each page (the floor, the server-rendered report card signed in as a student, "My Results",
 * the payment form), two profiles (desktop 1350x940; a 360 px phone, touch, CPU slowed 4x through
 * DevTools; no network throttling: the server is on loopback), and two visits:
 * - **first**: a new browser context, signed in from the floor page, its HTTP cache cleared;
 * - **return**: the same tab opening the page again (the HTTP cache filled, the renderer warm).
 * The figure is the page's largest contentful paint (the last `largest-contentful-paint` entry,
 * read once the page's content is in the DOM and two frames later), median over `runs` openings,
 * the pages interleaved within each run. On the phone, INP of one interaction per page
 * (Event Timing, durationThreshold 16, worst interaction), median over the runs.
 *
 * Variants (`--levers`): the same build served with some of decision 049's levers turned off
 * (`SERVER_PAGE_LEVERS_OFF`), and `--before <dist>`, another build (main's) with all of them off:
 * each variant is its own server on its own copy of the bench school, interleaved run by run.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { PAGES, readyWatcher, signInScript, startServer, type PageSpec } from './web-signed-in';
import { tracedVisit, type PaintWork } from './web-trace';

export const FLOOR_FILE = 'bench-floor.html';
/** 244 bytes: a title, a heading and a paragraph, nothing to fetch. */
export const FLOOR_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
  '<title>Floor</title></head><body><h1>Report card</h1><p>The floor: a tiny page from the same server.</p></body></html>';

export const CARD_RETURN_DESKTOP_OVER_FLOOR_MS = 10;
export const CARD_RETURN_PHONE_OVER_FLOOR_MS = 25;
export const CARD_FIRST_PHONE_OVER_FLOOR_MS = 40;
export const CARD_PHONE_INP_MS = 100;

const DESKTOP = { viewport: { width: 1350, height: 940 } };
const PHONE = { viewport: { width: 360, height: 740 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
type Profile = 'desktop' | 'phone';
type Visit = 'first' | 'return';

export interface FloorVariant {
  label: string;
  /** The build served (default: the one measured). */
  dist?: string;
  /** SERVER_PAGE_LEVERS_OFF for its server. */
  leversOff?: string;
}

interface FloorPage {
  id: string;
  path: string;
  ready: string[];
  interaction: string;
  interact: (page: Page) => Promise<void>;
}

export interface FloorFigures {
  variant: string;
  runs: number;
  /** page id → profile → visit → LCP median (ms); `over` the same minus the floor's. */
  lcp: Record<
    string,
    Record<
      Profile,
      Record<
        Visit,
        {
          medianMs: number;
          overFloorMs: number;
          /** LCP minus the document's first byte (the browser's part, without the server's render), median, and over the floor's. */
          afterDocumentMs: number;
          afterDocumentOverFloorMs: number;
          samples: number[];
        }
      >
    >
  >;
  /**
   * page id → profile → the browser's work before the first contentful paint on a return visit, from
   * traced visits after the LCP runs (web-trace.ts): medians, and the work over the floor's.
   */
  paintWork: Record<string, Record<Profile, { fcpAfterParseMs: number; workMs: number; workOverFloorMs: number; samples: number[] }>>;
  /** page id → INP on the phone after a return visit: median of the runs' worst interaction (ms). */
  phoneInp: Record<string, { interaction: string; medianMs: number; samples: number[] }>;
  budgets: { text: string; met: boolean; figure: string }[];
  errors: string[];
}

const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round = (n: number) => Math.round(n * 10) / 10;

/** The last LCP candidate's time (ms from navigation start). */
const LCP_NOW = `new Promise((resolve) => {
  const o = new PerformanceObserver((list) => { const e = list.getEntries(); o.disconnect(); resolve(e[e.length - 1].startTime); });
  o.observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => resolve(null), 3000);
})`;
const TWO_FRAMES = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))))';

function floorPages(sessionId: number): FloorPage[] {
  const spec = (id: string): PageSpec => PAGES.find((p) => p.id === id)!;
  const card = spec('report-card');
  const results = spec('my-results');
  const pay = spec('payment-form');
  return [
    { id: 'floor', path: `/${FLOOR_FILE}`, ready: ['p'], interaction: '-', interact: () => Promise.resolve() },
    {
      id: 'report-card',
      path: card.path({ sessionId }),
      ready: card.ready,
      // No navigation: the page's own responsiveness (a tap on a field, two Tabs), the app started or not.
      interaction: 'tap the Admission Number field, Tab twice',
      interact: async (page) => {
        await page.getByLabel('Admission Number').tap();
        await page.keyboard.press('Tab', { delay: 30 });
        await page.waitForTimeout(100);
        await page.keyboard.press('Tab', { delay: 30 });
      },
    },
    {
      id: 'my-results',
      path: results.path({ sessionId }),
      ready: results.ready,
      interaction: results.interaction,
      interact: results.interact,
    },
    { id: 'payment-form', path: pay.path({ sessionId }), ready: pay.ready, interaction: pay.interaction, interact: pay.interact },
  ];
}

/** The LCP (ms from navigation start) and when the document's first byte arrived (the server's part). */
async function openAndMeasure(page: Page, base: string, p: FloorPage): Promise<{ lcp: number; ttfb: number }> {
  await page.goto(`${base}${p.path}`, { waitUntil: 'commit' });
  await page.evaluate<number>('window.__contentAt');
  await page.evaluate(TWO_FRAMES);
  const lcp = await page.evaluate<number | null>(LCP_NOW);
  if (lcp === null) throw new Error(`${p.id}: no largest-contentful-paint entry`);
  const ttfb = await page.evaluate<number>("performance.getEntriesByType('navigation')[0].responseStart");
  return { lcp, ttfb };
}

async function newContext(browser: Browser, profile: Profile, base: string, p: FloorPage) {
  const context: BrowserContext = await browser.newContext(profile === 'phone' ? PHONE : DESKTOP);
  await context.addInitScript(readyWatcher(p.ready));
  const page = await context.newPage();
  await page.goto(`${base}/${FLOOR_FILE}`);
  await page.evaluate(signInScript('student'));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  if (profile === 'phone') await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { context, page };
}

async function phoneInp(page: Page, p: FloorPage): Promise<number> {
  await page.evaluate(
    `window.__events = [];
     new PerformanceObserver((list) => {
       for (const e of list.getEntries()) window.__events.push({ id: e.interactionId, duration: e.duration });
     }).observe({ type: 'event', durationThreshold: 16, buffered: true });`,
  );
  await p.interact(page);
  await page.waitForTimeout(1000);
  const events = await page.evaluate<{ id: number; duration: number }[]>('window.__events');
  const by = new Map<number, number>();
  for (const e of events) if (e.id > 0) by.set(e.id, Math.max(by.get(e.id) ?? 0, e.duration));
  // Nothing above 16 ms: every interaction painted within a frame.
  return Math.round(Math.max(0, ...by.values()));
}

/**
 * Measures each variant's pages against its floor, interleaved: run after run, variant after
 * variant, profile after profile, page after page.
 */
export async function floorRun(
  outDir: string,
  tmp: string,
  opts: { runs: number; variants: FloorVariant[]; inp: boolean; traceRuns?: number; log?: (line: string) => void },
): Promise<FloorFigures[]> {
  const log = opts.log ?? ((l: string) => process.stdout.write(`${l}\n`));
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const servers: { variant: FloorVariant; base: string; sessionId: number; kill: () => void }[] = [];
  const { chromium } = await import('@playwright/test');
  const figures: FloorFigures[] = [];
  try {
    for (const [i, variant] of opts.variants.entries()) {
      const dist = variant.dist ? path.resolve(variant.dist) : outDir;
      writeFileSync(path.join(dist, FLOOR_FILE), FLOOR_HTML);
      const s = await startServer(tmp, dist, variant.leversOff ? { SERVER_PAGE_LEVERS_OFF: variant.leversOff } : {}, `floor-${i}`);
      servers.push({ variant, base: s.base, sessionId: s.sessionId, kill: () => s.server.kill('SIGTERM') });
    }
    const pages = floorPages(servers[0]!.sessionId);
    const samples = servers.map(() => ({
      lcp: new Map<string, number[]>(),
      afterDocument: new Map<string, number[]>(),
      inp: new Map<string, number[]>(),
      work: new Map<string, PaintWork[]>(),
      errors: [] as string[],
    }));
    const browser = await chromium.launch({
      executablePath: chromePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      for (let run = 0; run < opts.runs; run++) {
        for (const [v, server] of servers.entries()) {
          for (const profile of ['desktop', 'phone'] as const) {
            for (const p of pages) {
              const key = (visit: Visit) => `${p.id}|${profile}|${visit}`;
              const add = (k: string, ms: number, into = samples[v]!.lcp) => into.set(k, [...(into.get(k) ?? []), ms]);
              let context: BrowserContext | undefined;
              try {
                const opened = await newContext(browser, profile, server.base, p);
                context = opened.context;
                for (const visit of ['first', 'return'] as const) {
                  const m = await openAndMeasure(opened.page, server.base, p);
                  add(key(visit), m.lcp);
                  add(key(visit), m.lcp - m.ttfb, samples[v]!.afterDocument);
                }
                if (opts.inp && profile === 'phone' && p.id !== 'floor') add(p.id, await phoneInp(opened.page, p), samples[v]!.inp);
              } catch (err) {
                samples[v]!.errors.push(`${p.id} ${profile} run ${run + 1}: ${String(err).split('\n')[0]}`);
              } finally {
                await context?.close();
              }
            }
          }
        }
        log(`  floor run ${run + 1}/${opts.runs} done (load ${os.loadavg()[0]!.toFixed(1)})`);
      }
      // Traced return visits of the floor and the card, interleaved: the browser's work before the first contentful paint.
      const traced = pages.filter((p) => p.id === 'floor' || p.id === 'report-card');
      for (let run = 0; run < (opts.traceRuns ?? 0); run++) {
        for (const [v, server] of servers.entries())
          for (const profile of ['desktop', 'phone'] as const)
            for (const p of traced) {
              let context: BrowserContext | undefined;
              try {
                const opened = await newContext(browser, profile, server.base, p);
                context = opened.context;
                await openAndMeasure(opened.page, server.base, p); // the first visit fills the caches
                const work = await tracedVisit(browser, opened.page, `${server.base}${p.path}`);
                if (!work) throw new Error('no first contentful paint in the trace');
                const k = `${p.id}|${profile}`;
                samples[v]!.work.set(k, [...(samples[v]!.work.get(k) ?? []), work]);
              } catch (err) {
                samples[v]!.errors.push(`${p.id} ${profile} traced run ${run + 1}: ${String(err).split('\n')[0]}`);
              } finally {
                await context?.close();
              }
            }
        log(`  traced run ${run + 1}/${opts.traceRuns} done (load ${os.loadavg()[0]!.toFixed(1)})`);
      }
    } finally {
      await browser.close();
    }
    for (const [v, server] of servers.entries()) {
      const s = samples[v]!;
      const lcp: FloorFigures['lcp'] = {};
      for (const p of pages) {
        lcp[p.id] = { desktop: {}, phone: {} } as FloorFigures['lcp'][string];
        for (const profile of ['desktop', 'phone'] as const)
          for (const visit of ['first', 'return'] as const) {
            const xs = (s.lcp.get(`${p.id}|${profile}|${visit}`) ?? []).map(round);
            const floor = median(s.lcp.get(`floor|${profile}|${visit}`) ?? []);
            const after = median(s.afterDocument.get(`${p.id}|${profile}|${visit}`) ?? []);
            const floorAfter = median(s.afterDocument.get(`floor|${profile}|${visit}`) ?? []);
            lcp[p.id]![profile][visit] = {
              medianMs: round(median(xs)),
              overFloorMs: round(median(xs) - floor),
              afterDocumentMs: round(after),
              afterDocumentOverFloorMs: round(after - floorAfter),
              samples: xs,
            };
          }
      }
      const paintWorkFigures: FloorFigures['paintWork'] = {};
      for (const p of pages)
        for (const profile of ['desktop', 'phone'] as const) {
          const of = (id: string) => s.work.get(`${id}|${profile}`) ?? [];
          if (!of(p.id).length) continue;
          const work = median(of(p.id).map((w) => w.workMs));
          (paintWorkFigures[p.id] ??= {} as FloorFigures['paintWork'][string])[profile] = {
            fcpAfterParseMs: round(median(of(p.id).map((w) => w.fcpAfterParseMs))),
            workMs: round(work),
            workOverFloorMs: round(work - median(of('floor').map((w) => w.workMs))),
            samples: of(p.id).map((w) => round(w.workMs)),
          };
        }
      const phoneInpFigures: FloorFigures['phoneInp'] = {};
      for (const p of pages)
        if (s.inp.has(p.id))
          phoneInpFigures[p.id] = { interaction: p.interaction, medianMs: median(s.inp.get(p.id)!), samples: s.inp.get(p.id)! };
      const card = lcp['report-card']!;
      const budget = (text: string, over: number, limit: number, detail: string) => ({
        text,
        met: Number.isFinite(over) && over <= limit,
        figure: `${Number.isFinite(over) ? `+${over}` : 'n/a'} ms over the floor (${detail})`,
      });
      const budgets = [
        budget(
          `report card return visit, desktop <= floor + ${CARD_RETURN_DESKTOP_OVER_FLOOR_MS} ms`,
          card.desktop.return.overFloorMs,
          CARD_RETURN_DESKTOP_OVER_FLOOR_MS,
          `${card.desktop.return.medianMs} ms vs ${lcp.floor!.desktop.return.medianMs} ms`,
        ),
        budget(
          `report card return visit, phone <= floor + ${CARD_RETURN_PHONE_OVER_FLOOR_MS} ms`,
          card.phone.return.overFloorMs,
          CARD_RETURN_PHONE_OVER_FLOOR_MS,
          `${card.phone.return.medianMs} ms vs ${lcp.floor!.phone.return.medianMs} ms`,
        ),
        budget(
          `report card first visit, phone <= floor + ${CARD_FIRST_PHONE_OVER_FLOOR_MS} ms`,
          card.phone.first.overFloorMs,
          CARD_FIRST_PHONE_OVER_FLOOR_MS,
          `${card.phone.first.medianMs} ms vs ${lcp.floor!.phone.first.medianMs} ms`,
        ),
      ];
      const cardInp = phoneInpFigures['report-card'];
      if (cardInp)
        budgets.push({
          text: `report card INP on the phone < ${CARD_PHONE_INP_MS} ms`,
          met: cardInp.medianMs < CARD_PHONE_INP_MS,
          figure: `${cardInp.medianMs} ms median of ${cardInp.samples.length} (${cardInp.interaction})`,
        });
      figures.push({
        variant: server.variant.label,
        runs: opts.runs,
        lcp,
        paintWork: paintWorkFigures,
        phoneInp: phoneInpFigures,
        budgets,
        errors: s.errors,
      });
    }
  } finally {
    for (const s of servers) s.kill();
  }
  return figures;
}

/** The figures as a table: one line per variant, profile and visit. */
export function floorTable(figures: FloorFigures[]): string {
  const ids = ['report-card', 'my-results', 'payment-form'];
  const lines = [
    `${'variant'.padEnd(26)} ${'profile'.padEnd(8)} ${'visit'.padEnd(7)} ${'floor'.padStart(6)} ${ids.map((i) => `${i} (over)`.padStart(22)).join('')}` +
      `  card after its first byte (over the floor's)`,
  ];
  for (const f of figures)
    for (const profile of ['desktop', 'phone'] as const)
      for (const visit of ['first', 'return'] as const)
        lines.push(
          `${f.variant.padEnd(26)} ${profile.padEnd(8)} ${visit.padEnd(7)} ${String(f.lcp.floor?.[profile][visit].medianMs ?? '-').padStart(6)} ` +
            ids
              .map((i) => {
                const c = f.lcp[i]?.[profile][visit];
                return (c ? `${c.medianMs} (+${c.overFloorMs})` : '-').padStart(22);
              })
              .join('') +
            `  ${f.lcp['report-card']?.[profile][visit].afterDocumentMs ?? '-'} (+${f.lcp['report-card']?.[profile][visit].afterDocumentOverFloorMs ?? '-'})`,
        );
  for (const f of figures)
    for (const profile of ['desktop', 'phone'] as const) {
      const card = f.paintWork['report-card']?.[profile];
      const floor = f.paintWork.floor?.[profile];
      if (card && floor)
        lines.push(
          `${f.variant.padEnd(26)} ${profile.padEnd(8)} return, traced: main-thread work before the first contentful paint ` +
            `${card.workMs} ms (+${card.workOverFloorMs} over the floor's ${floor.workMs}); that paint ${card.fcpAfterParseMs} ms ` +
            `after parsing began (floor ${floor.fcpAfterParseMs})`,
        );
    }
  for (const f of figures)
    lines.push(
      `${f.variant.padEnd(26)} phone INP (median of each run's worst): ${ids.map((i) => `${i} ${f.phoneInp[i]?.medianMs ?? '-'} ms`).join(', ')}`,
    );
  return lines.join('\n');
}
