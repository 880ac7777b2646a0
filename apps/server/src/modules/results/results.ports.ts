import type { Term } from '@portal/domain';

/**
 * What results needs from other modules and declares itself, so that it imports none of them: the
 * composition root (src/composition.ts) hands in an implementation (docs/decisions/028).
 */

/** An arm's students on a card's term: whose fees the card prints. */
export type CardFeesQuery = {
  session: { id: number; name: string };
  /** The card's term: the outstanding balance counts the fees of this term and those before it. */
  term: Term;
  arm: string;
  studentIds: readonly number[];
  /** The term after the card's (its session: null when the next session does not exist yet). */
  next: { sessionId: number | null; term: Term };
};

/**
 * The fee figures a report card prints, in naira: the next term's compulsory fees of the class (null
 * when none are set) and each student's outstanding balance up to the card's term. Payments answers it.
 */
export type CardFees = (q: CardFeesQuery) => Promise<{ nextFees: number | null; outstanding: Map<number, number> }>;

/** One student's term card whose fees the gate reads: the student's arm in that session. */
export type CardGateFeesQuery = {
  session: { id: number; name: string };
  term: Term;
  students: readonly { id: number; student_class: string }[];
};

/**
 * "May this student see results": each student's term standing, in kobo: the term's compulsory fees
 * that have fallen due (after discounts) and the money allocated to them (the session's payments,
 * net of reversals, earlier terms first). Payments answers it; the rule (percent, releases) is
 * results' `CardGate` (decision 042).
 */
export type CardGateFees = (q: CardGateFeesQuery) => Promise<Map<number, { charged_kobo: number; paid_kobo: number }>>;

/** Whoever draws released arms' card PDFs in the background (CardPdfs; decision 050): told by a release and by a publish. */
export interface ReleasedArms {
  released(arms: { session_id: number; term: string; classes: readonly string[] }): void;
}
