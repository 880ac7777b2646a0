/**
 * Promoting the whole bench school at the end of its current session (issue 34's budget: the
 * preview and the run together under 5 s on SQLite and on PostgreSQL). A script, never a timed test:
 *
 *   npm run bench:promotion                                   (SQLite, /tmp/promo-bench/school-1500.db)
 *   npm run bench:promotion -- --db postgres://postgres@127.0.0.1:5432/bench_promo
 *   npm run bench:promotion -- --students 1500 --db FILE
 *
 * Builds the dataset (bench/data.ts) when missing or stale, then in-process (app.inject, no network):
 * the whole-school preview, the run (POST, then GET of its progress every 20 ms until done), and
 * the undo, which leaves the dataset as it was for the next run. Prints each step's milliseconds and
 * whether preview + run kept to the budget. docs/performance.md keeps the figures.
 */
import path from 'node:path';
import { nowIso, createDatabase } from '../apps/server/src/db/index';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { nextSessionName } from '../apps/server/src/modules/results/card-building';
import '../apps/server/src/modules/promotion/promotion.tables';
import { BENCH_ACCOUNTS, datasetLocation, fmtMs, intArg, parseArgs } from './common';
import { datasetIsCurrent, generate } from './data';

const BUDGET_MS = 5000;

async function main() {
  const args = parseArgs();
  const students = intArg(args, 'students', 1500);
  const db = typeof args.db === 'string' ? args.db : path.join('/tmp/promo-bench', `school-${students}.db`);
  const loc = datasetLocation(students, db);
  let meta = datasetIsCurrent(loc.url, students);
  if (!meta) {
    process.stdout.write(`Building a school of ${students} students in ${loc.label}\n`);
    meta = await generate({ students, sessions: 2, url: loc.url, log: () => {} });
  }
  const handle = createDatabase(loc.url, { pgPoolSize: 5 });
  const app = await buildApp({ config: testConfig({ databaseUrl: loc.url }), handle, logger: false });
  await app.ready();
  try {
    const login = await app.inject({ method: 'POST', url: '/api/admin/login/', payload: BENCH_ACCOUNTS.admin });
    if (login.statusCode !== 200) throw new Error(`admin sign-in answered ${login.statusCode}`);
    const headers = { authorization: `Bearer ${login.json<{ data: { access: string } }>().data.access}` };
    const from = meta.currentSessionId;
    const toName = nextSessionName(meta.currentSession) ?? 'Next session';
    const existing = await handle.db.selectFrom('academic_sessions').select('id').where('name', '=', toName).executeTakeFirst();
    const to =
      existing?.id ??
      (
        await handle.db
          .insertInto('academic_sessions')
          .values({ name: toName, is_current: 0, created_at: nowIso() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    // A run an earlier bench left (interrupted before its undo): undone first, so the school is whole again.
    const left = await handle.db
      .selectFrom('promotion_runs')
      .select('id')
      .where('status', '=', 'done')
      .where('from_session_id', '=', from)
      .execute();
    for (const r of left) await app.inject({ method: 'POST', url: `/api/promotion/runs/${r.id}/undo/`, headers, payload: {} });

    let t = performance.now();
    const preview = await app.inject({
      method: 'GET',
      url: `/api/promotion/preview/?from_session_id=${from}&to_session_id=${to}`,
      headers,
    });
    const previewMs = performance.now() - t;
    if (preview.statusCode !== 200) throw new Error(`preview answered ${preview.statusCode}: ${preview.body.slice(0, 300)}`);
    const p = preview.json<{ students: unknown[]; totals: Record<string, number> }>();

    t = performance.now();
    const start = await app.inject({
      method: 'POST',
      url: '/api/promotion/runs/',
      headers,
      payload: { from_session_id: from, to_session_id: to },
    });
    if (start.statusCode !== 202) throw new Error(`run answered ${start.statusCode}: ${start.body.slice(0, 300)}`);
    const id = start.json<{ id: number }>().id;
    const seen = new Set<string>();
    let run: { status: string; done: number; total: number; summary: Record<string, number> };
    for (;;) {
      run = (await app.inject({ method: 'GET', url: `/api/promotion/runs/${id}/`, headers })).json();
      seen.add(`${run.done}/${run.total}`);
      if (run.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const applyMs = performance.now() - t;
    if (run.status !== 'done') throw new Error(`the run ended ${run.status}`);

    t = performance.now();
    const undo = await app.inject({ method: 'POST', url: `/api/promotion/runs/${id}/undo/`, headers, payload: {} });
    const undoMs = performance.now() - t;

    const total = previewMs + applyMs;
    console.log(`${loc.label}: ${p.students.length} students (${JSON.stringify(p.totals)})`);
    console.log(`  preview (GET, whole school)   ${fmtMs(previewMs)}`);
    console.log(`  run (POST + progress polls)   ${fmtMs(applyMs)}  progress seen: ${[...seen].join(', ')}`);
    console.log(`  undo                          ${fmtMs(undoMs)}  (${undo.statusCode})`);
    console.log(`  preview + run                 ${fmtMs(total)}  budget ${fmtMs(BUDGET_MS)}: ${total < BUDGET_MS ? 'kept' : 'MISSED'}`);
    if (total >= BUDGET_MS) process.exitCode = 1;
  } finally {
    await app.close();
    await handle.destroy();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
