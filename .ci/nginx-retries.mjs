// What nginx (deploy/nginx/portal.conf, the very file) retries on the other instance, against two
// stand-in instances (issue 37.9, 37.10): an instance's 503 (its database down) is passed on and
// counts as no failure; a PUT that reached an instance which then dropped the connection is never
// sent to the other (it may have been applied); a GET is; a PUT's body survives the @write hop.
// Run by .ci/multi-instance before the instances start; alone: node .ci/nginx-retries.mjs
// (NGINX, MULTI_PORT_BASE as there: uses BASE+10 .. BASE+12).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const NGINX = process.env.NGINX || '/usr/sbin/nginx';
const BASE = Number(process.env.MULTI_PORT_BASE || 4100) + 10;
const PORTS = { nginx: BASE, a: BASE + 1, b: BASE + 2 };
const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-retries.'));

let conf = readFileSync(path.join(ROOT, 'deploy/nginx/portal.conf'), 'utf8')
  .replace(/server 127\.0\.0\.1:3001 /, `server 127.0.0.1:${PORTS.a} `)
  .replace(/server 127\.0\.0\.1:3002 /, `server 127.0.0.1:${PORTS.b} `)
  .replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${PORTS.nginx};`);
writeFileSync(path.join(dir, 'portal.conf'), conf);
writeFileSync(
  path.join(dir, 'nginx.conf'),
  `${process.getuid?.() === 0 ? 'user root root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/cb; proxy_temp_path ${dir}/px; fastcgi_temp_path ${dir}/fc; uwsgi_temp_path ${dir}/uw; scgi_temp_path ${dir}/sc;
  include ${dir}/portal.conf;
}
`,
);

// Instance a drops the connection of any /drop request after reading it; both answer 503 to /down.
const seen = { a: [], b: [] };
const servers = Object.keys(seen).map((name) =>
  http
    .createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen[name].push(`${req.method} ${req.url} ${body}`);
        if (req.url === '/drop' && name === 'a') return req.socket.destroy();
        if (req.url === '/down') {
          res.statusCode = 503;
          return res.end('{"detail":"Service temporarily unavailable."}');
        }
        res.end(`${name} ${req.method} ${body}`);
      });
    })
    .listen(PORTS[name], '127.0.0.1'),
);

const results = [];
const check = (name, ok, detail) => {
  results.push(ok);
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}\n      ${detail}`);
};
const call = async (method, url, body) => {
  const r = await fetch(`http://127.0.0.1:${PORTS.nginx}${url}`, { method, body });
  return { status: r.status, text: await r.text() };
};

const nginxArgs = ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')];
// nginx reads an NGINX variable as sockets inherited from an upgrade: never hand it ours (the binary's path).
const env = { ...process.env };
delete env.NGINX;
const tested = spawnSync(NGINX, [...nginxArgs, '-t'], { encoding: 'utf8', env });
const server = spawn(NGINX, [...nginxArgs, '-g', 'daemon off;'], { stdio: 'ignore', env });
try {
  if (tested.status !== 0) throw new Error(`nginx -t failed: ${tested.stderr}`);
  await new Promise((r) => setTimeout(r, 500));
  const down = [];
  for (let i = 0; i < 6; i++) down.push((await call('GET', '/down')).status);
  const after = [];
  for (let i = 0; i < 4; i++) after.push((await call('GET', '/ok')).text.split(' ')[0]);
  check(
    "an instance's 503 reaches the client once and takes no instance out of the pool",
    down.every((s) => s === 503) && seen.a.filter((l) => l.startsWith('GET /down')).length === 3 && new Set(after).size === 2,
    `6 × GET /down: ${down.join(' ')} (a saw ${seen.a.filter((l) => l.startsWith('GET /down')).length}, b ${seen.b.filter((l) => l.startsWith('GET /down')).length}); then GET /ok served by ${after.join(' ')}`,
  );
  const puts = [];
  for (let i = 0; i < 2; i++) puts.push(await call('PUT', '/drop', `row-${i}`));
  const putOnB = seen.b.filter((l) => l.startsWith('PUT /drop'));
  const putOnA = seen.a.filter((l) => l.startsWith('PUT /drop'));
  check(
    'a PUT that reached an instance which then dropped the connection is not sent to the other one (it may have been applied)',
    puts.some((p) => p.status === 502) &&
      putOnA.length + putOnB.length === 2 &&
      putOnA.every((l) => !putOnB.some((m) => m.endsWith(l.split(' ').at(-1)))),
    `answers ${puts.map((p) => p.status).join(', ')}; a saw [${putOnA.join('; ')}], b saw [${putOnB.join('; ')}]`,
  );
  const put = await call('PUT', '/ok', 'the body');
  check(
    'a PUT keeps its body on its way through @write',
    put.status === 200 && put.text.endsWith('PUT the body'),
    `${put.status} ${put.text}`,
  );
  const get = await call('GET', '/drop');
  check(
    'a GET whose instance dropped the connection is served by the other',
    get.status === 200 && get.text.startsWith('b '),
    `${get.status} ${get.text}`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => (server.exitCode === null ? server.on('exit', r) : r()));
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
}
const failed = results.filter((ok) => !ok).length;
console.log(failed ? `${failed} check(s) FAILED` : `all ${results.length} checks passed`);
process.exit(failed ? 1 : 0);
