import { Link } from 'react-router';

export interface MenuItem {
  to: string;
  label: string;
  description?: string;
  /** A short count beside the label (e.g. reports waiting), announced with it. */
  badge?: string;
}

/** A titled group of a home's menu: its heading over its grid. */
export function MenuSection({ title, items }: { title: string; items: readonly MenuItem[] }) {
  return (
    <section>
      <h2 className="mb-3">{title}</h2>
      <MenuGrid items={items} label={title} />
    </section>
  );
}

/** A grid of big, thumb-friendly links: the home pages' menus. */
export function MenuGrid({ items, label }: { items: readonly MenuItem[]; label: string }) {
  return (
    <nav aria-label={label}>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              className="flex h-full min-h-14 flex-col justify-center rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm hover:border-brand-700 hover:bg-brand-50"
            >
              <span className="font-semibold text-brand-900">
                {item.label}
                {item.badge && (
                  <span
                    className="ml-2 inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950"
                    data-testid="menu-badge"
                  >
                    {item.badge}
                  </span>
                )}
              </span>
              {item.description && <span className="text-sm text-slate-600">{item.description}</span>}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function WelcomeBanner({ message }: { message: string }) {
  return (
    <p className="mb-5 rounded-xl bg-brand-800 px-4 py-3 text-white" data-testid="welcome-message">
      {message}
    </p>
  );
}
