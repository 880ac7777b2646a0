import type { Generated } from 'kysely';

/**
 * The notice content tables (migration 0034, decision record 037) added to the shared Database type:
 * the school's edited templates, the fee-reminder days and the admin's blasts.
 */

export interface NoticeTemplatesTable {
  kind: string;
  /** 'sms' | 'email' */
  channel: string;
  subject: string | null;
  body: string;
  updated_at: string;
  updated_by: number | null;
}

export interface NoticeReminderDaysTable {
  days: number;
  updated_at: string;
  updated_by: number | null;
}

export interface NoticeBlastsTable {
  id: Generated<number>;
  created_by: number | null;
  /** JSON: {kind, arm?, level?} */
  audience: string;
  /** JSON array of channels */
  channels: string;
  subject: string | null;
  body: string;
  /** 'sending' | 'paused' | 'cancelled' | 'done' */
  status: string;
  recipients: Generated<number>;
  created_at: string;
  finished_at: string | null;
}

declare module '../../db/schema' {
  interface Database {
    notice_templates: NoticeTemplatesTable;
    notice_reminder_days: NoticeReminderDaysTable;
    notice_blasts: NoticeBlastsTable;
  }
}
