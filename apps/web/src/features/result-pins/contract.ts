import type {
  CheckResultOptions,
  CheckResultResponse,
  ResultPinBatch,
  ResultPinBatchDetail,
  ResultPinFilter,
  ResultPinList,
  ResultPinRow,
} from '@portal/domain/result-pins';

/**
 * The shapes of the PIN API (CONTRACT.md §6) as the screens read them: the pins module's
 * (packages/domain/src/result-pins.ts). A batch in the list may come without its counts.
 */
export type PinBatch = ResultPinBatch & Partial<Pick<ResultPinBatchDetail, 'sold' | 'used' | 'unused' | 'exhausted'>>;
export type PinRow = ResultPinRow;
export type PinPage = ResultPinList;
export type PinFilter = ResultPinFilter;
export type CheckOptions = CheckResultOptions;
export type CheckAnswer = CheckResultResponse;
export { RESULT_PIN_PAGE_SIZE as PIN_PAGE_SIZE } from '@portal/domain/result-pins';

/** The body of a new batch as the form sends it (the server's schema reads it: resultPinBatchCreateSchema). */
export interface BatchCreate {
  session_id: number;
  term: ResultPinBatch['term'];
  count: number;
  uses?: number;
}

/** Cards marked sold: the serials, the price per card in naira, and the buyer. */
export interface SoldBody {
  serials: string[];
  price: number;
  sold_to?: string;
}

/** The body of a check: what the parent typed (the server reads the PIN's digits and the number's key). */
export interface CheckBody {
  admission_number: string;
  pin: string;
  session_id: number;
  term: string;
}

/** The fee gate's refusal code (CONTRACT.md §5). */
export const FEES_OUTSTANDING_CODE = 'fees_outstanding';

/** The fee gate's refusal (CONTRACT.md §5), naira. */
export interface FeesOutstanding {
  detail: string;
  code: typeof FEES_OUTSTANDING_CODE;
  owed: number;
  required: number;
  paid: number;
}
