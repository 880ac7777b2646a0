/**
 * `npm run soak [-- --seconds N --workers N]`: a bounded load test on loopback.
 * Starts the real server on a temporary SQLite database with the demo school, then mixes reads and
 * writes of every role (sign-ins, lists, result saves, profile reads, payment initiations...) for
 * N seconds (default 90), sampling the server's RSS. Reports errors (must be 0), latency
 * percentiles and memory over time (must stay flat), writes bench/results/soak.json, and stops.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SUBJECTS } from '@portal/domain';
import { ROOT, freePort, spawnPortalServer, untilHealthy } from './common';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? NaN);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const SECONDS = Math.min(arg('seconds', 90), 600);
const WORKERS = Math.min(arg('workers', 12), 64);
const ADMIN = { email: 'soak-admin@portal.test', password: 'Soak-Admin-Pass-1' };
const DEMO = {
  staff: { email: 'staff1@demo.school', password: 'Teach-Demo-2026' },
  student: { email: 'student1@demo.school', password: 'Learn-Demo-2026' },
};

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-soak-'));
  const port = await freePort();
  const portal = spawnPortalServer(
    port,
    {
      DATABASE_URL: undefined,
      PAYSTACK_SECRET_KEY: undefined,
      // Not production: the demo school (with fixed test passwords) is refused there.
      // NODE_ENV changes only configuration defaults, not the request path being measured.
      NODE_ENV: 'test',
      DEMO_STAFF_PASSWORD: DEMO.staff.password,
      DEMO_STUDENT_PASSWORD: DEMO.student.password,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_DATA: '1',
      JWT_SECRET: 'soak-secret-soak-secret-soak-secret-0123456789',
      // The soak's one student starts checkouts far faster than a person can.
      PAYMENT_INITIATE_LIMIT_PER_MINUTE: '1000000',
    },
    { withStdout: true },
  );
  const { server, base } = portal;
  const cleanup = () => {
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });

  await untilHealthy(portal, 60_000);

  const login = async (role: 'admin' | 'staff' | 'student', who: { email: string; password: string }) => {
    const res = await fetch(`${base}/api/${role}/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(who),
    });
    if (!res.ok) throw new Error(`${role} login: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: { access: string } }).data.access;
  };
  const tokens = {
    admin: await login('admin', ADMIN),
    staff: await login('staff', DEMO.staff),
    student: await login('student', DEMO.student),
  };
  const authGet = async (url: string, token: string) =>
    (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const sessions = (await authGet('/api/sessions/', tokens.admin)) as { id: number; name: string; is_current: boolean }[];
  const current = sessions.find((s) => s.is_current)!;
  const students = (await authGet('/api/students/list/', tokens.admin)) as { admission_number: string; student_class: string }[];
  const me = (await authGet('/api/me/', tokens.student)) as { public_id: string; email: string };

  type Op = { name: string; weight: number; run: () => Promise<Response> };
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const json = (token: string, method: string, url: string, body?: unknown) =>
    fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const ops: Op[] = [
    { name: 'admin GET students/list', weight: 6, run: () => json(tokens.admin, 'GET', '/api/students/list/') },
    { name: 'admin GET staff/list', weight: 3, run: () => json(tokens.admin, 'GET', '/api/staff/list/') },
    {
      name: 'admin GET payments/report',
      weight: 3,
      run: () => json(tokens.admin, 'GET', `/api/payments/report/?class=${encodeURIComponent(pick(students).student_class)}`),
    },
    {
      name: 'staff GET broadsheet',
      weight: 3,
      run: () =>
        json(
          tokens.staff,
          'GET',
          `/api/broadsheet/?session_id=${current.id}&term=1st&student_class=${encodeURIComponent(pick(students).student_class)}`,
        ),
    },
    {
      name: 'staff GET results (class)',
      weight: 6,
      run: () =>
        json(
          tokens.staff,
          'GET',
          `/api/results/?session_id=${current.id}&term=1st&student_class=${encodeURIComponent(pick(students).student_class)}`,
        ),
    },
    {
      name: 'staff POST results (14 subjects)',
      weight: 6,
      run: () => {
        const s = pick(students);
        return json(tokens.staff, 'POST', '/api/results/', {
          admission_number: s.admission_number,
          session_id: current.id,
          term: '3rd',
          student_class: s.student_class,
          subjects: SUBJECTS.map((name) => ({ name, score: Math.floor(Math.random() * 101) })),
        });
      },
    },
    {
      name: 'staff GET report-card',
      weight: 4,
      run: () =>
        json(
          tokens.staff,
          'GET',
          `/api/report-card/?admission_number=${pick(students).admission_number}&session_id=${current.id}&term=1st`,
        ),
    },
    { name: 'student GET me', weight: 8, run: () => json(tokens.student, 'GET', '/api/me/') },
    { name: 'student GET own profile', weight: 6, run: () => json(tokens.student, 'GET', `/api/students/${me.public_id}/`) },
    {
      name: 'student GET payment history',
      weight: 4,
      run: () => json(tokens.student, 'GET', `/api/payments/history/?admission_number=${me.public_id}`),
    },
    {
      name: 'student POST payments/initiate',
      weight: 2,
      run: () =>
        json(tokens.student, 'POST', '/api/payments/initiate/', {
          admission_number: me.public_id,
          full_name: 'Demo Student',
          current_class: 'JSS 1A',
          current_session: current.name,
          email: me.email,
          amount: '15000',
          term: '1st',
        }),
    },
    { name: 'anyone GET settings', weight: 4, run: () => fetch(`${base}/api/settings/`) },
  ];
  const totalWeight = ops.reduce((a, o) => a + o.weight, 0);
  const choose = () => {
    let r = Math.random() * totalWeight;
    for (const o of ops) if ((r -= o.weight) < 0) return o;
    return ops[0]!;
  };

  const latencies = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const errorSamples: string[] = [];
  let requests = 0;
  const record = (name: string, ms: number, status: number, body?: string) => {
    requests++;
    (latencies.get(name) ?? latencies.set(name, []).get(name)!).push(ms);
    if (status < 200 || status >= 300) {
      errors.set(name, (errors.get(name) ?? 0) + 1);
      if (errorSamples.length < 10) errorSamples.push(`${name}: ${status} ${body?.slice(0, 200) ?? ''}`);
    }
  };

  const started = Date.now();
  const endAt = started + SECONDS * 1000;
  const rss: { t: number; kb: number }[] = [];
  const sampler = setInterval(() => rss.push({ t: Math.round((Date.now() - started) / 1000), kb: rssKb(server.pid!) }), 3000);
  rss.push({ t: 0, kb: rssKb(server.pid!) });

  // Sign-ins: one every 3 s per role in turn (the per-address limit is 30 a minute on loopback).
  const signIns = (async () => {
    const roles = [
      ['student', DEMO.student],
      ['staff', DEMO.staff],
      ['admin', ADMIN],
    ] as const;
    let i = 0;
    while (Date.now() < endAt) {
      const [role, who] = roles[i++ % roles.length]!;
      const t0 = performance.now();
      const res = await fetch(`${base}/api/${role}/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(who),
      });
      const body = await res.text();
      record(`${role} POST login`, performance.now() - t0, res.status, body);
      await new Promise((r) => setTimeout(r, 3000));
    }
  })();

  const worker = async () => {
    while (Date.now() < endAt) {
      const op = choose();
      const t0 = performance.now();
      try {
        const res = await op.run();
        const body = await res.text();
        record(op.name, performance.now() - t0, res.status, body);
      } catch (err) {
        record(op.name, performance.now() - t0, 0, String(err));
      }
    }
  };
  await Promise.all([...Array.from({ length: WORKERS }, worker), signIns]);
  clearInterval(sampler);
  rss.push({ t: Math.round((Date.now() - started) / 1000), kb: rssKb(server.pid!) });
  const elapsed = (Date.now() - started) / 1000;

  const all = [...latencies.values()].flat().sort((a, b) => a - b);
  const third = Math.max(1, Math.floor(rss.length / 3));
  const firstThird = median(rss.slice(0, third).map((s) => s.kb));
  const lastThird = median(rss.slice(-third).map((s) => s.kb));
  const growth = firstThird ? lastThird / firstThird : 1;
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  const report = {
    command: `npm run soak -- --seconds ${SECONDS} --workers ${WORKERS}`,
    date: new Date().toISOString(),
    seconds: Math.round(elapsed),
    workers: WORKERS,
    requests,
    requestsPerSecond: Math.round(requests / elapsed),
    errors: errorCount,
    errorsByRoute: Object.fromEntries(errors),
    errorSamples,
    latencyMs: {
      p50: +percentile(all, 50).toFixed(1),
      p95: +percentile(all, 95).toFixed(1),
      p99: +percentile(all, 99).toFixed(1),
      max: +(all.at(-1) ?? 0).toFixed(1),
    },
    byRoute: Object.fromEntries(
      [...latencies.entries()].map(([name, xs]) => {
        const s = [...xs].sort((a, b) => a - b);
        return [name, { count: s.length, p50: +percentile(s, 50).toFixed(1), p99: +percentile(s, 99).toFixed(1) }];
      }),
    ),
    memory: {
      samplesKb: rss,
      firstThirdMedianKb: firstThird,
      lastThirdMedianKb: lastThird,
      growth: +growth.toFixed(3),
      flat: growth <= 1.2,
    },
    pass: errorCount === 0 && growth <= 1.2,
  };
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(path.join(ROOT, 'bench/results/soak.json'), `${JSON.stringify(report, null, 2)}\n`);

  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  process.stdout.write(
    [
      `Soak: ${report.seconds} s, ${WORKERS} workers, ${requests} requests (${report.requestsPerSecond}/s) on SQLite with the demo school`,
      `  errors: ${errorCount}${errorCount ? ` ${JSON.stringify(report.errorsByRoute)}` : ''}`,
      `  latency: p50 ${report.latencyMs.p50} ms, p95 ${report.latencyMs.p95} ms, p99 ${report.latencyMs.p99} ms, max ${report.latencyMs.max} ms`,
      `  memory (RSS): first third ${mb(firstThird)}, last third ${mb(lastThird)} (x${report.memory.growth}) -> ${report.memory.flat ? 'flat' : 'GROWING'}`,
      ...errorSamples.map((e) => `  ! ${e}`),
      `  written: bench/results/soak.json -> ${report.pass ? 'PASS' : 'FAIL'}`,
      '',
    ].join('\n'),
  );
  server.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  cleanup();
  process.exit(report.pass ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
