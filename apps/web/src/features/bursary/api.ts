import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  LedgerEntry,
  LedgerPage,
  OfflinePaymentInput,
  PaymentMethod,
  Statement,
  StaffCapabilities,
  StaffCapability,
} from '@portal/domain/bursary';
import type { SchoolCalendarView } from '@portal/domain/attendance';
import type { Bank, ReferenceReview } from '@portal/domain/bank-references';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';
import { useKeyedMutation } from '../../lib/idempotency';
import { capabilityKeys } from '../../lib/capabilities';

const T = { timeout: 15_000 };

export interface LedgerQuery {
  admission_number?: string;
  /** Matched by the one bank reference rule on the server. */
  bank_reference?: string;
  session_id?: number;
  method?: PaymentMethod;
  from?: string;
  to?: string;
  page?: number;
}
export interface StatementQuery {
  /** Left out for a student's own statement. */
  admission_number?: string;
  session_id?: number;
}

/**
 * Query keys: everything under `['bursary']`; a recorded or reversed payment also changes what the
 * payment screens show (`['payments']`: balances, history, receipts).
 */
export const bursaryKeys = {
  all: ['bursary'] as const,
  ledger: (q: LedgerQuery) => ['bursary', 'ledger', q] as const,
  statement: (q: StatementQuery) => ['bursary', 'statement', q] as const,
  staff: ['bursary', 'staff-capabilities'] as const,
};

/** The list of banks (the domain's and the admin's), offered by the payment and transfer forms. */
export function useBanks() {
  return useQuery({ queryKey: ['bursary', 'banks'], queryFn: () => api.get<Bank[]>('/bursary/banks/', T), staleTime: 10 * 60_000 });
}

/** What migration 0020 found recorded twice (the bursar reviews it on the ledger). */
export function useReferenceReviews() {
  return useQuery({
    queryKey: ['bursary', 'reference-reviews'],
    queryFn: () => api.get<ReferenceReview[]>('/bursary/reference-reviews/', T),
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * The first day of the session's first dated term (null while it has none): payment dates may go back
 * a year before it. Read from the school calendar, which the bursar (staff) may read.
 */
export function useFirstTermStart(sessionId: number | null): string | null {
  const calendar = useQuery({
    queryKey: ['bursary', 'first-term', sessionId],
    queryFn: ({ signal }) => api.get<SchoolCalendarView>('/attendance/calendar/', { query: { session_id: sessionId }, ...T, signal }),
    enabled: sessionId !== null && sessionId > 0,
    staleTime: 60_000,
  });
  return (
    (calendar.data?.terms ?? [])
      .map((t) => t.starts_on)
      .filter((d): d is string => !!d)
      .sort()[0] ?? null
  );
}

export function useLedger(q: LedgerQuery) {
  return useGet<LedgerPage>(bursaryKeys.ledger(q), '/bursary/payments/', q, { placeholderData: keepPreviousData });
}

export function useStatement(q: StatementQuery | null) {
  return useGet<Statement>(bursaryKeys.statement(q ?? {}), '/bursary/statement/', q);
}

/** A payment, reversal or discount changes every money screen: the bursary's and the balances under `['payments']`. */
export function useInvalidateMoney() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: bursaryKeys.all }), qc.invalidateQueries({ queryKey: ['payments'] })]);
}

export function useRecordPayment() {
  return useKeyedMutation(
    (body: OfflinePaymentInput, idempotencyKey) => api.post<LedgerEntry>('/bursary/payments/', body, { timeout: 30_000, idempotencyKey }),
    useInvalidateMoney(),
  );
}

export function useReversePayment() {
  return useKeyedMutation(
    ({ reference, reason }: { reference: string; reason: string }, idempotencyKey) =>
      api.post<LedgerEntry>(`/bursary/payments/${encodeURIComponent(reference)}/reverse/`, { reason }, { ...T, idempotencyKey }),
    useInvalidateMoney(),
  );
}

export function fetchScan(reference: string) {
  return api.get<Blob>(`/bursary/payments/${encodeURIComponent(reference)}/scan/`, { ...T, blob: true });
}

export function downloadLedgerCsv(q: Pick<LedgerQuery, 'from' | 'to'>) {
  return api.get<Blob>('/bursary/ledger.csv', { query: { ...q }, timeout: 60_000, blob: true });
}

export function useStaffCapabilities() {
  return useQuery({ queryKey: bursaryKeys.staff, queryFn: () => api.get<StaffCapabilities[]>('/staff-capabilities/', T) });
}

export function useSaveCapabilities() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ staffId, capabilities }: { staffId: string; capabilities: StaffCapability[] }) =>
      api.put<StaffCapabilities>(`/staff-capabilities/${encodeURIComponent(staffId)}/`, { capabilities }, T),
    onSuccess: async (saved) => {
      qc.setQueryData<StaffCapabilities[]>(bursaryKeys.staff, (list) => list?.map((s) => (s.staff_id === saved.staff_id ? saved : s)));
      await qc.invalidateQueries({ queryKey: capabilityKeys.all });
    },
  });
}
