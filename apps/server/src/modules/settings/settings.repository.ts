import type { Conn } from '../../db/index';
import { DEFAULT_SCHOOL_SETTINGS, schoolSettingsSchema, type SchoolSettings } from '@portal/domain';

const KEY = 'school';

export class SettingsRepository {
  constructor(private readonly db: Conn) {}

  async get(): Promise<SchoolSettings> {
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
    if (!row) return DEFAULT_SCHOOL_SETTINGS;
    const parsed = schoolSettingsSchema.safeParse({ ...DEFAULT_SCHOOL_SETTINGS, ...(JSON.parse(row.value) as object) });
    return parsed.success ? parsed.data : DEFAULT_SCHOOL_SETTINGS;
  }

  async put(settings: SchoolSettings): Promise<void> {
    const value = JSON.stringify(settings);
    await this.db
      .insertInto('settings')
      .values({ key: KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
