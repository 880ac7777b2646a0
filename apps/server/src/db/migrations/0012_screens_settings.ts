import { sql, type Kysely } from 'kysely';
import type { DialectMigration } from './util';

/**
 * School settings: the old default admission address `/admission` was a
 * page that never existed, so a school that saved its settings unchanged kept a link to a 404.
 * It is cleared (the home page hides the link until an address is set); every other setting and
 * any address a school chose itself is kept. The new `time_zone` setting needs no column: the
 * settings are one JSON row and a missing key reads as the default (Africa/Lagos).
 */
export const screensSettings: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    const rows = await sql<{ key: string; value: string }>`select key, value from settings where key = 'school'`.execute(db);
    for (const row of rows.rows) {
      let value: Record<string, unknown>;
      try {
        value = JSON.parse(row.value) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (value.admission_url !== '/admission') continue;
      value.admission_url = '';
      await sql`update settings set value = ${JSON.stringify(value)} where key = ${row.key}`.execute(db);
    }
  },
});
