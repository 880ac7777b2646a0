import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SCHOOL_SETTINGS } from '@portal/domain';
import { describeEachDatabase, createTestContext, signInAdmin, type TestContext } from '../../../test/helpers';
import { screensSettings } from '../../db/migrations/0012_screens_settings';

describeEachDatabase('school settings: time zone and admission link', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
  });
  afterAll(() => ctx.close());

  it('has no admission link and the Africa/Lagos time zone out of the box', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/settings/' });
    expect(res.json()).toMatchObject({ admission_url: '', time_zone: 'Africa/Lagos' });
  });

  it('stores a valid time zone, refuses an unknown one, and reads an older settings row as Africa/Lagos', async () => {
    const admin = await signInAdmin(ctx);
    const { time_zone: _omit, ...older } = DEFAULT_SCHOOL_SETTINGS;
    const kept = await ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: admin.auth, payload: older });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json().time_zone).toBe('Africa/Lagos');

    const bad = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings/',
      headers: admin.auth,
      payload: { ...DEFAULT_SCHOOL_SETTINGS, time_zone: 'Lagos/Nowhere' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().time_zone[0]).toMatch(/Unknown time zone/);

    const ok = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings/',
      headers: admin.auth,
      payload: { ...DEFAULT_SCHOOL_SETTINGS, time_zone: 'Europe/London' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json().time_zone).toBe('Europe/London');
  });

  it('migration 0012 clears the old default /admission link and keeps every other setting', async () => {
    const db = ctx.handle.db;
    const old = { ...DEFAULT_SCHOOL_SETTINGS, school_name: 'Kept College', admission_url: '/admission' } as Record<string, unknown>;
    delete old.time_zone;
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify(old) })
      .where('key', '=', 'school')
      .execute();
    await screensSettings(dialect).up(db as never);
    const row = await db.selectFrom('settings').select('value').where('key', '=', 'school').executeTakeFirstOrThrow();
    expect(JSON.parse(row.value)).toMatchObject({ school_name: 'Kept College', admission_url: '' });

    const own = { ...old, admission_url: 'https://kept.school/apply' };
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify(own) })
      .where('key', '=', 'school')
      .execute();
    await screensSettings(dialect).up(db as never);
    const again = await db.selectFrom('settings').select('value').where('key', '=', 'school').executeTakeFirstOrThrow();
    expect(JSON.parse(again.value).admission_url).toBe('https://kept.school/apply');
  });
});
