// Two compiled portal instances behind nginx on one PostgreSQL database and Redis (issue 18):
// started together, then checked one property at a time, each printing PASS or FAIL.
// Run through .ci/multi-instance, which makes the temporary folder and the database and removes
// them (and any process left) on exit. docs/operations.md describes the setup this tests.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '..');
const TMP = need('MULTI_TMP');
const DATABASE_URL = need('MULTI_DATABASE_URL');
const REDIS_URL = process.env.MULTI_REDIS_URL || 'redis://127.0.0.1:6379/1';
const NGINX = process.env.NGINX || '/usr/sbin/nginx';
const BASE = Number(process.env.MULTI_PORT_BASE || 4100);
// BASE + 4: the private PostgreSQL cluster .ci/multi-instance starts (unless MULTI_PG_URL is set).
const PORTS = { nginx: BASE, i1: BASE + 1, i2: BASE + 2, paystack: BASE + 3 };
const PROXY = `http://127.0.0.1:${PORTS.nginx}`;
const direct = (name) => `http://127.0.0.1:${PORTS[name]}`;

const ADMIN = { email: 'multi-admin@school.test', password: `Multi-Admin-${randomBytes(6).toString('hex')}` };
const PAYSTACK_SECRET = `sk_test_${randomBytes(20).toString('hex')}`;
const METRICS_TOKEN = randomBytes(24).toString('hex');
const SHARED_JWT_SECRET = randomBytes(32).toString('hex');
// Result-checker PINs are keyed by this (decision 043): one for every instance, or a PIN made on one fails on the other.
const SHARED_RESULT_PIN_SECRET = randomBytes(32).toString('hex');
const SHUTDOWN_DELAY_MS = 2000;
const LOGIN_LIMIT = 10;
/** Students in the import that measures how fast this machine imports (section 6). */
const IMPORT_SAMPLE = 1000;

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run .ci/multi-instance`);
  return v;
}

// ---------------------------------------------------------------- reporting

const results = [];
function check(name, ok, detail = '') {
  results.push({ name, ok });
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? `: ${detail}` : ''}`);
  return ok;
}
const info = (line) => console.log(`      ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- processes

const children = new Map();
/** Starts a process whose output goes to TMP/<name>.log; its pid is noted for the shell's clean-up. */
function start(name, command, args, env) {
  const logFile = path.join(TMP, `${name}.log`);
  const out = openSync(logFile, 'a');
  // In the temporary folder: a developer's .env in the project (main.ts reads ./.env) stays out of it.
  const child = spawn(command, args, { cwd: TMP, env, stdio: ['ignore', out, out] });
  appendFileSync(path.join(TMP, 'pids'), `${child.pid}\n`);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const proc = { name, child, logFile, exited, log: () => readFileSync(logFile, 'utf8') };
  children.set(name, proc);
  return proc;
}

async function stopAll() {
  for (const p of children.values()) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(p.name === 'nginx' ? 'SIGQUIT' : 'SIGTERM');
  }
  // A second SIGTERM ends an instance's drain wait at once.
  await sleep(200);
  for (const p of children.values())
    if (p.child.exitCode === null && p.child.signalCode === null && p.name !== 'nginx') p.child.kill('SIGTERM');
  await Promise.race([Promise.all([...children.values()].map((p) => p.exited)), sleep(5000)]);
  for (const p of children.values()) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all([...children.values()].map((p) => p.exited));
  // All gone: nothing left for the shell's clean-up to look at.
  writeFileSync(path.join(TMP, 'pids'), '');
}
// Interrupted (Ctrl-C, a CI timeout): the instances and nginx go too.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.log(`\ninterrupted by ${signal}: stopping the instances and nginx`);
    void stopAll().finally(() => process.exit(130));
  });
}

function portFree(port) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

// ---------------------------------------------------------------- HTTP helpers

async function call(base, method, url, { token, body, headers = {}, raw } = {}) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

async function signIn(base, headers = {}) {
  const res = await call(base, 'POST', '/api/admin/login/', { body: ADMIN, headers });
  if (res.status !== 200) throw new Error(`admin sign-in on ${base} answered ${res.status}: ${res.text}`);
  return res.json.data;
}

// ---------------------------------------------------------------- a local Paystack

/** The two calls the portal makes, in Paystack's documented shapes; the test marks transactions paid. */
function fakePaystack() {
  const transactions = new Map();
  const calls = { initialize: 0, verify: 0 };
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null;
    const send = (status, json) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (req.headers.authorization !== `Bearer ${PAYSTACK_SECRET}`) return send(401, { status: false, message: 'Invalid key' });
    if (req.method === 'POST' && req.url === '/transaction/initialize') {
      calls.initialize++;
      const ref = String(body.reference);
      transactions.set(ref, { status: 'ongoing', amount: Number(body.amount), currency: String(body.currency) });
      return send(200, {
        status: true,
        message: 'Authorization URL created',
        data: { authorization_url: `https://checkout.paystack.test/ac_${ref}`, access_code: `ac_${ref}`, reference: ref },
      });
    }
    const m = /^\/transaction\/verify\/(.+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && m) {
      calls.verify++;
      const ref = decodeURIComponent(m[1]);
      const tx = transactions.get(ref);
      if (!tx) return send(400, { status: false, message: 'Transaction reference not found' });
      return send(200, {
        status: true,
        message: 'Verification successful',
        data: {
          id: 4099260516,
          status: tx.status,
          reference: ref,
          amount: tx.amount,
          currency: tx.currency,
          paid_at: tx.status === 'success' ? new Date().toISOString() : null,
          channel: 'card',
        },
      });
    }
    send(404, { status: false, message: 'Not found' });
  });
  return {
    transactions,
    calls,
    listen: () => new Promise((resolve) => server.listen(PORTS.paystack, '127.0.0.1', resolve)),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------- nginx

/** The deploy file with its instance addresses and listen line replaced (each must be found once). */
function nginxConfig() {
  let conf = readFileSync(path.join(ROOT, 'deploy/nginx/portal.conf'), 'utf8');
  const swaps = [
    [/server 127\.0\.0\.1:3001 /g, `server 127.0.0.1:${PORTS.i1} `],
    [/server 127\.0\.0\.1:3002 /g, `server 127.0.0.1:${PORTS.i2} `],
    [/^(\s*)listen 80;/gm, `$1listen 127.0.0.1:${PORTS.nginx};`],
  ];
  for (const [pattern, replacement] of swaps) {
    const found = conf.match(pattern)?.length ?? 0;
    if (found !== 1) throw new Error(`deploy/nginx/portal.conf: expected ${pattern} once, found it ${found} times`);
    conf = conf.replace(pattern, replacement);
  }
  const dir = path.join(TMP, 'nginx');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'portal.conf'), conf);
  // The main context of a private nginx: its own pid, logs and buffers under TMP. As root its
  // workers stay root (they would otherwise switch to nobody, who cannot write to TMP).
  const main = `${process.getuid?.() === 0 ? 'user root root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  default_type application/octet-stream;
  log_format multi '$msec $request_method $uri $status upstream=$upstream_addr upstream_status=$upstream_status';
  access_log ${dir}/access.log multi;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/portal.conf;
}
`;
  writeFileSync(path.join(dir, 'nginx.conf'), main);
  return { dir, conf: path.join(dir, 'nginx.conf') };
}

