import { BURSARY_MESSAGES, STAFF_CAPABILITIES, personName, type StaffCapabilities, type StaffCapability } from '@portal/domain';
import { writeAudit } from '../../db/audit';
import type { AuthUser } from '../../http/auth';
import { notFound } from '../../http/errors';
import type { CapabilitiesRepository } from './capabilities.repository';
import { inTransaction } from '../../db/index';

type Actor = Pick<AuthUser, 'id' | 'role'>;

/** Who holds which capability beyond teaching; the admin grants them (audited). */
export class CapabilitiesService {
  constructor(private readonly repo: CapabilitiesRepository) {}

  async list(staffId?: string, conn = this.repo.db): Promise<StaffCapabilities[]> {
    const { staff, held } = await this.repo.staffWithCapabilities(conn, staffId);
    const byUser = new Map<number, StaffCapability[]>();
    for (const h of held) byUser.set(h.user_id, [...(byUser.get(h.user_id) ?? []), h.capability]);
    return staff.map((s) => ({
      staff_id: s.staff_id,
      name: personName(s),
      email: s.email,
      capabilities: byUser.get(s.user_id) ?? [],
    }));
  }

  /** What the signed-in user holds: the admin every capability, staff theirs. */
  async mine(actor: Actor): Promise<{ capabilities: StaffCapability[] }> {
    if (actor.role === 'admin') return { capabilities: [...STAFF_CAPABILITIES] };
    return { capabilities: (await this.repo.capabilitiesOf(actor.id)).map((c) => c.capability) };
  }

  async set(actor: Actor, staffId: string, capabilities: readonly StaffCapability[]): Promise<StaffCapabilities> {
    const wanted = [...new Set(capabilities)].sort();
    return inTransaction(this.repo.db, async (trx) => {
      const { staff, held } = await this.repo.staffWithCapabilities(trx, staffId);
      const member = staff[0];
      if (!member) throw notFound(BURSARY_MESSAGES.staffNotFound);
      const before = held.map((h) => h.capability);
      await this.repo.replace(trx, member.user_id, wanted, actor.id);
      await writeAudit(trx, {
        actorUserId: actor.id,
        action: 'staff_capabilities.update',
        entity: 'staff',
        entityId: staffId,
        before: { capabilities: before },
        after: { capabilities: wanted },
      });
      return { staff_id: member.staff_id, name: personName(member), email: member.email, capabilities: wanted };
    });
  }
}
