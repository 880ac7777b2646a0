import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMISSION_TEXT_MAX, DEFAULT_ADMISSION_PAGE, GENERAL_MESSAGES, STORAGE_FULL_CODE } from '@portal/domain';
import { describeEachDatabase, signInAdmin, withTestContext, type SignedIn, type TestContext } from '../../../test/helpers';
import { isStorageFull } from '../../db/errors';
import { StorageStatus } from '../../lib/storage-status';

describe('what counts as a full disk', () => {
  it('SQLITE_FULL, PostgreSQL 53100, ENOSPC (also as a cause); nothing else', () => {
    expect(isStorageFull({ code: 'SQLITE_FULL', message: 'database or disk is full' })).toBe(true);
    expect(isStorageFull({ code: '53100', message: 'could not extend file' })).toBe(true);
    expect(isStorageFull({ code: 'ENOSPC', message: 'no space left on device, write' })).toBe(true);
    expect(isStorageFull(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ENOSPC' }) }))).toBe(true);
    expect(isStorageFull({ code: 'SQLITE_BUSY' })).toBe(false);
    expect(isStorageFull({ code: '23505' })).toBe(false);
    expect(isStorageFull(undefined)).toBe(false);
  });

  it('readiness reports it until no write has failed for the hold time', () => {
    let now = 1000;
    const s = new StorageStatus(() => now, 30_000);
    expect(s.full).toBe(false);
    expect(s.reportFull()).toBe(true);
    expect(s.reportFull()).toBe(false);
    now += 29_999;
    expect(s.full).toBe(true);
    now += 1;
    expect(s.full).toBe(false);
    expect(s.reportFull()).toBe(true);
  });
});

/**
 * A write that fails for lack of space (issue 37.11): 503 with a clear message, readiness 503 with
 * `storage: 'full'`, and one log line naming the cause (never "cannot rollback – no transaction is
 * active"). SQLite: the database may not grow (max_page_count); PostgreSQL: a trigger raising
 * disk_full (53100), as a full disk would.
 */
describeEachDatabase('a full disk', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  const lines: string[] = [];
  withTestContext(
    dialect,
    async (c) => {
      ctx = c;
      admin = await signInAdmin(ctx);
    },
    { logLevel: 'info' },
    { loggerStream: { write: (line: string) => void lines.push(line) } },
  );

  const big = 'x'.repeat(ADMISSION_TEXT_MAX);
  const save = (n: number) =>
    ctx.app.inject({
      method: 'PUT',
      url: '/api/admission/',
      headers: admin.auth,
      payload: {
        ...DEFAULT_ADMISSION_PAGE,
        how_to_apply: `${n}${big}`.slice(0, ADMISSION_TEXT_MAX),
        requirements: big,
        dates: big,
        fees: big,
      },
    });

  it('answers the write 503 with a clear message, reports the storage failing, and logs the cause once', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    if (dialect === 'sqlite') {
      const pages = Number(ctx.handle.sqlite!.pragma('page_count', { simple: true }));
      ctx.handle.sqlite!.pragma(`max_page_count = ${pages}`);
    } else {
      await sql`create function no_space() returns trigger language plpgsql as $$
        begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`.execute(ctx.handle.db);
      await sql`create trigger no_space before insert or update on settings for each row execute function no_space()`.execute(
        ctx.handle.db,
      );
    }
    lines.length = 0;
    try {
      for (const n of [1, 2]) {
        const res = await save(n);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ detail: GENERAL_MESSAGES.storageFull, code: STORAGE_FULL_CODE });
      }
      const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', storage: 'full' });
      // Reads still work.
      expect((await ctx.app.inject({ method: 'GET', url: '/api/admission/' })).statusCode).toBe(200);
      expect(lines.filter((l) => l.includes('storage_full'))).toHaveLength(1);
      expect(lines.join('\n')).not.toMatch(/cannot rollback|no transaction is active|unhandled error/);
    } finally {
      if (dialect === 'sqlite') ctx.handle.sqlite!.pragma('max_page_count = 1073741823');
      else await sql`drop trigger no_space on settings`.execute(ctx.handle.db);
    }
  });
});
