/**
 * Start-up time of the server: from spawning the process to its first healthy
 * `/api/health` answer, through tsx (`node --import tsx apps/server/src/main.ts`, as before) and
 * compiled (`node --enable-source-maps apps/server/dist/main.js`, as `npm start` runs it). Runs
 * alternate (tsx, compiled, tsx, …) on one migrated database, production mode, so both see the same
 * machine load; prints the median, the range and the resident memory once healthy.
 *
 *   npm run bench:startup -- [--runs 5] [--db postgres://postgres@127.0.0.1:5432/test]
 *
 * On PostgreSQL the server gets a database of its own on the given server (dropped afterwards); the
 * given database is never touched.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../apps/server/build';
import { runPgStatement } from '../apps/server/test/helpers';
import { ROOT, freePort } from './common';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg('runs') ?? 5);
const DB = arg('db');

const MODES = {
  tsx: ['--import', 'tsx', 'apps/server/src/main.ts'],
  compiled: ['--enable-source-maps', 'apps/server/dist/main.js'],
  // What the source maps cost at start-up.
  'compiled, no maps': ['apps/server/dist/main.js'],
} as const;
type Mode = keyof typeof MODES;

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 1024);
}

/** One start: ms from spawn to the first 200 from /api/health, and the RSS then; the process is stopped after. */
async function startOnce(mode: Mode, env: NodeJS.ProcessEnv): Promise<{ ms: number; rss: number }> {
  const port = await freePort();
  let out = '';
  const started = performance.now();
  const child = spawn(process.execPath, [...MODES[mode]], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${mode} server exited: ${out}`);
      if (performance.now() - started > 60_000) throw new Error(`${mode} server not healthy after 60 s: ${out}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.status === 200) return { ms: performance.now() - started, rss: rssMb(child.pid!) };
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function main(): Promise<void> {
  await buildServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-startup-'));
  let database: string | undefined;
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    PUBLIC_URL: 'http://127.0.0.1',
    JWT_SECRET: 'startup-bench-secret-startup-bench-secret-0123',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'startup@bench.school',
    ADMIN_PASSWORD: 'Startup-Bench-Pass-1',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(dataDir, 'no-web'),
  };
  if (DB) {
    database = `portal_startup_${process.pid}`;
    await runPgStatement(DB, `create database ${database}`);
    const url = new URL(DB);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
  } else {
    env.DATABASE_URL = '';
  }
  try {
    // The first start migrates and creates the admin: not counted.
    await startOnce('compiled', env);
    const modes = Object.keys(MODES) as Mode[];
    const times = Object.fromEntries(modes.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
    const rss = Object.fromEntries(modes.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
    for (let i = 0; i < RUNS; i++) {
      for (const mode of modes) {
        const r = await startOnce(mode, env);
        times[mode].push(r.ms);
        rss[mode].push(r.rss);
      }
    }
    console.log(
      `\nStart-up to the first healthy /api/health (${DB ? 'PostgreSQL' : 'SQLite'}, Node ${process.version}, ${RUNS} runs each)`,
    );
    console.log('mode                median ms   min–max ms   RSS MB (median)   runs (ms)');
    for (const mode of modes) {
      const t = times[mode];
      const range = `${Math.min(...t).toFixed(0)}–${Math.max(...t).toFixed(0)}`;
      console.log(
        `${mode.padEnd(18)} ${median(t).toFixed(0).padStart(10)}   ${range.padEnd(11)}  ${String(median(rss[mode])).padStart(15)}   ${t.map((x) => x.toFixed(0)).join(', ')}`,
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (DB && database) await runPgStatement(DB, `drop database if exists ${database} with (force)`);
  }
}

await main();
