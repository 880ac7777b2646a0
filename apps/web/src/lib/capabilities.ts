import { useQuery } from '@tanstack/react-query';
import type { StaffCapability } from '@portal/domain/bursary';
import { api } from './api-client';
import { useSession } from './auth-store';

/** App-wide: the menus and the route guards both ask what the signed-in staff member may do. */
export const capabilityKeys = {
  all: ['me', 'capabilities'] as const,
  of: (userId: string) => ['me', 'capabilities', userId] as const,
};

/**
 * The signed-in account's capabilities (the admin holds all, students none: not asked). `pending`
 * while a staff member's are loading, so a guard waits instead of refusing.
 */
export function useMyCapabilities(): { capabilities: readonly StaffCapability[]; pending: boolean } {
  const session = useSession();
  const asks = session?.role === 'staff' || session?.role === 'admin';
  const query = useQuery({
    queryKey: capabilityKeys.of(session?.publicId ?? ''),
    queryFn: () => api.get<{ capabilities: StaffCapability[] }>('/me/capabilities/', { timeout: 10_000 }),
    enabled: asks,
    staleTime: 60_000,
  });
  return { capabilities: query.data?.capabilities ?? [], pending: asks && query.isPending };
}

export function useHasCapability(capability: StaffCapability): { allowed: boolean; pending: boolean } {
  const session = useSession();
  const { capabilities, pending } = useMyCapabilities();
  if (session?.role === 'admin') return { allowed: true, pending: false };
  return { allowed: capabilities.includes(capability), pending };
}
