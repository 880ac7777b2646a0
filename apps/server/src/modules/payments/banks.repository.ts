import { nowIso, type Conn, type DB } from '../../db/index';
import './payments.tables';

/** SQL of the banks the admin adds to the domain's list (migration 0020). */
export class BanksRepository {
  constructor(readonly db: DB) {}

  added() {
    return this.db.selectFrom('banks').select(['code', 'name', 'aliases']).orderBy('name').execute();
  }

  async insert(trx: Conn, v: { code: string; name: string; aliases: string[]; addedBy: number }): Promise<void> {
    await trx
      .insertInto('banks')
      .values({ code: v.code, name: v.name, aliases: JSON.stringify(v.aliases), added_by: v.addedBy, added_at: nowIso() })
      .execute();
  }

  /** The duplicates migration 0020 found, with both sides' bank and reference (payments by receipt, reports by id). */
  async reviews() {
    const rows = await this.db.selectFrom('bank_reference_reviews').selectAll().orderBy('id').execute();
    const ids = (entity: string, pick: 'entity_id' | 'holder_id') => rows.filter((r) => r.entity === entity).map((r) => r[pick]);
    const paymentIds = [...ids('payment', 'entity_id'), ...ids('payment', 'holder_id')];
    const reportIds = [...ids('transfer_report', 'entity_id'), ...ids('transfer_report', 'holder_id')];
    const payments = paymentIds.length
      ? await this.db
          .selectFrom('payments')
          .select(['id', 'receipt_number', 'bank', 'bank_reference'])
          .where('id', 'in', paymentIds)
          .execute()
      : [];
    const reports = reportIds.length
      ? await this.db.selectFrom('transfer_reports').select(['id', 'bank', 'bank_reference']).where('id', 'in', reportIds).execute()
      : [];
    return { rows, payments: new Map(payments.map((p) => [p.id, p])), reports: new Map(reports.map((r) => [r.id, r])) };
  }
}
