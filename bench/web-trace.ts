/**
 * The browser's own work before a page's first contentful paint, read from a Chromium trace (issue 37,
 * items 1–2). LCP medians over a handful of runs move by ±30 ms on a shared machine, more than the
 * levers being weighed; the main thread's busy time before the first contentful paint, summed from the
 * trace's events (parsing, script, style, layout, paint), moves by a few: it shows what a change did
 * to the browser's work even when the paint's timing is lost in the noise.
 */
import type { Browser, Page } from '@playwright/test';

/** The main thread's top-level events counted as the page's work (nested ones are inside these). */
const WORK = new Set([
  'ParseHTML',
  'EvaluateScript',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'FireIdleCallback',
  'ParseAuthorStyleSheet',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'Commit',
]);

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { beginData?: { url?: string } };
}

export interface PaintWork {
  /** The first contentful paint, ms after the document's parsing began. */
  fcpAfterParseMs: number;
  /** The main thread's busy time from the start of parsing to that paint (ms). */
  workMs: number;
  /** Each event's own time by name (nested events are counted in their parents too). */
  byEvent: Record<string, number>;
}

/** The work of one trace: the main thread of the page's renderer, from the start of parsing its document to its first contentful paint. */
export function paintWork(events: TraceEvent[]): PaintWork | null {
  // From the first parse of the document on the main thread of the renderer that painted it: the
  // document's own request events are missing from some traces (sent before the renderer traced).
  const fcp = events.filter((e) => e.name === 'firstContentfulPaint').at(-1);
  if (!fcp) return null;
  const onMain = (e: TraceEvent) => e.pid === fcp.pid && e.tid === fcp.tid;
  // (about:blank parses too, with no address)
  const start = events
    .filter((e) => e.name === 'ParseHTML' && e.ph === 'X' && onMain(e) && !!e.args?.beginData?.url && e.ts <= fcp.ts)
    .sort((a, b) => a.ts - b.ts)[0];
  if (!start) return null;
  const byEvent: Record<string, number> = {};
  const spans: [number, number][] = [];
  for (const e of events) {
    if (!onMain(e) || e.ph !== 'X' || !WORK.has(e.name) || e.ts < start.ts || e.ts > fcp.ts) continue;
    byEvent[e.name] = (byEvent[e.name] ?? 0) + (e.dur ?? 0) / 1000;
    spans.push([e.ts, Math.min(e.ts + (e.dur ?? 0), fcp.ts)]);
  }
  // Busy time is the union of the spans: a script runs inside the parse, a call inside a timer.
  spans.sort((a, b) => a[0] - b[0]);
  let workUs = 0;
  let end = -Infinity;
  for (const [from, to] of spans) {
    if (to <= end) continue;
    workUs += to - Math.max(from, end);
    end = to;
  }
  return { fcpAfterParseMs: (fcp.ts - start.ts) / 1000, workMs: workUs / 1000, byEvent };
}

/**
 * Opens `url` in `page` (straight from the page it shows: through about:blank the visit often opens
 * in a new renderer whose first events the trace misses) while tracing it; the page's work before its
 * first contentful paint.
 */
export async function tracedVisit(browser: Browser, page: Page, url: string): Promise<PaintWork | null> {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading'] });
  let buffer: Buffer;
  try {
    await page.goto(url, { waitUntil: 'load' });
    // Past the first paint and the frames after it.
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 100))))');
  } finally {
    buffer = await browser.stopTracing();
  }
  return paintWork((JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents);
}
