import type { ReportCard } from '@portal/domain/report-cards';
import type { PinState } from '@portal/domain/result-pin-screens';

/**
 * The shapes of the PIN API (CONTRACT.md §6) as the screens read them. The pins module's schemas
 * (packages/domain) are the source; these name only the fields the screens use.
 */
export type BatchTerm = '1st' | '2nd' | '3rd' | null;

export interface PinBatch {
  id: number;
  session_id: number;
  session_name?: string;
  term: BatchTerm;
  count: number;
  uses: number;
  created_at: string;
  created_by: string | null;
  /** The printable copy is kept (encrypted) until the batch is sealed. */
  printable: boolean;
  sold?: number;
  used?: number;
  unused?: number;
  exhausted?: number;
}

export interface BatchCreate {
  session_id: number;
  term: BatchTerm;
  count: number;
  uses?: number;
}

export interface SoldBody {
  serials: string[];
  price: number;
  sold_to?: string;
}

export interface PinRow {
  serial: string;
  state: PinState;
  uses: number;
  uses_left: number;
  bound_admission_number: string | null;
  sold_at: string | null;
  sold_by: string | null;
  price: number | null;
}

export interface PinPage {
  count: number;
  results: PinRow[];
}

/** The page size of a batch's cards (the server's). */
export const PIN_PAGE_SIZE = 50;

export type { CheckOptions } from '../../lib/check-result';

export interface CheckBody {
  admission_number: string;
  pin: string;
  session_id: number;
  term: string;
}

export interface CheckAnswer {
  card: ReportCard;
  uses_left: number;
  pdf_token: string;
}

/** The fee gate's refusal (CONTRACT.md §5), naira. */
export interface FeesOutstanding {
  detail: string;
  code: 'fees_outstanding';
  owed: number;
  required: number;
  paid: number;
}
