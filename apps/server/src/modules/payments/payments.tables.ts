import type { ColumnType, Generated } from 'kysely';
import type { PaymentAllocation, PaymentMethod, PaymentStatus } from '@portal/domain';

/** Tables of the payments feature (migration 0004), added to the shared Database type. */
export interface PaymentsTable {
  id: Generated<number>;
  reference: string;
  student_id: number | null;
  admission_number: string;
  full_name: string;
  current_class: string;
  /** The session's name when the payment was made (the spec's field); keys use `session_id`. */
  current_session: string;
  /**
   * The session paid for (migration 0030): what statements, debtors and receipts key by, so a
   * renamed session keeps its payments. Null only for an old row whose name matched no session.
   */
  session_id: ColumnType<number | null, number | null | undefined, number | null>;
  term: string | null;
  email: string;
  phone_number: string | null;
  amount_kobo: number;
  currency: string;
  status: PaymentStatus;
  provider: string;
  provider_transaction_id: string | null;
  provider_access_code: string | null;
  /** The provider's last word on the transaction (success, failed, abandoned, amount_mismatch...). */
  provider_status: string | null;
  initiated_by: number | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
  // The bursar's office (migration 0018).
  /** 'online' for the provider's payments; offline: bank_transfer, bank_teller, cash, pos. */
  method: ColumnType<PaymentMethod, PaymentMethod | undefined, PaymentMethod>;
  bank: ColumnType<string, string | undefined, string>;
  bank_reference: ColumnType<string, string | undefined, string>;
  /**
   * bankReferenceKey(bank code, reference); null for payments without one. Unique among payments
   * not reversed (migration 0020): a reversed payment keeps it, to link the payment replacing it.
   */
  bank_reference_key: string | null;
  /** The day the money was paid (YYYY-MM-DD, the school's date); null until a payment succeeds. */
  paid_on: string | null;
  note: ColumnType<string, string | undefined, string>;
  /** R-000123 from the one receipt sequence, given when the payment succeeds (or is recorded). */
  receipt_number: string | null;
  /** A reversal: the payment it reverses (unique: one reversal per payment). */
  reversal_of: number | null;
  reason: ColumnType<string, string | undefined, string>;
  recorded_by: number | null;
  /** 1 once a reversal entry exists (migration 0020): the payment no longer holds its bank reference. */
  reversed: ColumnType<number, number | undefined, number>;
  /** The reversed payment of the same bank reference this one replaces (migration 0020). */
  replaces: ColumnType<number | null, number | null | undefined, number | null>;
  /** 'arrears_first' (default) or 'current_first': how the payment settles arrears and terms (migration 0038, decision 041). */
  allocation: ColumnType<PaymentAllocation, PaymentAllocation | undefined, PaymentAllocation>;
}

/** A bank the admin added to the domain's list (migration 0020). */
export interface BanksTable {
  code: string;
  name: string;
  /** JSON array of other names. */
  aliases: string;
  added_by: number | null;
  added_at: string;
}

/** A stored row that shared its bank reference key with an older one when 0020 computed the keys again. */
export interface BankReferenceReviewsTable {
  id: Generated<number>;
  entity: 'payment' | 'transfer_report';
  entity_id: number;
  holder_id: number;
  reference_key: string;
  found_at: string;
}

/** The teller's or transfer slip's scan of an offline payment (migration 0018). */
export interface PaymentScansTable {
  payment_id: number;
  mime: string;
  /** Base64 of the bytes. */
  data: string;
  bytes: number;
}

/** Fee items (migration 0008): several per class, session and term; they replaced fee_schedules. */
export interface FeeItemsTable {
  id: Generated<number>;
  student_class: string;
  session_id: number;
  term: string;
  name: string;
  /** feeItemKey(name): one item of a name per class, session and term. */
  name_key: string;
  amount_kobo: number;
  /** 1: part of the balance due; 0: optional (bus, uniform), shown but not owed. */
  compulsory: number;
  description: string;
  /** The day the school wants the item paid by (ISO date); NULL: when its term begins (fees-due.ts). */
  due_on: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

export interface PaymentWebhookEventsTable {
  body_hash: string;
  event: string;
  reference: string | null;
  outcome: string;
  received_at: string;
}

export interface PaymentSimulatorTransactionsTable {
  reference: string;
  access_code: string;
  amount_kobo: number;
  currency: string;
  email: string;
  callback_url: string;
  status: 'pending' | 'success' | 'failed' | 'abandoned';
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A discount or scholarship of one student for a session (migration 0019); revoked, never deleted. */
export interface FeeDiscountsTable {
  id: Generated<number>;
  student_id: number;
  session_id: number;
  /** null: every term of the session. */
  term: string | null;
  kind: string;
  basis: string;
  /** Hundredths of a percent (basis percent). */
  percent_bp: number;
  /** Kobo off each term covered (basis fixed). */
  amount_kobo: number;
  /** JSON array of fee item names; [] = every compulsory item. */
  items: string;
  reason: string;
  given_by: number | null;
  given_at: string;
  revoked_at: string | null;
  revoked_by: number | null;
  revoke_reason: ColumnType<string, string | undefined, string>;
}

/** A transfer a student reported, waiting for the bursar (migration 0019). */
export interface TransferReportsTable {
  id: Generated<number>;
  student_id: number;
  session_id: number;
  term: string | null;
  amount_kobo: number;
  method: string;
  bank: string;
  bank_reference: string;
  bank_reference_key: string;
  paid_on: string;
  note: string;
  scan_mime: string;
  /** Base64 of the slip. */
  scan_data: string;
  scan_bytes: number;
  status: ColumnType<'to_confirm' | 'confirmed' | 'rejected', 'to_confirm' | 'confirmed' | 'rejected' | undefined>;
  reported_by: number | null;
  reported_at: string;
  decided_by: number | null;
  decided_at: string | null;
  reason: ColumnType<string, string | undefined, string>;
  payment_id: number | null;
  /** bank_reference_key while waiting, null once decided (unique: one waiting report per reference). */
  waiting_key: string | null;
}

declare module '../../db/schema' {
  interface Database {
    payments: PaymentsTable;
    fee_items: FeeItemsTable;
    payment_webhook_events: PaymentWebhookEventsTable;
    payment_simulator_transactions: PaymentSimulatorTransactionsTable;
    payment_scans: PaymentScansTable;
    fee_discounts: FeeDiscountsTable;
    transfer_reports: TransferReportsTable;
    banks: BanksTable;
    bank_reference_reviews: BankReferenceReviewsTable;
  }
}
