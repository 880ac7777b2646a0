import { useMutation, useQuery } from '@tanstack/react-query';
import type { Discount, DiscountInput } from '@portal/domain/discounts';
import type { FeeItem } from '@portal/domain/fees';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';
import { useKeyedMutation } from '../../lib/idempotency';
import { useInvalidateMoney } from './api';

const T = { timeout: 15_000 };

export interface DiscountQuery {
  admission_number: string;
  session_id: number;
}

/** Under `['bursary']`, so a given or revoked discount also refreshes the statement; `['payments']` holds the balances. */
export const discountKeys = {
  list: (q: DiscountQuery) => ['bursary', 'discounts', q] as const,
  items: (sessionId: number, cls: string) => ['bursary', 'discount-items', sessionId, cls] as const,
};

export function useDiscounts(q: DiscountQuery | null) {
  return useGet<Discount[]>(
    discountKeys.list(q ?? { admission_number: '', session_id: 0 }),
    '/bursary/discounts/',
    q && { ...q, include_revoked: 'true' },
  );
}

/** The class's fee items of the session (the bursar reads them as the fee schedules screen does). */
export function useClassFeeItems(sessionId: number | null, cls: string | null) {
  return useQuery({
    queryKey: discountKeys.items(sessionId ?? 0, cls ?? ''),
    queryFn: ({ signal }) =>
      api.get<FeeItem[]>('/payments/fee-schedules/', { query: { session_id: sessionId!, class: cls! }, ...T, signal }),
    enabled: sessionId !== null && !!cls,
  });
}

export function useGiveDiscount() {
  return useKeyedMutation(
    (body: DiscountInput, idempotencyKey) => api.post<Discount>('/bursary/discounts/', body, { ...T, idempotencyKey }),
    useInvalidateMoney(),
  );
}

export function useRevokeDiscount() {
  const invalidate = useInvalidateMoney();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => api.post<Discount>(`/bursary/discounts/${id}/revoke/`, { reason }, T),
    onSuccess: invalidate,
  });
}
