/**
 * Measures a bulk student import end to end (HTTP inject, CSV parse, validation, one-time
 * passwords, inserts, audit). A script, never a timed test:
 *
 *   node --import tsx bench/import-in-process.ts [rows...]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/import-in-process.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLASSES, STUDENT_CSV_COLUMNS } from '@portal/domain';
import { createTestContext, signInAdmin } from '../apps/server/test/helpers';

function csvOf(n: number, tag: string): string {
  const lines = [STUDENT_CSV_COLUMNS.join(',')];
  for (let i = 0; i < n; i++) {
    lines.push(
      [
        `First${i}`,
        `Last${i % 97}`,
        `s${i}.${tag}@bench.school`,
        `0803${String(1000000 + i).slice(-7)}`,
        i % 2 ? 'F' : 'M',
        '2011-05-14',
        CLASSES[i % CLASSES.length],
        'Mr Parent',
        '08030000000',
        'Mrs Parent',
        '',
        '"5 Allen Avenue, Ikeja"',
      ].join(','),
    );
  }
  return lines.join('\n');
}

async function main() {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  const dialect = process.env.BENCH_DATABASE_URL ? 'postgres' : 'sqlite';
  if (dialect === 'postgres') process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const dir = mkdtempSync(path.join(tmpdir(), 'import-bench-'));
  const ctx = await createTestContext(dialect, {}, { sqliteFile: path.join(dir, 'bench.db') });
  try {
    const admin = await signInAdmin(ctx);
    for (const n of sizes.length ? sizes : [2000, 10000]) {
      const csv = csvOf(n, `n${n}`);
      const t0 = performance.now();
      const res = await ctx.app.inject({ method: 'POST', url: '/api/students/import/', headers: admin.auth, payload: { csv } });
      const ms = performance.now() - t0;
      if (res.statusCode !== 201) throw new Error(`import failed: ${res.statusCode} ${res.body.slice(0, 500)}`);
      console.log(`${dialect}: imported ${n} students in ${(ms / 1000).toFixed(2)} s (${Math.round(n / (ms / 1000))} rows/s)`);
    }
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
