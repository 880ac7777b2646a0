import type { SimulatorOutcome } from '@portal/domain';
import { nowIso, type DB } from '../../db/index';
import './payments.tables';

/** SQL of the payment simulator's ledger (`payment_simulator_transactions`), which stands in for the provider's records. */
export class SimulatorRepository {
  constructor(private readonly db: DB) {}

  async insert(v: { reference: string; accessCode: string; amountKobo: number; currency: string; email: string; callbackUrl: string }) {
    const now = nowIso();
    await this.db
      .insertInto('payment_simulator_transactions')
      .values({
        reference: v.reference,
        access_code: v.accessCode,
        amount_kobo: v.amountKobo,
        currency: v.currency,
        email: v.email,
        callback_url: v.callbackUrl,
        status: 'pending',
        paid_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  byReference(reference: string) {
    return this.db.selectFrom('payment_simulator_transactions').selectAll().where('reference', '=', reference).executeTakeFirst();
  }

  byAccessCode(code: string) {
    return this.db.selectFrom('payment_simulator_transactions').selectAll().where('access_code', '=', code).executeTakeFirst();
  }

  /** Records the payer's choice once; false when it was already made. */
  async complete(code: string, outcome: SimulatorOutcome): Promise<boolean> {
    const status = outcome === 'pay' ? 'success' : outcome === 'decline' ? 'failed' : 'abandoned';
    const now = nowIso();
    const r = await this.db
      .updateTable('payment_simulator_transactions')
      .set({ status, paid_at: status === 'success' ? now : null, updated_at: now })
      .where('access_code', '=', code)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