// ---------------------------------------------------------------- the run

async function waitReady(base, proc, deadlineMs) {
  const t0 = Date.now();
  while (Date.now() - t0 < deadlineMs) {
    if (proc && proc.child.exitCode !== null) return { ok: false, why: `exited with ${proc.child.exitCode}` };
    try {
      const res = await fetch(`${base}/api/health/ready`);
      if (res.ok) return { ok: true };
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  return { ok: false, why: 'not ready in time' };
}

function instanceEnv(name) {
  const keep = Object.fromEntries(['PATH', 'HOME', 'LANG', 'TMPDIR'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]));
  return {
    ...keep,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(PORTS[name]),
    DATA_DIR: path.join(TMP, `data-${name}`),
    DATABASE_URL,
    REDIS_URL,
    // Shared by every instance, or each would refuse the others' tokens.
    JWT_SECRET: SHARED_JWT_SECRET,
    RESULT_PIN_SECRET: SHARED_RESULT_PIN_SECRET,
    PUBLIC_URL: PROXY,
    TRUST_PROXY: '1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PAYSTACK_SECRET_KEY: PAYSTACK_SECRET,
    PAYSTACK_BASE_URL: `http://127.0.0.1:${PORTS.paystack}`,
    METRICS_TOKEN,
    SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    LOGIN_RATE_LIMIT_PER_MINUTE: String(LOGIN_LIMIT),
    LOG_LEVEL: 'info',
  };
}
async function main() {
  const t0 = Date.now();
  for (const [what, port] of Object.entries(PORTS)) {
    if (!(await portFree(port))) throw new Error(`port ${port} (${what}) is taken: set MULTI_PORT_BASE to a free range of four ports`);
  }
  const db = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  // The run restarts PostgreSQL (5c): an idle client losing its connection must not end it.
  db.on('error', () => undefined);
  const paystack = fakePaystack();
  await paystack.listen();

  const nginx = nginxConfig();
  const test = spawnSync(NGINX, ['-p', nginx.dir, '-c', nginx.conf, '-e', path.join(nginx.dir, 'error.log'), '-t'], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t failed:\n${test.stderr}`);

  try {
    // ------------------------------------------------ 1. started together: ready, migrations once
    const server = ['--enable-source-maps', path.join(ROOT, 'apps/server/dist/main.js')];
    const spawnedAt = Date.now();
    const i1 = start('i1', process.execPath, server, instanceEnv('i1'));
    const i2 = start('i2', process.execPath, server, instanceEnv('i2'));
    start('nginx', NGINX, ['-p', nginx.dir, '-c', nginx.conf, '-e', path.join(nginx.dir, 'error.log'), '-g', 'daemon off;']);
    const [r1, r2] = await Promise.all([waitReady(direct('i1'), i1, 90_000), waitReady(direct('i2'), i2, 90_000)]);
    const readyMs = Date.now() - spawnedAt;
    const viaProxy = await waitReady(PROXY, null, 10_000);
    const both = check(
      'both instances, started at the same moment on one empty database, became ready (and nginx in front)',
      r1.ok && r2.ok && viaProxy.ok,
      `i1 ${r1.ok ? 'ready' : r1.why}, i2 ${r2.ok ? 'ready' : r2.why}, after ${readyMs} ms; nginx ${viaProxy.ok ? 'ready' : viaProxy.why}`,
    );
    if (!both) throw new Error('the instances did not start: nothing else can be checked');
    const waited = [i1, i2].filter((p) => p.log().includes('another instance is starting on this database')).map((p) => p.name);
    info(`start-up lock: ${waited.length ? `${waited.join(', ')} waited for the other's migrations and seed` : 'no instance had to wait'}`);

    const source = readFileSync(path.join(ROOT, 'apps/server/src/db/migrations/index.ts'), 'utf8');
    const expected = [...source.matchAll(/^\s*'(\d{4}_[a-z0-9_]+)':/gm)].map((m) => m[1]).sort();
    const applied = (await db.query('select name, count(*)::int as n from kysely_migration group by name order by name')).rows;
    const admins = (await db.query("select count(*)::int as n from users where role = 'admin'")).rows[0].n;
    check(
      'migrations ran once: the migration table has each of the build\u2019s migrations exactly once, and there is one first admin',
      expected.length > 0 &&
        JSON.stringify(applied.map((r) => r.name)) === JSON.stringify(expected) &&
        applied.every((r) => r.n === 1) &&
        admins === 1,
      `${applied.length} of ${expected.length} migrations, ${applied.filter((r) => r.n !== 1).length} duplicated; ${admins} admin(s)`,
    );

    // ------------------------------------------------ 2. probes and metrics
    const probes = [];
    for (const base of [direct('i1'), direct('i2'), PROXY]) {
      for (const url of ['/api/health/live', '/api/health/ready']) probes.push(`${(await call(base, 'GET', url)).status}`);
    }
    check(
      'liveness and readiness answer 200 on each instance and through nginx',
      probes.every((s) => s === '200'),
      probes.join(' '),
    );

    const metrics = [];
    for (const name of ['i1', 'i2']) {
      const none = await call(direct(name), 'GET', '/metrics');
      const wrong = await call(direct(name), 'GET', '/metrics', { token: randomBytes(24).toString('hex') });
      const right = await call(direct(name), 'GET', '/metrics', { token: METRICS_TOKEN });
      metrics.push({
        name,
        ok: none.status === 401 && wrong.status === 401 && right.status === 200 && right.text.includes('http_request_duration_seconds'),
        line: `${name}: none ${none.status}, wrong token ${wrong.status}, METRICS_TOKEN ${right.status}`,
      });
    }
    const proxied = await call(PROXY, 'GET', '/metrics', { token: METRICS_TOKEN });
    check(
      '/metrics answers only with METRICS_TOKEN on each instance, and never through nginx',
      metrics.every((m) => m.ok) && proxied.status === 404,
      `${metrics.map((m) => m.line).join('; ')}; nginx with the token ${proxied.status}`,
    );

    // ------------------------------------------------ 3. a session moves between instances
    const first = await signIn(direct('i1'));
    const refreshed = await call(direct('i2'), 'POST', '/api/token/refresh/', { body: { refresh: first.refresh } });
    const me = refreshed.status === 200 ? await call(PROXY, 'GET', '/api/me/', { token: refreshed.json.access }) : { status: 0 };
    // The spent refresh token replayed on the first instance: reuse is detected there, and the
    // whole session ends everywhere (both decisions live in PostgreSQL).
    const replay = await call(direct('i1'), 'POST', '/api/token/refresh/', { body: { refresh: first.refresh } });
    const after = refreshed.status === 200 ? await call(PROXY, 'GET', '/api/me/', { token: refreshed.json.access }) : { status: 0 };
    check(
      'signed in on instance 1, refreshed on instance 2, used through nginx; the old refresh token replayed on instance 1 ends the session everywhere',
      refreshed.status === 200 && me.status === 200 && replay.status === 401 && after.status === 401,
      `refresh on i2 ${refreshed.status}, /api/me/ via nginx ${me.status}, replay on i1 ${replay.status}, /api/me/ afterwards ${after.status}`,
    );

    // ------------------------------------------------ 4. sign-in limits shared
    // Attempts come from a documentation address (RFC 5737) of this run's own, sent as
    // X-Forwarded-For (TRUST_PROXY=1, as behind nginx): no other traffic shares its counters.
    const testAddress = () => `198.51.100.${1 + (randomBytes(1)[0] % 254)}`;
    const addressA = testAddress();
    let addressB = testAddress();
    while (addressB === addressA) addressB = testAddress();
    const perAddress = [];
    for (let i = 0; i < LOGIN_LIMIT + 2; i++) {
      const name = i % 2 === 0 ? 'i1' : 'i2';
      const res = await call(direct(name), 'POST', '/api/admin/login/', {
        body: { email: `nobody-${i}-${randomBytes(3).toString('hex')}@school.test`, password: 'Wrong-Password-1' },
        headers: { 'x-forwarded-for': addressA },
      });
      perAddress.push(`${name}:${res.status}`);
    }
    const firstRefused = perAddress.findIndex((s) => s.endsWith(':429')) + 1;
    check(
      `per-address sign-in limit shared through Redis: wrong passwords alternating between the instances are refused from attempt ${LOGIN_LIMIT + 1}, as on one instance`,
      firstRefused === LOGIN_LIMIT + 1 && perAddress.slice(LOGIN_LIMIT).every((s) => s.endsWith(':429')),
      `LOGIN_RATE_LIMIT_PER_MINUTE=${LOGIN_LIMIT}; ${perAddress.join(' ')}`,
    );
    const perAccount = [];
    for (let i = 0; i < 6; i++) {
      const name = i % 2 === 0 ? 'i1' : 'i2';
      // The sixth attempt has the right password: the account is blocked for this address all the same.
      const password = i < 5 ? 'Wrong-Password-1' : ADMIN.password;
      const res = await call(direct(name), 'POST', '/api/admin/login/', {
        body: { email: ADMIN.email, password },
        headers: { 'x-forwarded-for': addressB },
      });
      perAccount.push(`${name}:${res.status}`);
    }
    check(
      'per-account sign-in throttle shared through PostgreSQL: five wrong passwords across both instances block the sixth attempt, even with the right password',
      perAccount.slice(0, 5).every((s) => s.endsWith(':401')) && perAccount[5].endsWith(':429'),
      perAccount.join(' '),
    );

    // ------------------------------------------------ 5. a payment verified on one instance while its webhook lands on the other
    const admin = await signIn(PROXY);
    const session = await call(PROXY, 'POST', '/api/sessions/', { token: admin.access, body: { name: '2025/2026', is_current: true } });
    const fee = await call(PROXY, 'POST', '/api/payments/fee-schedules/', {
      token: admin.access,
      body: { student_class: 'JSS 1A', session_id: session.json?.id, term: '1st', amount: 50000, description: 'Tuition' },
    });
    const student = await call(PROXY, 'POST', '/api/students/', {
      token: admin.access,
      body: {
        first_name: 'Ngozi',
        last_name: 'Bello',
        email: 'ngozi.bello@school.test',
        phone_number: '08031234567',
        gender: 'F',
        date_of_birth: '2013-03-04',
        student_class: 'JSS 1A',
        fathers_name: 'Mr Bello',
        home_address: '1 School Road, Lagos',
      },
    });
    if (session.status !== 201 || fee.status !== 201 || student.status !== 201) {
      throw new Error(
        `setting up the payment failed: session ${session.status}, fee ${fee.status}, student ${student.status} ${student.text}`,
      );
    }
    const admission = student.json.admission_number;
    const amounts = [10000, 5000, 2500];
    const raced = [];
    for (const amount of amounts) {
      const init = await call(PROXY, 'POST', '/api/payments/initiate/', {
        token: admin.access,
        body: {
          admission_number: admission,
          full_name: 'Ngozi Bello',
          current_class: 'JSS 1A',
          current_session: '2025/2026',
          term: '1st',
          email: 'parent@school.test',
          phone_number: null,
          amount,
        },
      });
      if (init.status !== 200) throw new Error(`initiate answered ${init.status}: ${init.text}`);
      const reference = init.json.data.reference;
      // The payer pays at Paystack; then the return page's verify and Paystack's webhook arrive at once.
      paystack.transactions.get(reference).status = 'success';
      const raw = JSON.stringify({
        event: 'charge.success',
        data: { id: 302961, status: 'success', reference, amount: amount * 100, currency: 'NGN', paid_at: new Date().toISOString() },
      });
      const signature = createHmac('sha512', PAYSTACK_SECRET).update(raw).digest('hex');
      const [verify, hook] = await Promise.all([
        call(direct('i1'), 'POST', '/api/payments/verify/', { token: admin.access, body: { reference } }),
        call(direct('i2'), 'POST', '/api/payments/webhook/', { raw, headers: { 'x-paystack-signature': signature } }),
      ]);
      // Paystack delivers again when it hears nothing: the same body on the other instance is a replay.
      const again = await call(direct('i1'), 'POST', '/api/payments/webhook/', { raw, headers: { 'x-paystack-signature': signature } });
      raced.push({ reference, amount, verify, hook, again });
    }
    const refs = raced.map((r) => r.reference);
    const rows = (
      await db.query(
        `select p.reference, p.status, p.receipt_number,
                (select count(*)::int from audit_log a where a.entity = 'payment' and a.entity_id = p.reference and a.action = 'payment.successful') as credits
           from payments p where p.reference = any($1)`,
        [refs],
      )
    ).rows;
    const report = await call(PROXY, 'GET', `/api/payments/report/?class=${encodeURIComponent('JSS 1A')}&session=2025/2026`, {
      token: admin.access,
    });
    const line = report.json?.find?.((r) => r.admission_number === admission);
    const paid = amounts.reduce((a, b) => a + b, 0);
    const receipts = new Set(rows.map((r) => r.receipt_number).filter(Boolean));
    check(
      'payments verified on instance 1 while their signed webhooks land on instance 2 at the same moment are credited once each, with one receipt, and the balance is right',
      raced.every((r) => r.verify.status === 200 && r.verify.json?.status === 'success' && r.hook.status === 200) &&
        raced.every((r) => r.again.json?.outcome === 'replay') &&
        rows.length === amounts.length &&
        rows.every((r) => r.status === 'successful' && r.credits === 1 && r.receipt_number) &&
        receipts.size === amounts.length &&
        line?.amount_paid === paid &&
        line?.outstanding === 50000 - paid,
      `${raced.map((r) => `verify ${r.verify.status}/${r.verify.json?.status}, webhook ${r.hook.status}/${r.hook.json?.outcome}, redelivered ${r.again.json?.outcome}`).join('; ')}; ` +
        `${rows.length} payment rows, credits ${rows.map((r) => r.credits).join('+')}, ${receipts.size} receipts; ` +
        `report: paid ${line?.amount_paid} of 50000, outstanding ${line?.outstanding}; Paystack saw ${paystack.calls.initialize} initialize, ${paystack.calls.verify} verify`,
    );

    // ------------------------------------------------ 5b. guessing spread over addresses and instances
    // The student above gets a password; she signs in once with her admission number on instance 1
    // (her browser gets the device cookie). Then wrong passwords from 12 addresses, alternating
    // between the instances: the account's budget for unknown browsers (10, counted in PostgreSQL)
    // is shared, so the rest are refused, even with the right password; her own browser still gets in.
    const studentPassword = `Ngozi-Own-${randomBytes(4).toString('hex')}`;
    const setPassword = await call(PROXY, 'PUT', `/api/students/${encodeURIComponent(admission)}/`, {
      token: admin.access,
      body: {
        first_name: 'Ngozi',
        last_name: 'Bello',
        email: 'ngozi.bello@school.test',
        password: studentPassword,
        confirm_password: studentPassword,
      },
    });
    const studentLogin = (base, password, address, cookie) =>
      fetch(`${base}/api/student/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ email: admission.toLowerCase().replace(/-/g, ' '), password }),
      });
    const own = await studentLogin(direct('i1'), studentPassword, testAddress());
    const device = own.headers
      .getSetCookie()
      .find((c) => c.startsWith('portal_device='))
      ?.split(';')[0];
    const spread = [];
    for (let i = 0; i < 12; i++) {
      const name = i % 2 === 0 ? 'i1' : 'i2';
      const res = await studentLogin(direct(name), 'Wrong-Password-1', `203.0.113.${10 + i}`);
      spread.push(`${name}:${res.status}`);
    }
    const stranger = await studentLogin(direct('i1'), studentPassword, '203.0.113.99');
    const owner = await studentLogin(direct('i2'), studentPassword, '203.0.113.98', device);
    check(
      'guessing spread over 12 addresses and both instances: the account\u2019s budget for unknown browsers (10) is shared through PostgreSQL; then even the right password is refused without the device cookie, and the owner\u2019s browser gets in on the other instance',
      setPassword.status === 200 &&
        own.status === 200 &&
        Boolean(device) &&
        spread.slice(0, 10).every((x) => x.endsWith(':401')) &&
        spread.slice(10).every((x) => x.endsWith(':429')) &&
        stranger.status === 429 &&
        owner.status === 200,
      `password set ${setPassword.status}, own sign-in by admission number ${own.status} (device cookie ${device ? 'set' : 'missing'}); ${spread.join(' ')}; right password without the cookie ${stranger.status}, with it on i2 ${owner.status}`,
    );

    // ------------------------------------------------ 5c. PostgreSQL restarted (issue 37.9)
    // While the database is down the instances answer 503; those answers must not count as the
    // instances' failures in nginx (deploy/nginx/portal.conf: proxy_next_upstream error timeout), or
    // nginx answers 502 "no live upstreams" for up to fail_timeout after the database is back.
    if (!process.env.MULTI_PG_STOP) {
      info('PostgreSQL restart: skipped (MULTI_PG_URL names a server this run may not restart)');
    } else {
      const probes = [];
      let probing = true;
      const prober = (async () => {
        while (probing) {
          const at = Date.now();
          let status;
          try {
            status = (await call(PROXY, 'GET', '/api/sessions/', { token: admin.access })).status;
          } catch (err) {
            status = err.cause?.code ?? 'error';
          }
          probes.push({ at, status });
          await sleep(20);
        }
      })();
      await sleep(500);
      // Not spawnSync: the probes go on while pg_ctl works.
      const run = (command) =>
        new Promise((resolve) => {
          const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.on('data', (d) => (stderr += d));
          child.on('close', (status) => resolve({ status, stderr }));
        });
      const stopped = await run(process.env.MULTI_PG_STOP);
      const downAt = Date.now();
      await sleep(3000);
      const started = await run(process.env.MULTI_PG_START);
      // pg_ctl -w returns once the server accepts connections.
      const upAt = Date.now();
      await sleep(3000);
      probing = false;
      await prober;
      if (stopped.status !== 0 || started.status !== 0)
        throw new Error(`restarting PostgreSQL failed: ${stopped.stderr} ${started.stderr}`);
      const during = probes.filter((p) => p.at >= downAt && p.at < upAt);
      const after = probes.filter((p) => p.at >= upAt);
      const firstOk = after.find((p) => p.status === 200);
      const resumedMs = firstOk ? firstOk.at - upAt : null;
      const failedAfter = firstOk ? after.filter((p) => p.at > firstOk.at && p.status !== 200) : after;
      const count = (list) =>
        Object.entries(list.reduce((m, p) => ({ ...m, [p.status]: (m[p.status] ?? 0) + 1 }), {}))
          .map(([k, v]) => `${v} × ${k}`)
          .join(', ');
      check(
        'PostgreSQL stopped for 3 s and started again: requests through nginx are served again within 1 s of the database accepting connections, and none fails after (no instance was marked down for its 503s)',
        resumedMs !== null && resumedMs <= 1000 && failedAfter.length === 0,
        `while down: ${count(during) || 'no request'}; after: first 200 ${resumedMs ?? '-'} ms after the start, then ${failedAfter.length} failure(s) (${count(after)})`,
      );
    }

    // ------------------------------------------------ 6. graceful shutdown behind nginx
    // The slow request: a CSV import of students (all or nothing, one transaction). Its size is
    // measured on this machine first, so that it runs past the drain delay yet ends well within the
    // 10 s a closing instance gives its requests (main.ts), on a quiet machine as on a busy one.
    const columns =
      'first_name,last_name,email,phone_number,gender,date_of_birth,student_class,fathers_name,fathers_phone,mothers_name,mothers_phone,home_address';
    const importCsv = (from, count) =>
      `${columns}\n${Array.from(
        { length: count },
        (_, k) =>
          `Pupil,Number${from + k},pupil${from + k}@import.school.test,08031234567,F,2013-03-04,JSS 2A,Mr Number,,,,${k} School Road`,
      ).join('\n')}\n`;
    const sampleStarted = Date.now();
    const sample = await call(PROXY, 'POST', '/api/students/import/', { token: admin.access, body: { csv: importCsv(0, IMPORT_SAMPLE) } });
    const sampleMs = Date.now() - sampleStarted;
    if (sample.status !== 201) throw new Error(`the sample import answered ${sample.status}: ${sample.text.slice(0, 300)}`);
    // The import refuses a file of more than 10,000 rows (the server's limit): on a fast machine the sized import must stay under it.
    const IMPORT_MAX_ROWS = 10_000;
    const importRows = Math.max(
      IMPORT_SAMPLE,
      Math.min(IMPORT_MAX_ROWS, Math.round((IMPORT_SAMPLE * (SHUTDOWN_DELAY_MS + 2500)) / sampleMs)),
    );
    info(`an import of ${IMPORT_SAMPLE} students took ${sampleMs} ms: the in-flight import will have ${importRows}`);
    const logLengths = new Map([i1, i2].map((p) => [p.name, p.log().length]));
    const importStarted = Date.now();
    const slow = call(PROXY, 'POST', '/api/students/import/', {
      token: admin.access,
      body: { csv: importCsv(IMPORT_SAMPLE, importRows) },
    }).catch((err) => ({ status: 0, text: String(err) }));
    // Which instance nginx gave it to: the one that logs its arrival.
    let target;
    for (let i = 0; i < 400 && !target; i++) {
      target = [i1, i2].find((p) => p.log().slice(logLengths.get(p.name)).includes('"url":"/api/students/import/"'));
      if (!target) await sleep(25);
    }
    if (!target) throw new Error('the import reached neither instance');
    const other = target === i1 ? i2 : i1;

    // A stream of requests through nginx from before the SIGTERM until after the instance has gone.
    let streaming = true;
    const stream = { sent: 0, errors: [] };
    const streamer = async () => {
      const urls = ['/api/health/live', '/api/settings/', '/api/me/', '/api/sessions/'];
      for (let n = 0; streaming; n++) {
        const url = urls[n % urls.length];
        stream.sent++;
        try {
          const res = await call(PROXY, 'GET', url, { token: admin.access });
          if (res.status !== 200) stream.errors.push(`${url} ${res.status}`);
        } catch (err) {
          stream.errors.push(`${url} ${err.cause?.code ?? err.message}`);
        }
      }
    };
    const streamers = Array.from({ length: 4 }, streamer);
    await sleep(300);
    const termAt = Date.now();
    target.child.kill('SIGTERM');
    // Readiness of the draining instance, on its own port, until it stops answering.
    const readiness = [];
    for (;;) {
      try {
        const res = await fetch(`${direct(target.name)}/api/health/ready`);
        readiness.push({ at: Date.now() - termAt, status: res.status });
      } catch {
        readiness.push({ at: Date.now() - termAt, status: 'closed' });
        break;
      }
      if (Date.now() - termAt > SHUTDOWN_DELAY_MS + 15_000) break;
      await sleep(100);
    }
    const imported = await slow;
    const importDoneAt = Date.now();
    const importMs = importDoneAt - importStarted;
    const exitCode = await Promise.race([target.exited, sleep(20_000).then(() => 'still running')]);
    const exitedAfter = Date.now() - termAt;
    await sleep(1000);
    streaming = false;
    await Promise.all(streamers);

    // 200 until the signal is handled, then 503 and nothing else until the listener closes.
    const firstUnready = readiness.findIndex((r) => r.status === 503);
    const unready = readiness.slice(firstUnready, -1);
    const closed = readiness.at(-1);
    check(
      `readiness of the draining instance (${target.name}) turns 503 at once on SIGTERM and stays 503 for SHUTDOWN_DELAY_MS (${SHUTDOWN_DELAY_MS} ms)`,
      firstUnready >= 0 &&
        readiness.slice(0, firstUnready).every((r) => r.status === 200) &&
        readiness[firstUnready].at < 1500 &&
        unready.length > 0 &&
        unready.every((r) => r.status === 503) &&
        closed.status === 'closed' &&
        closed.at >= SHUTDOWN_DELAY_MS,
      `${firstUnready} answer(s) of 200 first, then 503 from ${readiness[firstUnready]?.at ?? '-'} ms to ${unready.at(-1)?.at ?? '-'} ms ` +
        `(${unready.length} answers); the listener closed at ${closed.at} ms`,
    );
    check(
      `the in-flight request (an import of ${importRows} students through nginx) completes on the draining instance, which then exits cleanly`,
      imported.status === 201 && imported.json?.created === importRows && exitCode === 0,
      `import answered ${imported.status} (${imported.json?.created ?? imported.text.slice(0, 200)} created) after ${importMs} ms, ` +
        `${importDoneAt - termAt - closed.at} ms after the listener closed; ${target.name} exited with ${exitCode} ${exitedAfter} ms after SIGTERM`,
    );
    const access = readFileSync(path.join(nginx.dir, 'access.log'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' '))
      .filter((f) => Number(f[0]) * 1000 >= termAt);
    const byUpstream = {};
    for (const f of access) {
      const up = f.slice(4).join(' ');
      byUpstream[up] = (byUpstream[up] ?? 0) + 1;
    }
    check(
      'requests streamed through nginx during the drain see no error: nginx moves them to the other instance',
      stream.sent > 0 && stream.errors.length === 0 && (await waitReady(direct(other.name), other, 1000)).ok,
      `${stream.sent} requests, ${stream.errors.length} errors${stream.errors.length ? ` (${[...new Set(stream.errors)].slice(0, 5).join(', ')})` : ''}; ` +
        `nginx since SIGTERM: ${Object.entries(byUpstream)
          .map(([k, v]) => `${v} × ${k}`)
          .join(', ')}`,
    );
    info(`instances: i1 = 127.0.0.1:${PORTS.i1}, i2 = 127.0.0.1:${PORTS.i2}; total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await stopAll();
    await paystack.close();
    await db.end();
  }
}

let crashed = false;
try {
  await main();
} catch (err) {
  crashed = true;
  console.log(`FAIL  the run stopped: ${err instanceof Error ? err.message : String(err)}`);
}
const failed = results.filter((r) => !r.ok).length;
if (crashed || failed) {
  for (const name of ['i1', 'i2']) {
    const file = path.join(TMP, `${name}.log`);
    if (!existsSync(file)) continue;
    // Its own messages, not one line per request.
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => !/"msg":"(incoming request|request completed)"/.test(l));
    console.log(`\n--- ${name} log (last lines but requests) ---\n${lines.slice(-20).join('\n')}`);
  }
  const errors = path.join(TMP, 'nginx', 'error.log');
  if (existsSync(errors))
    console.log(`\n--- nginx error log (last lines) ---\n${readFileSync(errors, 'utf8').trim().split('\n').slice(-15).join('\n')}`);
}
console.log(
  `\nmulti-instance: ${results.length - failed} of ${results.length} checks passed${crashed ? ', and the run stopped early' : ''}`,
);
process.exit(crashed || failed ? 1 : 0);
