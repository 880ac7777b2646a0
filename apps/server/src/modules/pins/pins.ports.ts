import type { ReportCard, Role, Term } from '@portal/domain';

/**
 * The fee gate (issue 34 item 7, the gate helper's `CardGate.assertMaySee`): refuses a gated
 * student's card with 403 `{detail, code: 'fees_outstanding', owed, required, paid}`. A PIN check
 * asks it as the student (`role: 'student'`): a parent at the check page is gated as the child is.
 * The composition root answers it with the results' gate (decision record 043).
 */
export interface PinCardGate {
  assertMaySee(studentId: number, sessionId: number, term: Term, actorRole: Role): Promise<void>;
}

/** A released card of a student as the student sees it: results' `ReportCardService.card`, acting as them. */
export type PinCards = (student: { user_id: number; admission_number: string }, sessionId: number, term: Term) => Promise<ReportCard>;

/** The card as a PDF (results' report card drawing), for GET /api/check-result/pdf/. */
export type PinCardPdf = (card: ReportCard) => Promise<Buffer>;
