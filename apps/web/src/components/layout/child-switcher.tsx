import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PARENT_SCREEN_LABELS as L } from '@portal/domain/parent-screens';
import { CHILD_PAGES, CHILD_PARAM, useChild, useParentChildren } from '../../lib/parent-child';

/**
 * A parent's child switcher (issue 33), on every page a parent opens for a child: a select of the
 * children (name and class), the choice kept in the address (`?child=`), so a reload, a link or the
 * back button shows the same child. One child: a plain line saying whose page it is.
 */
export function ChildSwitcher() {
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { isParent, child } = useChild();
  const children = useParentChildren();
  if (!isParent || !CHILD_PAGES.includes(location.pathname)) return null;
  const list = children.data?.children ?? [];
  if (list.length === 0) return null;
  const name = (c: (typeof list)[number]) => `${c.first_name} ${c.last_name} (${c.arm})`;
  if (list.length === 1)
    return (
      <p className="no-print mb-4 text-sm text-slate-700" data-testid="child-switcher">
        {L.child}: <span className="font-semibold text-slate-900">{name(list[0]!)}</span>
      </p>
    );

  function choose(admission: string) {
    // The page's own choices of another child (a term, a receipt's reference) do not carry over.
    const next = new URLSearchParams();
    next.set(CHILD_PARAM, admission);
    for (const k of ['session_id', 'term']) {
      const v = params.get(k);
      if (v) next.set(k, v);
    }
    void navigate({ pathname: location.pathname, search: `?${next.toString()}` });
  }

  return (
    <div className="no-print mb-4 max-w-md" data-testid="child-switcher">
      <label htmlFor="child-switcher" className="mb-1 block text-sm font-semibold text-slate-800">
        {L.child}
      </label>
      <select
        id="child-switcher"
        className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm focus:border-brand-700 focus:ring-2 focus:ring-brand-700/30 focus:outline-none"
        value={child ?? ''}
        onChange={(e) => choose(e.target.value)}
      >
        {list.map((c) => (
          <option key={c.admission_number} value={c.admission_number}>
            {name(c)}
          </option>
        ))}
      </select>
    </div>
  );
}
