import type { NoticeChannel, SmsProviderName } from '@portal/domain';
import type { NoticesConfig } from '../../config';
import { FakeEmail, SmtpEmail, type EmailAdapter } from './email.channel';
import { AfricasTalkingSms, FakeSmsProvider, TermiiSms, type SmsAdapter } from './sms.channel';

/** The configured channels: null is off (production until configured). In-app is always on. */
export interface NoticeChannels {
  sms: SmsAdapter | null;
  email: EmailAdapter | null;
  /** SMS_SENDER_ID: the sender ID until the admin saves one. */
  defaultSenderId?: string;
  describe(): { sms: { configured: boolean; provider: SmsProviderName | null }; email: { configured: boolean } };
  /** Whether a channel whose outcome is unknown may be sent again (its provider recognises a repeat). */
  resends(channel: NoticeChannel): boolean;
  close(): void;
}

function smsAdapterFor(sms: NonNullable<NoticesConfig['sms']>): SmsAdapter {
  switch (sms.provider) {
    case 'termii':
      return new TermiiSms(sms.apiKey!, sms.baseUrl);
    case 'africastalking':
      return new AfricasTalkingSms(sms.apiKey!, sms.username!, sms.baseUrl);
    case 'fake':
      return new FakeSmsProvider();
  }
}

/** The channels of a configuration (config.ts reads the environment; secrets stay inside the adapters). */
export function noticeChannelsFor(
  config: NoticesConfig,
  over: { sms?: SmsAdapter | null; email?: EmailAdapter | null } = {},
): NoticeChannels {
  const sms = over.sms !== undefined ? over.sms : config.sms ? smsAdapterFor(config.sms) : null;
  const email =
    over.email !== undefined
      ? over.email
      : config.email?.transport === 'smtp'
        ? new SmtpEmail(config.email.smtpUrl, config.email.from)
        : config.email
          ? new FakeEmail(config.email.from)
          : null;
  return {
    sms,
    email,
    defaultSenderId: config.sms?.senderId,
    describe: () => ({ sms: { configured: !!sms, provider: sms?.name ?? null }, email: { configured: !!email } }),
    resends: (channel) => (channel === 'sms' ? !!sms?.dedupesByReference : channel === 'email' ? !!email?.dedupesByReference : true),
    close: () => {
      if (email instanceof SmtpEmail) email.close();
    },
  };
}
