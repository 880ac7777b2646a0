/**
 * Starting the next session (issue 34 item 5, docs/decisions/040) on the bench's 1,500-student
 * school: the preview, then the one step with every copy ticked (the calendar's events moved, fee
 * items raised 10%, schemes, scales, assignments, form teachers, enforcement and windows), timed through the real app in
 * process (the route, its validation, the service, the one transaction). Budget: the step under 2 s.
 *
 *   npm run bench:rollover [-- --students 1500] [--db sqlite:/tmp/rollover-bench.db | --db postgres://…/bench_rollover] [--runs 5]
 *
 * The dataset is built if missing (bench/data.ts). Each run starts a session of its own name (years
 * 3000 on, far from the dataset's), from the dataset's current session, so every run copies the same
 * rows; the sessions stay in the dataset (a benchmark's own database). Prints each run and the
 * median and max, and writes `rollover-<dialect>` into bench/results/latest.json. No test asserts it.
 */
import type { LogEvent } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { BENCH_ACCOUNTS, datasetLocation, fmtMs, intArg, mergeResults, parseArgs } from './common';
import { datasetIsCurrent, generate } from './data';
import { loggedDatabase } from './logged-database';

const BUDGET_MS = 2_000;

async function main() {
  const args = parseArgs();
  const students = intArg(args, 'students', 1500);
  const runs = intArg(args, 'runs', 5);
  const loc = datasetLocation(students, typeof args.db === 'string' ? args.db : undefined);
  let meta = datasetIsCurrent(loc.url, students);
  if (!meta) {
    process.stdout.write(`Dataset ${loc.label} missing or stale: generating…\n`);
    meta = await generate({ students, sessions: 2, url: loc.url });
  }
  let statements = 0;
  const handle = loggedDatabase(loc.url, (e: LogEvent) => {
    if (e.level === 'query') statements++;
  });
  const app = await buildApp({ config: testConfig({ databaseUrl: loc.url }), handle, logger: false });
  await app.ready();
  try {
    const login = await app.inject({ method: 'POST', url: '/api/admin/login/', payload: BENCH_ACCOUNTS.admin });
    if (login.statusCode !== 200) throw new Error(`admin sign-in: ${login.statusCode} ${login.body.slice(0, 160)}`);
    const auth = { authorization: `Bearer ${login.json<{ data: { access: string } }>().data.access}` };
    const from = meta.currentSessionId;
    const taken = new Set(
      (await app.inject({ method: 'GET', url: '/api/sessions/', headers: auth })).json<{ name: string }[]>().map((s) => s.name),
    );
    const times: { preview: number; apply: number; statements: number; copied: Record<string, number> }[] = [];
    for (let i = 0, year = 3000; i < runs; year++) {
      if (taken.has(`${year}/${year + 1}`)) continue;
      let t = performance.now();
      const preview = await app.inject({ method: 'GET', url: `/api/session-rollover/preview/?from_session_id=${from}`, headers: auth });
      const previewMs = performance.now() - t;
      if (preview.statusCode !== 200) throw new Error(`preview: ${preview.statusCode} ${preview.body.slice(0, 200)}`);
      const y = year;
      const body = {
        from_session_id: from,
        name: `${y}/${y + 1}`,
        terms: [
          { term: '1st', starts_on: `${y}-09-07`, ends_on: `${y}-12-11`, next_term_begins: `${y + 1}-01-04` },
          { term: '2nd', starts_on: `${y + 1}-01-04`, ends_on: `${y + 1}-04-02`, next_term_begins: `${y + 1}-04-26` },
          { term: '3rd', starts_on: `${y + 1}-04-26`, ends_on: `${y + 1}-07-23`, next_term_begins: `${y + 1}-09-13` },
        ],
        copy: {
          calendar_events: true,
          fee_items: true,
          fee_increase_percent: 10,
          assessment_schemes: true,
          grading_scales: true,
          report_card_settings: true,
          teaching_assignments: true,
          form_teachers: true,
          enforcement_and_windows: true,
        },
        make_current: false,
      };
      statements = 0;
      t = performance.now();
      const res = await app.inject({ method: 'POST', url: '/api/session-rollover/', headers: auth, payload: body });
      const applyMs = performance.now() - t;
      if (res.statusCode !== 201) throw new Error(`apply: ${res.statusCode} ${res.body.slice(0, 200)}`);
      const copied = res.json<{ copied: Record<string, number> }>().copied;
      times.push({ preview: previewMs, apply: applyMs, statements, copied });
      process.stdout.write(
        `run ${i + 1}: preview ${fmtMs(previewMs)}, start next session ${fmtMs(applyMs)} (${statements} statements) copied ${JSON.stringify(copied)}\n`,
      );
      i++;
    }
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
    const apply = times.map((x) => x.apply);
    const preview = times.map((x) => x.preview);
    const summary = {
      dataset: loc.label,
      students,
      runs,
      preview_median_ms: Math.round(median(preview)),
      preview_max_ms: Math.round(Math.max(...preview)),
      apply_median_ms: Math.round(median(apply)),
      apply_max_ms: Math.round(Math.max(...apply)),
      statements: times[0]?.statements ?? 0,
      copied: times[0]?.copied ?? {},
      budget_ms: BUDGET_MS,
      within_budget: Math.max(...apply) < BUDGET_MS,
      at: new Date().toISOString(),
    };
    process.stdout.write(
      `\n${loc.label}: start next session median ${fmtMs(summary.apply_median_ms)}, max ${fmtMs(summary.apply_max_ms)} ` +
        `(budget ${fmtMs(BUDGET_MS)}: ${summary.within_budget ? 'met' : 'MISSED'}); preview median ${fmtMs(summary.preview_median_ms)}\n`,
    );
    mergeResults({ [`rollover-${loc.kind}`]: summary });
  } finally {
    await app.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
