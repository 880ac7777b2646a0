import { DEFAULT_NOTICE_SETTINGS, noticeSettingsSchema, type NoticeSettings, type NoticeSettingsView } from '@portal/domain';
import { writeAudit } from '../../db/audit';
import type { NoticeChannels } from './channels';
import type { NoticesRepository } from './notices.repository';

/**
 * The school's notice settings (sender ID, quiet hours, daily cap, unit cost, send rate): one row
 * of `notice_settings`, the defaults until the admin saves them; the sender ID's default is the
 * environment's SMS_SENDER_ID. Which channels are configured comes from the environment only.
 */
export class NoticeSettingsService {
  constructor(
    private readonly repo: NoticesRepository,
    private readonly channels: NoticeChannels,
    private readonly clock: () => number = Date.now,
  ) {}

  private defaults(): NoticeSettings {
    const sender = this.channels.defaultSenderId;
    return { ...DEFAULT_NOTICE_SETTINGS, ...(sender && /^[A-Za-z][A-Za-z0-9 ]{2,10}$/.test(sender) ? { sender_id: sender } : {}) };
  }

  async get(): Promise<NoticeSettings> {
    const stored = await this.repo.readSettings();
    if (!stored) return this.defaults();
    try {
      const parsed = noticeSettingsSchema.safeParse({ ...this.defaults(), ...(JSON.parse(stored) as object) });
      return parsed.success ? parsed.data : this.defaults();
    } catch {
      return this.defaults();
    }
  }

  async view(): Promise<NoticeSettingsView> {
    return { ...(await this.get()), channels: this.channels.describe() };
  }

  async put(actorUserId: number, input: NoticeSettings): Promise<NoticeSettingsView> {
    const at = new Date(this.clock()).toISOString();
    await this.repo.transaction(async (trx) => {
      const before = await this.repo.readSettings(trx);
      await this.repo.writeSettings(trx, JSON.stringify(input), actorUserId, at);
      await writeAudit(trx, {
        actorUserId,
        action: 'update',
        entity: 'settings',
        entityId: 'notices',
        before: before ? (JSON.parse(before) as unknown) : null,
        after: input,
      });
    });
    return this.view();
  }
}
