import type { SchoolSettings } from '@portal/domain';
import type { DB } from '../../db/index';
import { badRequest } from '../../http/errors';
import { writeAudit } from '../../lib/audit';
import { normaliseLogo } from './logo';
import type { SettingsRepository } from './settings.repository';

/** School settings: the logo is checked and normalised once here, on upload (issue 10 item 13). */
export class SettingsService {
  constructor(
    private readonly db: DB,
    private readonly repo: SettingsRepository,
  ) {}

  get(): Promise<SchoolSettings> {
    return this.repo.get();
  }

  async update(actorUserId: number, input: SchoolSettings): Promise<SchoolSettings> {
    const before = await this.repo.get();
    // An unchanged logo is not decoded again: it was normalised when it was stored.
    let logo = input.logo;
    if (logo !== before.logo) {
      const result = normaliseLogo(logo);
      if (!result.ok) throw badRequest({ logo: [result.message] });
      logo = result.logo;
    }
    const settings = { ...input, logo };
    await this.repo.put(settings);
    await writeAudit(this.db, {
      actorUserId,
      action: 'update',
      entity: 'settings',
      entityId: 'school',
      before: { ...before, logo: before.logo ? '[image]' : '' },
      after: { ...settings, logo: settings.logo ? '[image]' : '' },
    });
    return settings;
  }
}
