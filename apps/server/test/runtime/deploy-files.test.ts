import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * compose.yaml and the Dockerfile cannot run here (no container engine on these machines), so this
 * keeps them consistent with what does run: `.ci/multi-instance` (two compiled instances on
 * PostgreSQL and Redis behind nginx with deploy/nginx/portal.conf), the CI's Node version and the
 * server's own probes. A setting the multi-instance test gives its instances and compose does not,
 * a health check on another path, an upstream address nginx cannot reach: each fails here.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  build?: unknown;
  image?: string;
  environment?: Record<string, string | number>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  network_mode?: string;
  volumes?: string[];
  stop_grace_period?: string;
}
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const services = compose.services;
const instances = Object.entries(services).filter(([, s]) => s.build !== undefined);
const env = (s: Service) => Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v)]));

/** The settings `.ci/multi-instance.mjs` gives each instance (its `instanceEnv`), by name. */
function multiInstanceSettings(): string[] {
  const source = read('.ci/multi-instance.mjs');
  const body = /function instanceEnv\(name\) \{([\s\S]*?)\n\}/.exec(source)?.[1];
  if (!body) throw new Error('.ci/multi-instance.mjs: function instanceEnv(name) not found');
  // `NAME: value` and the shorthand `NAME,` (a constant of the same name).
  const keys = [...body.matchAll(/^\s+([A-Z][A-Z0-9_]*)[:,]/gm)].map((m) => m[1]!);
  // `keep`: the few variables of the test runner's own environment passed through.
  const kept = /\[([^\]]*)\]\.filter\(\(k\) => process\.env\[k\]\)/.exec(body)?.[1] ?? '';
  return [...keys, ...[...kept.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]!)];
}

/**
 * What only the test run needs: the runner's own PATH and friends, the fake Paystack's address, and
 * a low sign-in limit the test reaches on purpose. Everything else .ci/multi-instance sets, a real
 * deployment sets too.
 */
const TEST_ONLY = new Set(['PATH', 'HOME', 'LANG', 'TMPDIR', 'PAYSTACK_BASE_URL', 'LOGIN_RATE_LIMIT_PER_MINUTE']);

/** `upstream portal { server HOST:PORT ... }` in nginx's file. */
function upstreams(): string[] {
  const conf = read('deploy/nginx/portal.conf');
  const block = /upstream portal \{([\s\S]*?)\n\}/.exec(conf)?.[1] ?? '';
  return [...block.matchAll(/^\s*server ([\d.]+:\d+)/gm)].map((m) => m[1]!);
}

