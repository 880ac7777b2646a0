/**
 * Words of the notices screens that the server never says: titles, labels, hints, toasts and empty
 * states. The kinds' and statuses' names, the server's messages and the SMS length rules are the
 * notices modules' own (notices.ts, notice-templates.ts).
 */

/** Each notices screen: its route and the title its tile and heading share. */
export const NOTICE_SCREENS = {
  inbox: { to: '/notices', label: 'Notices', description: 'Messages from the school' },
  preferences: { to: '/notice-preferences', label: 'Notice Preferences', description: 'Which notices you receive' },
  settings: { to: '/notice-settings', label: 'Notice Settings', description: 'Sender ID, quiet hours, daily cap, SMS cost' },
  templates: { to: '/notice-templates', label: 'Notice Templates', description: 'SMS and email wording for each kind' },
  blasts: { to: '/notice-blasts', label: 'Send a Notice', description: 'To all parents, an arm, a level or debtors' },
  messages: { to: '/notice-messages', label: 'Message Log', description: 'Every SMS, email and in-app notice sent' },
} as const;

export const NOTICE_SCREEN_LABELS = {
  unreadBadge: (n: number) => `${n > 99 ? '99+' : n}`,
  inboxLink: (n: number) => (n ? `Notices, ${n} unread` : 'Notices'),
  unread: 'Unread',
  markRead: 'Mark as read',
  markReadOf: (subject: string) => `Mark as read: ${subject}`,
  unreadCount: (n: number) => (n ? `${n} unread` : 'All read'),
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  // Preferences
  receive: 'Send me these notices',
  savePreferences: 'Save preferences',
  // Settings
  senderId: 'SMS sender ID',
  senderIdHint: '3 to 11 letters or digits, as registered with the SMS provider.',
  quietStart: 'Quiet hours start',
  quietEnd: 'Quiet hours end',
  quietHint: 'No SMS in these hours (school time zone) unless urgent.',
  dailyCap: 'Most SMS a parent gets in a day',
  unitCost: 'Cost of one SMS unit (₦)',
  sendRate: 'SMS sent per minute',
  channels: 'Channels',
  channelsHint: 'Set up on the server (environment); shown here only.',
  smsChannel: 'SMS',
  emailChannel: 'Email',
  configured: (provider?: string | null) => `Configured${provider ? ` (${provider})` : ''}`,
  notConfigured: 'Not configured',
  saveSettings: 'Save settings',
  reminders: 'Fees overdue reminders',
  reminderDays: 'Days after fees fall due',
  reminderDaysHint: 'Debtors get a reminder on each of these days, e.g. 7, 14, 30.',
  saveReminders: 'Save reminder days',
  // Templates
  kind: 'Kind',
  smsBody: 'SMS text',
  emailSubject: 'Email subject',
  emailBody: 'Email text',
  placeholders: 'Placeholders you may use',
  saveTemplate: 'Save template',
  resetTemplate: 'Back to the default wording',
  preview: 'As a parent reads it (sample names):',
  smsCount: (characters: number, encoding: string, units: number) =>
    `${characters} character${characters === 1 ? '' : 's'} · ${encoding} · ${units} SMS unit${units === 1 ? '' : 's'}`,
  // Blasts
  newBlast: 'New notice',
  audience: 'Send to',
  audienceAll: 'All parents',
  audienceArm: "An arm's parents",
  audienceLevel: "A level's parents",
  audienceDebtors: 'Parents of debtors',
  arm: 'Arm',
  level: 'Level',
  chooseLevel: 'Select level',
  channelSms: 'SMS',
  channelEmail: 'Email',
  channelInApp: 'In the portal',
  channelsLegend: 'Send by',
  subject: 'Subject (email and in the portal)',
  body: 'Message',
  estimate: 'Estimate',
  estimateTitle: 'Estimate',
  recipients: 'Recipients',
  unitsPerMessage: 'SMS units a message',
  totalUnits: 'SMS units in all',
  cost: 'Cost',
  send: 'Send',
  confirmSend: (recipients: number, cost: string) =>
    `Send this notice to ${recipients} recipient${recipients === 1 ? '' : 's'} for about ${cost}?`,
  confirmSendButton: 'Yes, send it',
  estimateAgain: 'The message changed: estimate again before sending.',
  pastBlasts: 'Notices sent',
  noBlasts: 'No notices sent yet.',
  status: 'Status',
  sentOn: 'Started',
  open: 'Open',
  progress: 'Progress',
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel sending',
  confirmCancel: 'Stop this notice? Messages not yet sent will not be sent.',
  confirmCancelButton: 'Yes, stop it',
  keep: 'Keep sending',
  backToBlasts: '← All notices',
  // Log
  filterStatus: 'Status',
  filterKind: 'Kind',
  any: 'Any',
  filter: 'Show',
  to: 'To',
  channel: 'Channel',
  attempts: 'Tries',
  when: 'Queued',
  error: 'Last error',
  noMessages: 'No messages match.',
} as const;

/** What a blast's counts are called on its progress screen. */
export const BLAST_COUNT_LABELS = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  skipped: 'Skipped',
  held: 'Waiting',
  cancelled: 'Cancelled',
} as const;

export const BLAST_STATUS_LABELS = {
  sending: 'Sending',
  paused: 'Paused',
  cancelled: 'Cancelled',
  done: 'Done',
} as const;

export const CHANNEL_LABELS = { sms: 'SMS', email: 'Email', in_app: 'In the portal' } as const;

export const NOTICE_SCREEN_MESSAGES = {
  inboxFailed: 'Could not load your notices. Please try again.',
  inboxEmpty: 'No notices yet.',
  markReadFailed: 'Could not mark the notice as read. Please try again.',
  preferencesFailed: 'Could not load your notice preferences. Please try again.',
  preferencesSaved: 'Preferences saved.',
  preferencesSaveFailed: 'Could not save your preferences. Please try again.',
  settingsFailed: 'Could not load the notice settings. Please try again.',
  settingsSaved: 'Notice settings saved.',
  settingsSaveFailed: 'Could not save the notice settings. Please try again.',
  remindersFailed: 'Could not load the reminder days. Please try again.',
  templatesFailed: 'Could not load the templates. Please try again.',
  templateSaveFailed: 'Could not save the template. Please check it and try again.',
  estimateFailed: 'Could not estimate this notice. Please check it and try again.',
  sendFailed: 'Could not send this notice. Please try again.',
  blastsFailed: 'Could not load the notices sent. Please try again.',
  blastFailed: 'Could not load this notice. Please try again.',
  blastNotFound: 'This notice was not found.',
  blastActionFailed: 'Could not change this notice. Please try again.',
  messagesFailed: 'Could not load the message log. Please try again.',
} as const;
