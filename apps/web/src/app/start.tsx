import { Navigate } from 'react-router';
import { HOME_OF_ROLE, useSession } from '../lib/auth-store';

/**
 * `/app`, where the installed app opens (its manifest's start_url, docs/decisions/045): the signed-in
 * user's home, or the sign-in choice. Works offline too: the session is read from this phone.
 */
export function AppStart() {
  const session = useSession();
  return <Navigate to={session ? HOME_OF_ROLE[session.role] : '/login'} replace />;
}
