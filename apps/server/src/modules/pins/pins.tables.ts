import type { Generated } from 'kysely';

/** The result-checker PIN tables (migration 0040, decision record 043) added to the shared Database type. */

export interface ResultPinBatchesTable {
  id: Generated<number>;
  session_id: number;
  /** '1st' | '2nd' | '3rd'; null: any term of the session. */
  term: string | null;
  count: number;
  uses: number;
  created_at: string;
  created_by: number | null;
  sealed_at: string | null;
  sealed_by: number | null;
}

export interface ResultPinsTable {
  id: Generated<number>;
  batch_id: number;
  serial: string;
  /** hex HMAC-SHA256 of the PIN under the server's PIN secret. */
  pin_hash: string;
  /** AES-256-GCM ciphertext of the PIN until the batch is sealed. */
  printable: string | null;
  max_uses: number;
  uses: Generated<number>;
  student_id: number | null;
  first_used_at: string | null;
  last_used_at: string | null;
  sold_at: string | null;
  sold_by: number | null;
  sold_to: string | null;
  price_kobo: number | null;
}

export interface ResultPinUsesTable {
  id: Generated<number>;
  pin_id: number | null;
  admission_key: string;
  student_id: number | null;
  session_id: number | null;
  term: string | null;
  ip: string;
  result: string;
  created_at: string;
}

declare module '../../db/schema' {
  interface Database {
    result_pin_batches: ResultPinBatchesTable;
    result_pins: ResultPinsTable;
    result_pin_uses: ResultPinUsesTable;
  }
}
