import type { Generated } from 'kysely';

/** The notices tables (migration 0033, docs/decisions/036) added to the shared Database type. */

export interface NoticeEventsTable {
  id: Generated<number>;
  /** A NoticeKind (domain `NOTICE_KINDS`). */
  kind: string;
  /** Unique: the same event recorded twice is one row ("results_released:<session>:<term>:<arm>"). */
  dedupe_key: string;
  /** JSON: what the composer needs to find the recipients and fill the template. */
  payload: string;
  created_at: string;
  /** Set once the composer wrote the event's messages. */
  expanded_at: string | null;
}

export interface NoticeMessagesTable {
  id: Generated<number>;
  event_id: number | null;
  blast_id: number | null;
  kind: string;
  /** 'sms' | 'email' | 'in_app' */
  channel: string;
  recipient_user_id: number | null;
  /** "u:<user id>" or the address: one message per event, channel and recipient. */
  recipient_key: string;
  to_address: string;
  subject: Generated<string>;
  body: string;
  urgent: Generated<number>;
  /** A NoticeStatus (domain `NOTICE_STATUSES`). */
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_by: string | null;
  claimed_until: string | null;
  provider: string | null;
  provider_message_id: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
}

export interface NoticePreferencesTable {
  user_id: number;
  kind: string;
  opted_out: number;
  updated_at: string;
}

export interface NoticeSettingsTable {
  /** Always 1: one row. */
  id: number;
  /** JSON of the domain's `NoticeSettings`. */
  value: string;
  updated_by: number | null;
  updated_at: string;
}

declare module '../../db/schema' {
  interface Database {
    notice_events: NoticeEventsTable;
    notice_messages: NoticeMessagesTable;
    notice_preferences: NoticePreferencesTable;
    notice_settings: NoticeSettingsTable;
  }
}
