import type { ReportCard, Term } from '@portal/domain';

/**
 * A released card of a student as the student sees it: results' `ReportCardService.card`, acting as
 * them. It is refused exactly as a signed-in student's is: 404 before release, and 403
 * `fees_outstanding` by the fee gate (results' `CardGate`, decision 042) when the school gates results
 * by fees, so a PIN check is one more way to the card under the same one rule.
 */
export type PinCards = (student: { user_id: number; admission_number: string }, sessionId: number, term: Term) => Promise<ReportCard>;

/** The card as a PDF (results' report card drawing), for GET /api/check-result/pdf/. */
export type PinCardPdf = (card: ReportCard) => Promise<Buffer>;
