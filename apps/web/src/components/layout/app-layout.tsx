import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { pageRefusedMessage } from '@portal/domain/auth-constants';
import type { RefusedState } from '../../lib/guards';
import { Alert } from '../ui/alert';
import { useAppStarted } from '../../lib/app-started';
import { HOME_OF_ROLE, useSession } from '../../lib/auth-store';
import { NoticesBadge } from './notices-badge';
import { UnsentHeaderBadge } from './unsent-badge';
import { childPath, useChild } from '../../lib/parent-child';
import { ChildSwitcher } from './child-switcher';
import { SchoolBrand } from './school-brand';
import { OtherAccountsNotice, SignOutButton } from './sign-out';
import { UpdatePrompt } from './update-prompt';

/** Top bar for signed-in screens: school brand, who is signed in, a way home and Logout; the app's update prompt below it. */
export function AppHeader() {
  const session = useSession();
  // On a page the server rendered, Logout needs the app (it ends the session in this browser too).
  const started = useAppStarted();
  return (
    <header className="no-print bg-brand-900 text-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-2.5">
        <Link to={session ? HOME_OF_ROLE[session.role] : '/'} className="min-w-0 rounded focus-visible:outline-white">
          <SchoolBrand compact />
        </Link>
        {session && (
          <div className="flex items-center gap-2">
            <NoticesBadge />
            <UnsentHeaderBadge session={session} />
            <span className="hidden text-sm sm:inline" data-testid="signed-in-as">
              {session.name} <span className="opacity-70">({session.role})</span>
            </span>
            <SignOutButton session={session} disabled={!started} />
          </div>
        )}
      </div>
      {session && <UpdatePrompt />}
    </header>
  );
}

/** A signed-in page: header, title, optional back link to the role's home, content. */
export function PageLayout({
  title,
  children,
  actions,
  back = true,
  width = 'max-w-5xl',
}: {
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  back?: boolean;
  width?: string;
}) {
  const session = useSession();
  const refused = (useLocation().state as Partial<RefusedState> | null)?.refused;
  // A parent's way home keeps the child chosen.
  const { child } = useChild();
  const home = session ? (child ? childPath(HOME_OF_ROLE[session.role], child) : HOME_OF_ROLE[session.role]) : '/';
  return (
    <div className="min-h-dvh">
      <AppHeader />
      <main className={`mx-auto ${width} px-4 py-6`}>
        <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
          <div>
            {back && session && (
              <Link to={home} className="no-print mb-1 inline-block text-sm font-medium text-brand-800 hover:underline">
                ← Back to home
              </Link>
            )}
            <h1>{title}</h1>
          </div>
          {actions && <div className="no-print flex flex-wrap gap-2">{actions}</div>}
        </div>
        <ChildSwitcher />
        <OtherAccountsNotice session={session} />
        {refused && (
          <Alert tone="warning" className="mb-5" title="Page not available">
            {refused.message ?? pageRefusedMessage(refused.path, refused.allowed)}
          </Alert>
        )}
        {children}
      </main>
    </div>
  );
}
