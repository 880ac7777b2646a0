import type { Conn } from '../../db/index';
import { recordNoticeEvent } from '../../db/notice-outbox';

/**
 * The parents' "payment received" notice (decision record 037), recorded in the transaction that
 * credits the payment and numbers its receipt: online (verify or webhook, whichever wins the
 * transition) and offline (the bursar's record, a confirmed transfer report). Keyed by the payment,
 * so it is recorded once whatever retries. A payment without a student row (an old one) has no family to tell.
 */
export async function recordPaymentNotice(
  conn: Conn,
  p: {
    id: number;
    student_id: number | null;
    receipt_number: string;
    amount_kobo: number;
    session: string;
    term: string | null;
    paid_on: string;
  },
): Promise<void> {
  if (p.student_id === null) return;
  await recordNoticeEvent(conn, {
    kind: 'payment_received',
    key: `payment_received:${p.id}`,
    payload: {
      student_id: p.student_id,
      receipt_number: p.receipt_number,
      amount_kobo: p.amount_kobo,
      session: p.session,
      term: p.term,
      paid_on: p.paid_on,
    },
  });
}
