import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { ParentHomeChild } from '@portal/domain/parents';
import { api } from './api-client';
import { useSession } from './auth-store';

/**
 * A parent's children, and which child a parent's page is about (issue 33). A parent opens the
 * student screens for one child named in the address (`?child=<admission number>`); the child
 * switcher (components/layout/child-switcher.tsx) changes it, and every parent page keeps it.
 */

/** The address's parameter naming the child. */
export const CHILD_PARAM = 'child';

export const parentChildrenKey = ['parent', 'children'] as const;

/** GET /api/parent/children/: each child with the current term at a glance (one request for them all). */
export const parentChildrenQuery = queryOptions({
  queryKey: parentChildrenKey,
  queryFn: ({ signal }) => api.get<{ children: ParentHomeChild[] }>('/parent/children/', { timeout: 15_000, signal }),
  staleTime: 30_000,
});

/** The signed-in parent's children (nothing is asked for another role). */
export function useParentChildren() {
  const session = useSession();
  // Not before the one-time password is changed: the server answers nothing else until then.
  return useQuery({ ...parentChildrenQuery, enabled: session?.role === 'parent' && !session.mustChangePassword });
}

/**
 * The child a parent's page is about: the address's `?child=`, else `fallback` (e.g. the child just
 * paid for), else the first child. Null for every other role, and while a parent's children load.
 */
export function useChild(fallback?: string | null): { isParent: boolean; child: string | null; pending: boolean } {
  const isParent = useSession()?.role === 'parent';
  const [params] = useSearchParams();
  const children = useParentChildren();
  if (!isParent) return { isParent, child: null, pending: false };
  const named = params.get(CHILD_PARAM)?.trim().toUpperCase();
  if (named) return { isParent, child: named, pending: false };
  if (fallback) return { isParent, child: fallback, pending: false };
  const first = children.data?.children[0]?.admission_number ?? null;
  return { isParent, child: first, pending: children.isPending };
}

/** The query a student screen's API call adds for a parent: the child's admission number. */
export const childQuery = (child: string | null): { admission_number?: string } => (child ? { admission_number: child } : {});

/** A parent page's address for `child` (`path` may hold its own query). */
export function childPath(path: string, child: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${CHILD_PARAM}=${encodeURIComponent(child)}`;
}

/** The pages a parent opens for a child: each shows the child switcher. */
export const CHILD_PAGES: readonly string[] = [
  '/ParentHomePage',
  '/report-card',
  '/my-attendance',
  '/my-statement',
  '/my-transfers',
  '/PaymentForm',
];