describe('compose.yaml: the services .ci/multi-instance runs', () => {
  it('has PostgreSQL, Redis, nginx and two instances of the image built here', () => {
    expect(Object.keys(services).sort()).toEqual(['nginx', 'portal1', 'portal2', 'postgres', 'redis']);
    expect(instances.map(([name]) => name)).toEqual(['portal1', 'portal2']);
    expect(services.postgres!.image).toMatch(/^postgres:\d+/);
    expect(services.redis!.image).toMatch(/^redis:\d+/);
    expect(services.nginx!.image).toMatch(/^nginx:/);
  });

  it('gives every instance each setting .ci/multi-instance gives its instances', () => {
    const needed = multiInstanceSettings().filter((k) => !TEST_ONLY.has(k));
    // The parse found the function's settings (a rename of instanceEnv would make this vacuous).
    expect(needed).toEqual(
      expect.arrayContaining(['NODE_ENV', 'DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'RESULT_PIN_SECRET', 'TRUST_PROXY', 'PUBLIC_URL']),
    );
    for (const [name, s] of instances) {
      const missing = needed.filter((k) => !(k in env(s)));
      expect(missing, `${name} lacks what .ci/multi-instance sets`).toEqual([]);
    }
  });

  it('runs the instances as .ci/multi-instance does: production, behind a trusted proxy, on PostgreSQL and Redis, with one shared signing key', () => {
    const [a, b] = instances.map(([, s]) => env(s));
    // An address with a `${VARIABLE}` in it, as compose will fill it in.
    const url = (v: string | undefined) => new URL((v ?? '').replace(/\$\{[^}]*\}/g, 'filled-in'));
    for (const e of [a!, b!]) {
      expect(e.NODE_ENV).toBe('production');
      expect(e.TRUST_PROXY).toBe('1');
      expect(url(e.DATABASE_URL).protocol).toBe('postgres:');
      expect(url(e.DATABASE_URL).hostname).toBe('postgres');
      expect(url(e.REDIS_URL).hostname).toBe('redis');
      expect(Number(e.SHUTDOWN_DELAY_MS)).toBeGreaterThan(0);
    }
    // Shared, or each instance refuses the other's tokens and PINs.
    for (const k of ['JWT_SECRET', 'RESULT_PIN_SECRET', 'DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL']) expect(a![k], k).toBe(b![k]);
    // Each its own data folder (generated files, backups).
    expect(instances.map(([, s]) => s.volumes?.find((v) => v.endsWith(':/data')))).toEqual(['portal1-data:/data', 'portal2-data:/data']);
  });

  it('takes every secret from the environment, required where the portal cannot start without it', () => {
    for (const [name, s] of [...instances, ['postgres', services.postgres!] as const]) {
      for (const [k, v] of Object.entries(env(s))) {
        if (/SECRET|PASSWORD|TOKEN/.test(k)) expect(v, `${name}.${k}`).toMatch(/^\$\{[A-Z_]+:[?-][^}]*\}$/);
      }
    }
    for (const k of ['JWT_SECRET', 'RESULT_PIN_SECRET', 'PUBLIC_URL']) expect(env(instances[0]![1])[k]).toMatch(/^\$\{[A-Z_]+:\?/);
    expect(env(instances[0]![1]).DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
  });

  it("puts the instances where deploy/nginx/portal.conf's upstream sends requests", () => {
    const addresses = instances.map(([, s]) => `${env(s).HOST}:${env(s).PORT}`);
    expect(addresses).toEqual(upstreams());
    expect(upstreams()).toHaveLength(2);
    // 127.0.0.1 of nginx's own network namespace: the instances share it.
    for (const [, s] of instances) expect(s.network_mode).toBe('service:nginx');
    expect(services.nginx!.volumes).toContain('./deploy/nginx/portal.conf:/etc/nginx/conf.d/default.conf:ro');
  });

  it('checks health as .ci/multi-instance waits for it: readiness on each instance, PostgreSQL and Redis healthy before the instances start', () => {
    expect(read('.ci/multi-instance.mjs')).toContain('/api/health/ready');
    for (const [name, s] of instances) {
      expect(s.healthcheck?.test.join(' '), name).toContain(`http://127.0.0.1:${env(s).PORT}/api/health/ready`);
      expect(s.depends_on?.postgres?.condition).toBe('service_healthy');
      expect(s.depends_on?.redis?.condition).toBe('service_healthy');
      // Draining (SHUTDOWN_DELAY_MS), then up to 10 s for requests in flight (main.ts), before a SIGKILL.
      expect(Number.parseInt(s.stop_grace_period ?? '10', 10)).toBeGreaterThanOrEqual(Number(env(s).SHUTDOWN_DELAY_MS) / 1000 + 10);
    }
    expect(services.postgres!.healthcheck?.test).toContain('pg_isready');
    expect(services.redis!.healthcheck?.test.join(' ')).toContain('redis-cli ping');
    expect(Object.keys(compose.volumes).sort()).toEqual(['portal1-data', 'portal2-data', 'postgres-data']);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const instructions = dockerfile
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));

  it('builds in stages on Node 24 slim, at the version CI runs the whole suite on', () => {
    const version = /^ARG NODE_VERSION=(\S+)$/m.exec(dockerfile)?.[1];
    expect(version).toBe(/^NODE24_VERSION=(\S+)$/m.exec(read('.ci/run'))?.[1]);
    expect(version).toMatch(/^24\./);
    const froms = instructions.filter((l) => l.startsWith('FROM '));
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) expect(f).toMatch(/^FROM node:\$\{NODE_VERSION\}-\w+-slim\b/);
  });

  it('runs the compiled server as a non-root user, in production, with a health check on readiness', () => {
    const last = instructions.slice(instructions.findLastIndex((l) => l.startsWith('FROM ')));
    expect(last.find((l) => l.startsWith('USER '))).toBe('USER node');
    expect(last.join('\n')).toMatch(/^ENV NODE_ENV=production\b/m);
    expect(last.find((l) => l.startsWith('HEALTHCHECK '))).toContain('/api/health/ready');
    expect(last.find((l) => l.startsWith('CMD '))).toBe('CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]');
    // Only the server's runtime dependencies (no tsx, no dev tools) in the image.
    expect(dockerfile).toContain('npm ci --omit=dev --workspace @portal/server');
  });
});
