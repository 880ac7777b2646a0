/**
 * One-shot scenario: a CSV import of 10,000 students (2,000 with --quick) through the real
 * endpoint `POST /api/students/import/` of a real server process, on a scratch database of its own
 * (so the load scenarios' school keeps its size). Budget (design.md §9): 10,000 students < 10 s.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { CLASSES } from '@portal/domain';
import { ROOT } from './common';
import { freshPostgresDatabase } from './data';

export const CSV_IMPORT_BUDGET_MS = 10_000;
export const CSV_IMPORT_ROWS = 10_000;

export interface OneShotResult {
  id: string;
  title: string;
  database: string;
  rows: number;
  ms: number;
  peakRssMb: number | null;
  budget: { text: string; met: boolean; figure: string };
  failed: boolean;
  note?: string;
}

export function studentsCsv(rows: number): string {
  const lines = [
    'first_name,last_name,email,phone_number,gender,date_of_birth,student_class,fathers_name,fathers_phone,mothers_name,mothers_phone,home_address',
  ];
  for (let i = 1; i <= rows; i++) {
    lines.push(
      [
        `Ada${i}`,
        `Okafor${i % 97}`,
        `import${i}@import.school`,
        '08031234567',
        i % 2 ? 'F' : 'M',
        `2011-0${1 + (i % 9)}-1${i % 10}`,
        CLASSES[i % 12],
        `Mr Okafor`,
        '08039876543',
        'Mrs Okafor',
        '08035556666',
        '"5 Allen Avenue, Ikeja"',
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
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

function peak(pid: number | undefined): number | null {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

export async function runCsvImport(opts: {
  quick: boolean;
  tmp: string;
  kind: 'sqlite' | 'postgres';
  pgUrl?: string;
}): Promise<OneShotResult> {
  const rows = opts.quick ? 2_000 : CSV_IMPORT_ROWS;
  const budgetMs = (CSV_IMPORT_BUDGET_MS * rows) / CSV_IMPORT_ROWS;
  let url: string;
  if (opts.kind === 'postgres' && opts.pgUrl) {
    const u = new URL(opts.pgUrl);
    u.pathname = '/bench_import';
    url = u.toString();
    await freshPostgresDatabase(url);
  } else {
    const file = path.join(opts.tmp, 'import.db');
    for (const s of ['', '-wal', '-shm']) rmSync(file + s, { force: true });
    url = `sqlite:${file}`;
  }
  const port = await freePort();
  const admin = { email: 'import-admin@bench.school', password: 'Import-Admin-Pass-2026' };
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production needs its public address (issue 10); the bench serves on loopback.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DEMO_DATA: '0',
      DATA_DIR: opts.tmp,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const base = `http://127.0.0.1:${port}`;
  const result = (ms: number, failed: boolean, note?: string): OneShotResult => ({
    id: 'csv-import',
    title: `CSV import of ${rows.toLocaleString()} students`,
    database: opts.kind,
    rows,
    ms: Math.round(ms),
    peakRssMb: peak(child.pid),
    budget: {
      text: '10,000 students imported from CSV < 10 s',
      met: !failed && ms < budgetMs,
      figure: `${(ms / 1000).toFixed(2)} s (budget < ${budgetMs / 1000} s for ${rows.toLocaleString()} rows)`,
    },
    failed,
    ...(note ? { note } : {}),
  });
  try {
    const until = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) return result(0, true, `server exited: ${stderr}`);
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        // starting
      }
      if (Date.now() > until) return result(0, true, 'server not ready in 60 s');
      await new Promise((r) => setTimeout(r, 150));
    }
    const login = await fetch(`${base}/api/admin/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    const access = ((await login.json()) as { data?: { access?: string } }).data?.access;
    if (!access) return result(0, true, `admin sign-in failed: HTTP ${login.status}`);
    const csv = studentsCsv(rows);
    const t = performance.now();
    const r = await fetch(`${base}/api/students/import/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
      body: JSON.stringify({ csv }),
      signal: AbortSignal.timeout(120_000),
    });
    const body = await r.text();
    const ms = performance.now() - t;
    if (r.status !== 201 && r.status !== 200) return result(ms, true, `HTTP ${r.status} ${body.slice(0, 200)}`);
    return result(ms, false);
  } finally {
    child.kill('SIGTERM');
  }
}
