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
}
