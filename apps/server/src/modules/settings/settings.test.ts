import { expect, it } from 'vitest';
import { DEFAULT_SCHOOL_SETTINGS } from '@portal/domain';
import { withTestContext, describeEachDatabase, signInAdmin, type TestContext } from '../../../test/helpers';
import { screensSettings } from '../../db/migrations/0012_screens_settings';

describeEachDatabase('school settings: time zone and admission link', (dialect) => {
  let ctx: TestContext;
  withTestContext(dialect, (c) => (ctx = c));

  const settingsNow = async () => (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json();
  /** The school's settings row written straight to the table, as an older release left it. */
  const storeSettingsRow = (value: Record<string, unknown>) =>
    ctx.handle.db
      .updateTable('settings')
      .set({ value: JSON.stringify(value) })
      .where('key', '=', 'school')
      .execute();
  const storedSettings = async () =>
    JSON.parse((await ctx.handle.db.selectFrom('settings').select('value').where('key', '=', 'school').executeTakeFirstOrThrow()).value);

  it('has no admission link and the Africa/Lagos time zone out of the box', async () => {
    expect(await settingsNow()).toMatchObject({ admission_url: '', time_zone: 'Africa/Lagos' });
  });

  it('stores a valid time zone, refuses an unknown one, and reads an older settings row as Africa/Lagos', async () => {
    const admin = await signInAdmin(ctx);
    const { time_zone: _omit, ...older } = DEFAULT_SCHOOL_SETTINGS;
    const put = (payload: object) => ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: admin.auth, payload });
    const kept = await put(older);
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await settingsNow()).time_zone).toBe('Africa/Lagos');

    const bad = await put({ ...DEFAULT_SCHOOL_SETTINGS, time_zone: 'Lagos/Nowhere' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().time_zone[0]).toMatch(/Unknown time zone/);

    const ok = await put({ ...DEFAULT_SCHOOL_SETTINGS, time_zone: 'Europe/London' });
    expect(ok.statusCode).toBe(200);
    expect((await settingsNow()).time_zone).toBe('Europe/London');
  });

  it('migration 0012 clears the old default /admission link and keeps every other setting', async () => {
    const old = { ...DEFAULT_SCHOOL_SETTINGS, school_name: 'Kept College', admission_url: '/admission' } as Record<string, unknown>;
    delete old.time_zone;
    await storeSettingsRow(old);
    await screensSettings(dialect).up(ctx.handle.db as never);
    expect(await storedSettings()).toMatchObject({ school_name: 'Kept College', admission_url: '' });

    await storeSettingsRow({ ...old, admission_url: 'https://kept.school/apply' });
    await screensSettings(dialect).up(ctx.handle.db as never);
    expect((await storedSettings()).admission_url).toBe('https://kept.school/apply');
  });
});
