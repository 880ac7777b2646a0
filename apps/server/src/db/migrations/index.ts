import type { Migration, MigrationProvider } from 'kysely';
import { foundation } from './0001_foundation';
import { people } from './0002_people';
import { results } from './0003_results';
import { payments } from './0004_payments';
import { indexes } from './0005_indexes';
import { screensSettings } from './0012_screens_settings';
import type { Dialect, DialectMigration } from './util';

/** The ordered list of migrations; names never change once released. */
const MIGRATIONS: Record<string, DialectMigration> = {
  '0001_foundation': foundation,
  '0002_people': people,
  '0003_results': results,
  '0004_payments': payments,
  '0005_indexes': indexes,
  '0012_screens_settings': screensSettings,
};

export class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: Dialect) {}
  getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(MIGRATIONS)) out[name] = m(this.dialect);
    return Promise.resolve(out);
  }
}
