import { describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_SETTINGS, type ReportSettings } from '@portal/domain';
import { migrateToLatest } from '../index';
import * as upgrade from '../../../test/migrations';
import { describeEachDatabase } from '../../../test/helpers';
import { createSession } from '../factories';
import { SettingsRepository } from '../../modules/settings/settings.repository';

const cleanups = upgrade.cleanupsAfterEach();

const custom: ReportSettings = {
  ...DEFAULT_REPORT_SETTINGS,
  traits: { affective: [{ id: 'punctuality', name: 'Timekeeping' }], psychomotor: DEFAULT_REPORT_SETTINGS.traits.psychomotor },
  promotion: { ...DEFAULT_REPORT_SETTINGS.promotion, pass_mark: 75 },
};

describe('migration 0047 on a database made by the previous release (SQLite fixture)', () => {
  it('keeps every row and gives the fixture’s earlier sessions the settings their cards showed', async () => {
    const { handle, before } = await upgrade.previousRelease(cleanups);
    await upgrade.migrateKeepingRows(handle, before);
    const sessions = await handle.db.selectFrom('academic_sessions').select(['id', 'name', 'is_current']).orderBy('name').execute();
    const kept = await handle.db.selectFrom('session_report_settings').select('session_id').execute();
    const open = [...sessions].sort((a, b) => b.is_current - a.is_current || b.name.localeCompare(a.name))[0];
    expect(kept).toHaveLength(1);
    expect(kept.map((k) => k.session_id).sort()).toEqual(
      sessions
        .filter((s) => open && s.name < open.name)
        .map((s) => s.id)
        .sort(),
    );
  });
});

describeEachDatabase('migration 0047 from 0046', (dialect) => {
  it('keeps today’s settings as every earlier session’s, none for the current and later ones, and no card changes', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0046_card_change_notices', cleanups);
    const older = await createSession(handle.db, '2023/2024');
    const last = await createSession(handle.db, '2024/2025');
    const current = await createSession(handle.db, '2025/2026', true);
    const ahead = await createSession(handle.db, '2026/2027');
    await new SettingsRepository(handle.db).putReport(custom);
    await migrateToLatest(handle);

    const rows = await handle.db.selectFrom('session_report_settings').select(['session_id', 'value']).orderBy('session_id').execute();
    expect(rows.map((r) => r.session_id)).toEqual([older.id, last.id]);
    const settings = new SettingsRepository(handle.db);
    for (const s of [older, last, current, ahead]) expect(await settings.reportOf(s.id)).toEqual(custom);
    // Today's change reaches the current and later sessions' cards, not the earlier ones'.
    await new SettingsRepository(handle.db).putReport(DEFAULT_REPORT_SETTINGS);
    expect(await settings.reportOf(last.id)).toEqual(custom);
    expect(await settings.reportOf(current.id)).toEqual(DEFAULT_REPORT_SETTINGS);
    expect(await settings.reportOf(ahead.id)).toEqual(DEFAULT_REPORT_SETTINGS);

    if (dialect !== 'postgres') return;
    const heard = await upgrade.tableChangesHeard(
      () => new SettingsRepository(handle.db).putSessionReport(last.id, DEFAULT_REPORT_SETTINGS),
      (h) => h.length > 0,
    );
    expect(heard).toContain(`${handle.pgSchema!}.session_report_settings`);
  });

  it('a school that never saved its settings: earlier sessions keep the defaults their cards showed', async () => {
    const handle = await upgrade.databaseAtMigration(dialect, '0046_card_change_notices', cleanups);
    const last = await createSession(handle.db, '2024/2025');
    await createSession(handle.db, '2025/2026', true);
    await migrateToLatest(handle);
    const settings = new SettingsRepository(handle.db);
    await new SettingsRepository(handle.db).putReport(custom);
    expect(await settings.reportOf(last.id)).toEqual(DEFAULT_REPORT_SETTINGS);
  });
});
