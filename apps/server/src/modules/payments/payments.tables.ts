import type { Generated } from 'kysely';
import type { PaymentStatus } from '@portal/domain';

/** Tables of the payments feature (migration 0004), added to the shared Database type. */
export interface PaymentsTable {
  id: Generated<number>;
  reference: string;
  student_id: number | null;
  admission_number: string;
  full_name: string;
  current_class: string;
  current_session: string;
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

declare module '../../db/schema' {
  interface Database {
    payments: PaymentsTable;
    fee_items: FeeItemsTable;
    payment_webhook_events: PaymentWebhookEventsTable;
    payment_simulator_transactions: PaymentSimulatorTransactionsTable;
  }
}
