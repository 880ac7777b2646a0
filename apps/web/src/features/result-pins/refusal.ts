import { CHECK_RESULT_CODES, RESULT_PIN_MESSAGES as PM } from '@portal/domain/result-pins';
import { CHECK_REFUSALS, RESULT_PIN_SCREEN_MESSAGES as M } from '@portal/domain/result-pin-screens';
import { ApiError } from '../../lib/api-client';
import { errorCode } from '../../lib/errors';
import { FEES_OUTSTANDING_CODE, type FeesOutstanding } from './contract';

/** What the check page says when a check is refused: a title, the words, and the fee gate's figures. */
export interface Refusal {
  title?: string;
  text: string;
  fees?: FeesOutstanding;
  tone: 'error' | 'warning' | 'info';
}

/** The check's refusal as the parent reads it: the server's words first, else the screen's for its code or status. */
export function refusalOf(err: unknown): Refusal {
  if (!(err instanceof ApiError)) return { text: M.checkFailed, tone: 'error' };
  const code = errorCode(err);
  if (err.status === 403 && code === FEES_OUTSTANDING_CODE) {
    const fees = err.data as FeesOutstanding;
    return { title: M.feesTitle, text: err.detail ?? M.fees(fees.owed), fees, tone: 'warning' };
  }
  if (err.status === 429) {
    return { title: M.throttledTitle, text: err.detail ?? M.throttled, tone: 'warning' };
  }
  const known = code ? CHECK_REFUSALS[code] : undefined;
  if (known) {
    const tone = code === CHECK_RESULT_CODES.notReleased || code === CHECK_RESULT_CODES.disabled ? 'info' : 'error';
    return { title: known.title, text: err.detail ?? known.text, tone };
  }
  if (err.status === 404 || (err.status === 400 && !Object.keys(err.fieldErrors).length)) {
    return { title: M.wrongPinTitle, text: err.detail ?? err.nonFieldError ?? PM.wrongPinOrNumber, tone: 'error' };
  }
  if (err.status === 0) return { text: M.checkFailed, tone: 'error' };
  return { text: err.detail ?? M.checkFailed, tone: 'error' };
}
