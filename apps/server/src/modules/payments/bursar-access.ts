import { STAFF_OR_ADMIN } from '@portal/domain';

/**
 * Who may use the bursar's routes (their `config`): staff holding the bursar capability, or the
 * admin; the guard checks the capability with the account. One definition for every route file of
 * the bursary, fee items and fee reports, so that a change of who the bursar is happens once.
 */
export const BURSAR = { auth: STAFF_OR_ADMIN, capability: 'bursar' } as const;
