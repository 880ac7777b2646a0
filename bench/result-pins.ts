/**
 * Result-checker PINs (issue 34 budget): a batch of 2,000 PINs with its A4 sheet (PDF) in under 10 s.
 * A script, never a timed test:
 *
 *   npm run bench:pins
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:pins
 *
 * Through the real app (in-process, a database file of its own): POST /api/result-pins/batches/
 * (2,000 PINs drawn, hashed, sealed, inserted in one transaction), then GET …/sheet.pdf (every
 * printable copy opened, 200 A4 pages drawn) and …/cards.csv. Three rounds; prints each and writes
 * bench/results/latest.json (`result-pins-<dialect>`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSession } from '../apps/server/src/db/factories';
import { createTestContext, signInAdmin } from '../apps/server/test/helpers';
import { mergeResults } from './common';

const N = Number(process.env.BENCH_PINS ?? 2000);
const BUDGET_MS = 10_000;

async function main() {
  const dialect = process.env.BENCH_DATABASE_URL ? 'postgres' : 'sqlite';
  if (dialect === 'postgres') process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const dir = mkdtempSync(path.join(tmpdir(), 'pins-bench-'));
  const ctx = await createTestContext(dialect, {}, { sqliteFile: path.join(dir, 'bench.db') });
  const rounds: { batchMs: number; pdfMs: number; csvMs: number; totalMs: number; pdfKb: number }[] = [];
  try {
    const admin = await signInAdmin(ctx);
    const session = await createSession(ctx.handle.db, '2025/2026', true);
    for (let round = 0; round < 3; round++) {
      const t0 = performance.now();
      const made = await ctx.app.inject({
        method: 'POST',
        url: '/api/result-pins/batches/',
        headers: admin.auth,
        payload: { session_id: session.id, term: '1st', count: N },
      });
      const batchMs = performance.now() - t0;
      if (made.statusCode !== 201) throw new Error(`batch: ${made.statusCode} ${made.body}`);
      const { id } = made.json<{ id: number }>();
      const t1 = performance.now();
      const pdf = await ctx.app.inject({ method: 'GET', url: `/api/result-pins/batches/${id}/sheet.pdf`, headers: admin.auth });
      const pdfMs = performance.now() - t1;
      if (pdf.statusCode !== 200) throw new Error(`sheet: ${pdf.statusCode} ${pdf.body.slice(0, 200)}`);
      const t2 = performance.now();
      const csv = await ctx.app.inject({ method: 'GET', url: `/api/result-pins/batches/${id}/cards.csv`, headers: admin.auth });
      const csvMs = performance.now() - t2;
      if (csv.statusCode !== 200) throw new Error(`csv: ${csv.statusCode}`);
      const r = {
        batchMs: Math.round(batchMs),
        pdfMs: Math.round(pdfMs),
        csvMs: Math.round(csvMs),
        totalMs: Math.round(batchMs + pdfMs),
        pdfKb: Math.round(pdf.rawPayload.length / 1024),
      };
      rounds.push(r);
      console.log(
        `${dialect} round ${round + 1}: ${N} PINs generated in ${r.batchMs} ms, sheet PDF (${r.pdfKb} KB) in ${r.pdfMs} ms, CSV in ${r.csvMs} ms; batch + PDF ${r.totalMs} ms`,
      );
    }
    const worst = Math.max(...rounds.map((r) => r.totalMs));
    const met = worst < BUDGET_MS;
    console.log(`${dialect}: worst batch + PDF ${worst} ms: budget < ${BUDGET_MS} ms ${met ? 'met' : 'MISSED'}`);
    mergeResults({
      [`result-pins-${dialect}`]: { generatedAt: new Date().toISOString(), pins: N, rounds, worstMs: worst, budgetMs: BUDGET_MS, met },
    });
    process.exitCode = met ? 0 : 1;
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
