import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { safeNext } from '../../lib/safe-next';
import { SchoolBrand } from './school-brand';

const LINKS = [
  { to: '/', label: 'Home', signIn: false },
  { to: '/Admin', label: 'Admin', signIn: true },
  { to: '/StaffLogin', label: 'Staff', signIn: true },
  { to: '/StudentLogin', label: 'Student', signIn: true },
] as const;

/**
 * The screen to come back to after signing in, when this page was reached on the way to a sign-in:
 * `?next=` (an expired session) or the guard's `state.from` (a signed-out visit), only ever a path of
 * this site (`safeNext`).
 */
function useReturnAddress(): string | null {
  const location = useLocation();
  return safeNext(new URLSearchParams(location.search).get('next')) ?? safeNext((location.state as { from?: string } | null)?.from);
}

/**
 * The shared header of the public and login screens: title, motto, menu toggle, four buttons. Its
 * sign-in links keep the return address, so picking "Staff" here brings the user back to the screen
 * they were sent away from, as the sign-in page's own choices do.
 */
export function SiteHeader() {
  const [open, setOpen] = useState(false);
  const next = useReturnAddress();
  return (
    <header className="bg-brand-900 text-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
        <Link to="/" className="min-w-0 rounded focus-visible:outline-white">
          <SchoolBrand />
        </Link>
        <button
          type="button"
          className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border border-white/30 md:hidden"
          aria-expanded={open}
          aria-controls="site-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true" className="text-xl">
            {open ? '×' : '☰'}
          </span>
        </button>
        <nav
          id="site-menu"
          aria-label="Main"
          className={`${open ? 'flex' : 'hidden'} absolute top-16 right-3 left-3 z-40 flex-col gap-1 rounded-xl bg-brand-900 p-2 shadow-xl md:static md:flex md:flex-row md:bg-transparent md:p-0 md:shadow-none`}
        >
          {LINKS.map((l) => (
            <NavLink
              key={l.to}
              to={l.signIn && next ? `${l.to}?next=${encodeURIComponent(next)}` : l.to}
              state={l.signIn && next ? { from: next } : undefined}
              end
              onClick={() => setOpen(false)}
              className={({ isActive }) =>
                `inline-flex min-h-11 items-center rounded-lg px-4 text-sm font-semibold ${isActive ? 'bg-accent-400 text-brand-900' : 'text-white hover:bg-white/10'}`
              }
            >
              {l.label}
            </NavLink>
          ))}
        </nav>
      </div>
    </header>
  );
}
