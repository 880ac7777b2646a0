import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { DEFAULT_SCHOOL_SETTINGS } from '@portal/domain';
import { withTestContext, describeEachDatabase, signInAdmin, type TestContext } from '../../../test/helpers';

describeEachDatabase('school settings are written and audited in one transaction', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));

  it('a failed audit write leaves the settings as they were; a good write leaves one audit row', async () => {
    const admin = await signInAdmin(ctx);
    const put = (school_name: string) =>
      ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: admin.auth, payload: { ...DEFAULT_SCHOOL_SETTINGS, school_name } });
    expect((await put('Before College')).statusCode).toBe(200);

    await sql`alter table audit_log rename to audit_log_away`.execute(ctx.handle.db);
    try {
      expect((await put('Half Written College')).statusCode).toBe(500);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(ctx.handle.db);
    }
    expect((await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json().school_name).toBe('Before College');

    expect((await put('After College')).statusCode).toBe(200);
    const rows = await ctx.handle.db.selectFrom('audit_log').select('after').where('entity', '=', 'settings').execute();
    expect(rows.map((r) => JSON.parse(r.after ?? '{}').school_name)).toEqual(['Before College', 'After College']);
  });
});
