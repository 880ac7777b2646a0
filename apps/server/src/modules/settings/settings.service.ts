import type { ReportSettings, SchoolSettings } from '@portal/domain';
import type { DB } from '../../db/index';
import { badRequest } from '../../http/errors';
import { writeAudit } from '../../db/audit';
import { normaliseLogo } from './logo';
import { SettingsRepository } from './settings.repository';

const withoutImage = (s: SchoolSettings) => ({ ...s, logo: s.logo ? '[image]' : '' });

/**
 * School settings: read (checked against the schema) only through SettingsRepository; written here,
 * the row and its audit entry in one transaction. The logo is checked and normalised once, on upload.
 */
export class SettingsService {
  constructor(
    private readonly db: DB,
    private readonly repo: SettingsRepository = new SettingsRepository(db),
  ) {}

  get(): Promise<SchoolSettings> {
    return this.repo.get();
  }

  /** The report card settings (defaults until the admin saves them). Written by `updateReport`. */
  reportSettings(): Promise<ReportSettings> {
    return this.repo.getReport();
  }

  async update(actorUserId: number, input: SchoolSettings): Promise<SchoolSettings> {
    const stored = await this.repo.get();
    // An unchanged logo is not decoded again: it was normalised when it was stored. Decoding runs
    // before the transaction opens, so no lock is held while an image is shrunk.
    let logo = input.logo;
    if (logo !== stored.logo) {
      const result = normaliseLogo(logo);
      if (!result.ok) throw badRequest({ logo: [result.message] });
      logo = result.logo;
    }
    const settings = { ...input, logo };
    await this.db.transaction().execute(async (trx) => {
      const repo = new SettingsRepository(trx);
      const before = await repo.get();
      await repo.put(settings);
      await writeAudit(trx, {
        actorUserId,
        action: 'update',
        entity: 'settings',
        entityId: 'school',
        before: withoutImage(before),
        after: withoutImage(settings),
      });
    });
    return settings;
  }
}

/** The settings service over a database, for other modules (which may not reach into this module's repository). */
export function settingsService(db: DB): SettingsService {
  return new SettingsService(db);
}
