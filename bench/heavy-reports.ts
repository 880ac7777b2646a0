/**
 * One user looping heavy reports from several tabs, while a monitor polls /api/health: how much the
 * health check (and so every other user) waits. Against a running server on a bench school:
 *
 *   npm run bench:data -- --students 1500 --out /tmp/school.db
 *   DATABASE_URL=sqlite:/tmp/school.db PORT=3215 LOGIN_RATE_LIMIT_PER_MINUTE=1000 npm run serve &
 *   npm run bench:heavy -- --base http://127.0.0.1:3215 --seconds 12 --tabs 4 [--path /api/bursary/debtors.csv]
 *   npm run bench:heavy -- --base http://127.0.0.1:3215 --seconds 12 --tabs 0   (no report: the baseline)
 *
 * Prints the heavy requests' answers (200 ran, 429 refused: the user already has 2 in progress) and
 * the health check's p50, p99 and max in milliseconds. Default path: the whole-school broadsheet of
 * the current session's first term. docs/performance.md keeps the figures.
 */
import { BENCH_ACCOUNTS, intArg, parseArgs } from './common';

const args = parseArgs();
const base = String(args.base ?? 'http://127.0.0.1:3215');
const seconds = intArg(args, 'seconds', 12);
// --tabs 0: the health check alone (the idle baseline of a loaded machine).
const tabs = args.tabs === '0' ? 0 : intArg(args, 'tabs', 4);

async function main() {
  const signIn = await fetch(`${base}/api/admin/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ACCOUNTS.admin),
  });
  if (!signIn.ok) throw new Error(`admin sign-in answered ${signIn.status}`);
  const auth = { authorization: `Bearer ${((await signIn.json()) as { data: { access: string } }).data.access}` };
  const sessions = (await (await fetch(`${base}/api/sessions/`, { headers: auth })).json()) as { id: number; is_current: boolean }[];
  const current = sessions.find((s) => s.is_current) ?? sessions[0]!;
  const path = typeof args.path === 'string' ? args.path : `/api/broadsheet/?session_id=${current.id}&term=1st`;
  const until = Date.now() + seconds * 1000;
  const codes: Record<number, number> = {};
  const health: number[] = [];

  async function tab() {
    while (Date.now() < until) {
      const r = await fetch(`${base}${path}`, { headers: auth });
      await r.arrayBuffer();
      codes[r.status] = (codes[r.status] ?? 0) + 1;
      // A refused tab tries again soon, as a person reloading would.
      if (r.status === 429) await new Promise((res) => setTimeout(res, 50));
    }
  }
  async function monitor() {
    while (Date.now() < until) {
      const t = performance.now();
      await (await fetch(`${base}/api/health`)).arrayBuffer();
      health.push(performance.now() - t);
      await new Promise((res) => setTimeout(res, 20));
    }
  }
  await Promise.all([...Array.from({ length: tabs }, tab), monitor()]);
  const sorted = [...health].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1);
  console.log(`${path}, ${tabs} tabs for ${seconds} s: answers ${JSON.stringify(codes)}`);
  console.log(`/api/health: ${sorted.length} checks, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`);
}

await main();
