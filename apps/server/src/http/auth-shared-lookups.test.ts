import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { TokenService } from '../lib/tokens';
import { registerAuth, withSharedGuardLookups, type GuardAccountRow } from './auth';

/**
 * The server's page renderer makes several in-process API calls as one user for one page; inside
 * `withSharedGuardLookups` the guard reads that account once (docs/decisions/049), and still decides
 * every call from it: role, token version, disabled account, ended sign-in session.
 */
describe('the guard’s account lookup shared within one rendered page', () => {
  const tokens = new TokenService('a-test-secret-a-test-secret-a-test-secret-0123', 900);
  const claims = { userId: 7, role: 'student' as const, tokenVersion: 1, familyId: 'fam-1' };

  async function appWith(row: () => Partial<GuardAccountRow>) {
    const lookups: number[] = [];
    const app = Fastify();
    registerAuth(
      app,
      {
        guardLookup: (userId) => {
          lookups.push(userId);
          return Promise.resolve([
            { id: userId, role: 'student', email: null, disabled: 0, must_change_password: 0, token_version: 1, live: 1, ...row() },
          ]);
        },
      },
      tokens,
    );
    app.get('/api/a/', { config: { auth: ['student'] } }, () => Promise.resolve({ a: 1 }));
    app.get('/api/b/', { config: { auth: ['student'] } }, () => Promise.resolve({ b: 1 }));
    app.get('/api/admin/', { config: { auth: ['admin'] } }, () => Promise.resolve({ admin: 1 }));
    await app.ready();
    const authorization = `Bearer ${await tokens.signAccess(claims)}`;
    const get = (url: string) => app.inject({ method: 'GET', url, headers: { authorization } }).then((r) => r.statusCode);
    return { app, lookups, get };
  }

  it('one lookup for a page’s calls, one per call outside it', async () => {
    const { app, lookups, get } = await appWith(() => ({}));
    expect(await withSharedGuardLookups(async () => [await get('/api/a/'), await get('/api/b/'), await get('/api/a/')])).toEqual([200, 200, 200]);
    expect(lookups).toHaveLength(1);
    expect([await get('/api/a/'), await get('/api/b/')]).toEqual([200, 200]);
    expect(lookups).toHaveLength(3);
    // Concurrent calls of one page share the one read too.
    await withSharedGuardLookups(() => Promise.all([get('/api/a/'), get('/api/b/')]));
    expect(lookups).toHaveLength(4);
    await app.close();
  });

  it('every call is still decided by the guard: another role’s route, an ended session, an old token', async () => {
    let row: Partial<GuardAccountRow> = {};
    const { app, get } = await appWith(() => row);
    expect(await withSharedGuardLookups(async () => [await get('/api/a/'), await get('/api/admin/')])).toEqual([200, 403]);
    row = { live: 0 };
    expect(await withSharedGuardLookups(async () => [await get('/api/a/'), await get('/api/b/')])).toEqual([401, 401]);
    row = { token_version: 2 };
    expect(await withSharedGuardLookups(() => get('/api/a/'))).toBe(401);
    row = { disabled: 1 };
    expect(await withSharedGuardLookups(() => get('/api/b/'))).toBe(401);
    await app.close();
  });
});
