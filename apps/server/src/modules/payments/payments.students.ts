import type { AuthUser } from '../../http/auth';
import { isStudent, notOwnRecord } from '../../http/policies';
import type { PaymentsRepository } from './payments.repository';

export type Actor = Pick<AuthUser, 'id' | 'role'>;

/** The signed-in student's own record; null for staff and admin (the own-record rule: http/policies.ts). */
export async function ownStudentOf(repo: PaymentsRepository, actor: Actor) {
  if (!isStudent(actor)) return null;
  const s = await repo.studentByUserId(actor.id);
  if (!s) throw notOwnRecord();
  return s;
}
