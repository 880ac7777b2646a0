import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { SchoolBrand } from './school-brand';

const LINKS = [
  { to: '/', label: 'Home' },
  { to: '/Admin', label: 'Admin' },
  { to: '/StaffLogin', label: 'Staff' },
  { to: '/StudentLogin', label: 'Student' },
] as const;

/** The shared header of the public and login screens: title, motto, menu toggle, four buttons. */
export function SiteHeader() {
  const [open, setOpen] = useState(false);
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
              to={l.to}
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
