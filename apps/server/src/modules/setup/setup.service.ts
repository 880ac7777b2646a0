import { SETUP_MESSAGES, SETUP_STEP_IDS, type SetupChecklist } from '@portal/domain';
import { conflict } from '../../http/errors';
import type { SettingsService } from '../settings/settings.service';
import type { SetupRepository } from './setup.repository';

/**
 * The admin's first-run checklist: which of the set-up steps the school's data shows
 * done. Two statements whatever the size of the school: the facts, and whether it was hidden.
 */
export class SetupService {
  constructor(
    private readonly repo: SetupRepository,
    private readonly settings: SettingsService,
  ) {}

  async checklist(): Promise<SetupChecklist> {
    const [facts, dismissed] = await Promise.all([this.repo.facts(), this.settings.setupDismissed()]);
    const steps = SETUP_STEP_IDS.map((id) => ({ id, done: facts[id] }));
    return { steps, complete: steps.every((s) => s.done), dismissed };
  }

  /** Hides the checklist for every admin; refused while a step is still open. */
  async dismiss(actorUserId: number): Promise<SetupChecklist> {
    const list = await this.checklist();
    if (!list.complete) throw conflict(SETUP_MESSAGES.notComplete);
    if (!list.dismissed) await this.settings.dismissSetup(actorUserId);
    return { ...list, dismissed: true };
  }
}
