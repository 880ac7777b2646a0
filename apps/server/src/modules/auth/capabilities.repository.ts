import type { StaffCapability } from '@portal/domain';
import { nowIso, type Conn, type DB } from '../../db/index';
import './capabilities.tables';

/** SQL of staff capabilities (who is the bursar), nothing else. */
export class CapabilitiesRepository {
  constructor(readonly db: DB) {}

  /** Every staff member with what they hold, in name order: two statements. */
  async staffWithCapabilities(conn: Conn = this.db, staffId?: string) {
    let q = conn
      .selectFrom('staff')
      .innerJoin('users', 'users.id', 'staff.user_id')
      .select(['staff.user_id', 'staff.staff_id', 'staff.first_name', 'staff.last_name', 'users.email'])
      // Staff accounts always have an email (only a student's may be null).
      .$narrowType<{ email: string }>();
    if (staffId !== undefined) q = q.where('staff.staff_id', '=', staffId);
    const staff = await q.orderBy('staff.last_name').orderBy('staff.first_name').orderBy('staff.staff_id').execute();
    let caps = conn.selectFrom('staff_capabilities').select(['user_id', 'capability']);
    if (staffId !== undefined) caps = caps.where('user_id', 'in', staff.length ? staff.map((s) => s.user_id) : [-1]);
    const held = await caps.orderBy('capability').execute();
    return { staff, held };
  }

  capabilitiesOf(userId: number): Promise<{ capability: StaffCapability }[]> {
    return this.db.selectFrom('staff_capabilities').select('capability').where('user_id', '=', userId).orderBy('capability').execute();
  }

  /** Replaces what one staff member holds. */
  async replace(trx: Conn, userId: number, capabilities: readonly StaffCapability[], grantedBy: number): Promise<void> {
    let gone = trx.deleteFrom('staff_capabilities').where('user_id', '=', userId);
    if (capabilities.length) gone = gone.where('capability', 'not in', capabilities);
    await gone.execute();
    if (!capabilities.length) return;
    await trx
      .insertInto('staff_capabilities')
      .values(capabilities.map((capability) => ({ user_id: userId, capability, granted_by: grantedBy, granted_at: nowIso() })))
      .onConflict((oc) => oc.columns(['user_id', 'capability']).doNothing())
      .execute();
  }
}
