import { formatNaira, koboToNaira } from './money';
export type { CardFeeRelease } from './result-responses';

/**
 * Results gated by fees (issue 34 item 7, docs/decisions/042-results-gated-by-fees.md): when the
 * school's `results_fee_gate` setting is on, a student (or a parent acting for the child) sees a
 * term's report card only once the term's compulsory fees that have fallen due are paid to the
 * school's percentage (`results_fee_gate_percent`, 100 = in full). Staff and the admin are never
 * gated; the admin or the bursar may open one card regardless, with a reason.
 */

/** The refusal's `code` (403), beside `detail`, `owed`, `required` and `paid` (naira). */
export const FEES_OUTSTANDING_CODE = 'fees_outstanding';

export const FEE_GATE_DEFAULT_PERCENT = 100;

export const FEE_GATE_MESSAGES = {
  /** The refusal's `detail`: what is owed for the term and what opens the card. */
  outstanding: (o: { owed: number; required: number; paid: number; termLabel: string }) =>
    o.required > 0 && o.paid < o.required && o.owed > 0
      ? `This report card opens once the ${o.termLabel} fees are paid. Paid ${formatNaira(o.paid)} of the ${formatNaira(
          o.required,
        )} needed; ${formatNaira(o.owed)} is still owed.`
      : `This report card opens once the ${o.termLabel} fees are paid.`,
  gatedTitle: 'Fees to pay before this report card opens',
  payToOpen: 'Pay now',
  afterPay: 'The report card opens as soon as the payment is confirmed.',
  reasonRequired: 'Give a reason for opening this card',
  reasonTooLong: 'Reason must be at most 300 characters',
  alreadyReleased: 'This card is already open for this student',
  released: 'Card opened',
  releaseTitle: 'Open this card regardless of fees',
  releasesTitle: 'Cards opened regardless of fees',
  noReleases: 'No card has been opened regardless of fees for this term.',
  percentRange: 'Percentage must be a whole number from 1 to 100',
  settingLabel: 'Withhold report cards until the term’s fees are paid',
  settingHint:
    'Students and parents see a term’s card only when its compulsory fees that have fallen due are paid. Staff are never affected.',
  percentLabel: 'Percentage of the term’s fees that opens the card',
} as const;

/** A term's compulsory fees fallen due and the money allocated to them, in kobo (payments' answer). */
export interface TermFeeStanding {
  charged_kobo: number;
  paid_kobo: number;
}

/** The rule's verdict, in kobo. */
export interface FeeGateVerdict {
  open: boolean;
  owed_kobo: number;
  required_kobo: number;
  paid_kobo: number;
}

/**
 * THE rule: the card opens when the money allocated to the term reaches `percent` of the term's
 * fees fallen due (rounded up to the kobo). A term with nothing fallen due is open.
 */
export function feeGateVerdict(standing: TermFeeStanding, percent: number): FeeGateVerdict {
  const charged = Math.max(0, Math.trunc(standing.charged_kobo));
  const paid = Math.min(charged, Math.max(0, Math.trunc(standing.paid_kobo)));
  const p = Math.min(100, Math.max(1, Math.trunc(percent)));
  const required = Math.ceil((charged * p) / 100);
  return { open: paid >= required, owed_kobo: charged - paid, required_kobo: required, paid_kobo: paid };
}

/** The 403 body of a gated card (naira). */
export interface FeesOutstandingBody {
  detail: string;
  code: typeof FEES_OUTSTANDING_CODE;
  owed: number;
  required: number;
  paid: number;
}

export function feesOutstandingBody(v: FeeGateVerdict, termLabel: string): FeesOutstandingBody {
  const owed = koboToNaira(v.owed_kobo);
  const required = koboToNaira(v.required_kobo);
  const paid = koboToNaira(v.paid_kobo);
  return { detail: FEE_GATE_MESSAGES.outstanding({ owed, required, paid, termLabel }), code: FEES_OUTSTANDING_CODE, owed, required, paid };
}

/** Whether an API error body is the fee gate's refusal. */
export function isFeesOutstanding(body: unknown): body is FeesOutstandingBody {
  return !!body && typeof body === 'object' && (body as { code?: unknown }).code === FEES_OUTSTANDING_CODE;
}

/** The admin's and the bursar's list of cards opened regardless of fees: its menu entry and route. */
export const FEE_RELEASES_SCREEN = {
  to: '/fee-releases',
  label: 'Cards Opened Regardless of Fees',
  description: 'Open a student’s report card with a reason; see who opened which',
} as const;
