import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERAL_MESSAGES } from '@portal/domain';
import { createTestContext, describeEachDatabase, signInAdmin, type TestContext } from '../helpers';

/** Strict CSP, HSTS over HTTPS only, no secrets in error responses or in the repository. */

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((p) => p[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describeEachDatabase('headers', (dialect) => {
  let plain: TestContext;
  let https: TestContext;
  beforeAll(async () => {
    plain = await createTestContext(dialect);
    https = await createTestContext(dialect, { publicUrl: 'https://portal.example.sch.ng' });
  });
  afterAll(async () => {
    await plain.close();
    await https.close();
  });

  it('sends a strict CSP: scripts only from self, no eval, no inline script, no framing, no plugins', async () => {
    for (const url of ['/api/health', '/api/settings/', '/', '/login']) {
      const res = await plain.app.inject({ method: 'GET', url });
      const csp = res.headers['content-security-policy'] as string;
      expect(csp, url).toBeTruthy();
      const d = directives(csp);
      expect(d.get('script-src')).toEqual(["'self'"]);
      expect(d.get('default-src')).toEqual(["'self'"]);
      expect(d.get('object-src')).toEqual(["'none'"]);
      expect(d.get('frame-ancestors')).toEqual(["'none'"]);
      expect(d.get('base-uri')).toEqual(["'self'"]);
      expect(d.get('form-action')).toEqual(["'self'"]);
      expect(csp).not.toContain('unsafe-eval');
      expect(d.get('script-src')).not.toContain("'unsafe-inline'");
      expect(csp).not.toMatch(/(^|\s)\*(\s|;|$)/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('sends HSTS only when the public URL is https', async () => {
    const secure = await https.app.inject({ method: 'GET', url: '/api/health' });
    const hsts = secure.headers['strict-transport-security'] as string;
    expect(hsts).toMatch(/max-age=(\d+)/);
    expect(Number(/max-age=(\d+)/.exec(hsts)![1])).toBeGreaterThanOrEqual(31_536_000);
    expect(hsts).toContain('includeSubDomains');
    const insecure = await plain.app.inject({ method: 'GET', url: '/api/health' });
    expect(insecure.headers['strict-transport-security']).toBeUndefined();
  });

  it('error responses never carry stack traces, SQL or driver messages', async () => {
    const admin = await signInAdmin(plain);
    const bodies: string[] = [];
    bodies.push((await plain.app.inject({ method: 'GET', url: '/api/nope/' })).body);
    bodies.push((await plain.app.inject({ method: 'GET', url: '/api/me/' })).body);
    bodies.push((await plain.app.inject({ method: 'GET', url: '/api/students/STU-9999/', headers: admin.auth })).body);
    bodies.push(
      (
        await plain.app.inject({
          method: 'POST',
          url: '/api/admin/login/',
          headers: { 'content-type': 'application/json' },
          payload: '{"email":',
        })
      ).body,
    );
    bodies.push(
      (
        await plain.app.inject({
          method: 'POST',
          url: '/api/students/',
          headers: { ...admin.auth, 'content-type': 'text/xml' },
          payload: '<x/>',
        })
      ).body,
    );
    // A real internal error: the settings table is gone.
    await sql`drop table settings`.execute(plain.handle.db);
    // DDL is no write the reference cache hears (decision 047): the settings must come from the database.
    plain.app.referenceCache.clear();
    const broken = await plain.app.inject({ method: 'GET', url: '/api/settings/' });
    expect(broken.statusCode).toBe(500);
    expect(broken.json()).toEqual({ detail: GENERAL_MESSAGES.serverError });
    bodies.push(broken.body);
    for (const body of bodies) {
      expect(body).not.toMatch(/\bat .+\.(ts|js):\d+/);
      expect(body).not.toMatch(/stack|SQLITE|sqlite_|relation "|select |insert into|no such table|kysely|node_modules/i);
    }
  });
});

describe('no secrets in the repository', () => {
  const root = path.resolve(import.meta.dirname, '../../../..');
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

  it('tracks no database, key, .env or JWT secret file', () => {
    const bad = files.filter(
      (f) =>
        /(^|\/)\.env$/.test(f) || /\.(db|sqlite|sqlite3|pem|key|p12|pfx)$/.test(f) || /(^|\/)jwt-secret$/.test(f) || f.startsWith('data/'),
    );
    expect(bad).toEqual([]);
  });

  it('contains no live-looking keys or private keys in any text file', () => {
    const patterns = [
      /sk_live_[0-9a-zA-Z]{10,}/,
      /sk_test_[0-9a-f]{30,}/,
      /-----BEGIN (RSA |EC |OPENSSH )?PRIVATE KEY-----/,
      /AKIA[0-9A-Z]{16}/,
      /postgres(ql)?:\/\/[^:\s/]+:[^@\s]{6,}@(?!127\.0\.0\.1|localhost|host)/,
    ];
    const hits: string[] = [];
    for (const f of files) {
      if (/(^|\/)(node_modules|dist)\//.test(f) || /package-lock\.json$/.test(f)) continue;
      let text: string;
      try {
        if (statSync(path.join(root, f)).size > 2_000_000) continue;
        text = readFileSync(path.join(root, f), 'utf8');
      } catch {
        continue;
      }
      // Tests use made-up Paystack test keys against a local fake: only a key outside tests is a finding.
      const isTest = /\.test\.ts$/.test(f);
      for (const p of patterns) if (p.test(text) && !(isTest && p.source.startsWith('sk_test_'))) hits.push(`${f}: ${p.source}`);
    }
    expect(hits).toEqual([]);
  });
});
