import { ROLES, type Role } from '@portal/domain/constants';

/**
 * The role lists the web's route guards use, defined once. The server enforces every rule; these
 * only decide which pages a role is sent to. Every role comes from the domain's `ROLES`.
 */
export const ANY_ROLE: readonly Role[] = ROLES;
export const STAFF_AND_ADMIN: readonly Role[] = ['admin', 'staff'];
export const ADMIN_ONLY: readonly Role[] = ['admin'];
export const STAFF_ONLY: readonly Role[] = ['staff'];
export const STUDENT_ONLY: readonly Role[] = ['student'];
