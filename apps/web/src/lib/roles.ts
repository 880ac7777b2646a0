import type { Role } from '@portal/domain/constants';

/**
 * The role lists the web's route guards use, defined once. The server enforces every rule; these
 * only decide which pages a role is sent to. `ANY_ROLE` is the school's own accounts: like the
 * server's, it does not admit parents (issue 33); a page a parent opens lists `'parent'`.
 */
export const ANY_ROLE: readonly Role[] = ['admin', 'staff', 'student'];
/** Every account, parents included: the pages a parent opens for a child beside everyone's. */
export const EVERY_ACCOUNT: readonly Role[] = ['admin', 'staff', 'student', 'parent'];
export const STAFF_AND_ADMIN: readonly Role[] = ['admin', 'staff'];
export const ADMIN_ONLY: readonly Role[] = ['admin'];
export const STAFF_ONLY: readonly Role[] = ['staff'];
export const STUDENT_ONLY: readonly Role[] = ['student'];
/** A student's own screens, which a parent opens for a child (`?child=<admission number>`). */
export const STUDENT_OR_PARENT: readonly Role[] = ['student', 'parent'];
export const PARENT_ONLY: readonly Role[] = ['parent'];
