import { Navigate, Outlet, useLocation, type RouteObject } from 'react-router';
import type { StaffCapability } from '@portal/domain/bursary';
import type { Role } from '@portal/domain/constants';
import { HOME_OF_ROLE, useSession } from './auth-store';
import { useHasCapability } from './capabilities';
import { LoadingBlock } from '../components/ui/spinner';

export { ADMIN_ONLY, ANY_ROLE, EVERY_ACCOUNT, PARENT_ONLY, STAFF_AND_ADMIN, STAFF_ONLY, STUDENT_ONLY, STUDENT_OR_PARENT } from './roles';

/**
 * Role-aware route guard (the spec's client had none): signed-out users go to the role chooser,
 * users with a one-time password to the change-password screen, other roles to their own home.
 */
export function RequireRole({ roles }: { roles: readonly Role[] }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (session.mustChangePassword) return <Navigate to="/change-password" replace />;
  if (!roles.includes(session.role)) {
    // Say why on the page the user lands on, instead of a silent redirect.
    const refused: RefusedState = { refused: { path: location.pathname, allowed: [...roles] } };
    return <Navigate to={HOME_OF_ROLE[session.role]} replace state={refused} />;
  }
  return <Outlet />;
}

/**
 * For screens of a staff capability (the bursar's): the admin, or a staff member holding it. Others
 * go home with `refusedMessage` shown there. The server enforces the same rule.
 */
export function RequireCapability({
  capability,
  refusedMessage,
}: {
  capability: StaffCapability;
  refusedMessage: (path: string) => string;
}) {
  const session = useSession();
  const location = useLocation();
  const { allowed, pending } = useHasCapability(capability);
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (session.mustChangePassword) return <Navigate to="/change-password" replace />;
  if (pending) return <LoadingBlock />;
  if (!allowed) {
    const refused: RefusedState = { refused: { path: location.pathname, allowed: ['admin'], message: refusedMessage(location.pathname) } };
    return <Navigate to={HOME_OF_ROLE[session.role]} replace state={refused} />;
  }
  return <Outlet />;
}

/** Navigation state left by RequireRole when it refuses a page; PageLayout shows it. */
export interface RefusedState {
  /** `message`: said instead of the roles' list (a capability's screens). */
  refused: { path: string; allowed: Role[]; message?: string };
}

/** Routes behind one role guard (RequireRole). */
export function forRoles(roles: readonly Role[], children: RouteObject[]): RouteObject {
  return { element: <RequireRole roles={roles} />, children };
}
