import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';
import type { BatchCreate, CheckAnswer, CheckBody, CheckOptions, PinBatch, PinFilter, PinPage, SoldBody } from './contract';

/** The result-checker PIN screens' API (issue 34, CONTRACT.md §6): the admin's batches and the public check. */
const T = { timeout: 15_000 };
const BATCHES = '/result-pins/batches/';

export const pinKeys = {
  all: ['result-pins'] as const,
  batches: ['result-pins', 'batches'] as const,
  batch: (id: number) => ['result-pins', 'batch', id] as const,
  pins: (id: number, q: PinListQuery) => ['result-pins', 'pins', id, q] as const,
  options: ['check-result', 'options'] as const,
};

export interface PinListQuery {
  state?: PinFilter;
  page: number;
}

const listOf = <R>(d: R[] | { results: R[] }): R[] => (Array.isArray(d) ? d : d.results);

export function useBatches() {
  return useQuery({
    queryKey: pinKeys.batches,
    queryFn: ({ signal }) => api.get<PinBatch[] | { results: PinBatch[] }>(BATCHES, { ...T, signal }),
    select: listOf,
    retry: false,
  });
}

export function useBatch(id: number) {
  return useQuery({
    queryKey: pinKeys.batch(id),
    queryFn: ({ signal }) => api.get<PinBatch>(`${BATCHES}${id}/`, { ...T, signal }),
    enabled: id > 0,
    retry: false,
  });
}

export function usePins(id: number, q: PinListQuery) {
  return useGet<PinPage>(pinKeys.pins(id, q), `${BATCHES}${id}/pins/`, id > 0 ? q : null, { placeholderData: keepPreviousData });
}

function useInvalidatePins() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: pinKeys.all });
}

/** Generating 5,000 PINs (each hashed and its printable copy encrypted) takes a while: a minute's wait. */
export function useGenerateBatch() {
  const invalidate = useInvalidatePins();
  return useMutation({ mutationFn: (b: BatchCreate) => api.post<PinBatch>(BATCHES, b, { timeout: 60_000 }), onSuccess: invalidate });
}

export function useSealBatch(id: number) {
  const invalidate = useInvalidatePins();
  return useMutation({ mutationFn: () => api.post<PinBatch>(`${BATCHES}${id}/seal/`, {}, T), onSuccess: invalidate });
}

export function useMarkSold(id: number) {
  const invalidate = useInvalidatePins();
  return useMutation({
    mutationFn: (b: SoldBody) => api.post<{ sold: number } | PinBatch>(`${BATCHES}${id}/sold/`, b, { timeout: 30_000 }),
    onSuccess: invalidate,
  });
}

export const downloadSheet = (id: number) => api.get<Blob>(`${BATCHES}${id}/sheet.pdf`, { blob: true, timeout: 60_000 });
export const downloadCsv = (id: number) => api.get<Blob>(`${BATCHES}${id}/cards.csv`, { blob: true, timeout: 60_000 });

// ---- Public: no sign-in ----

export function useCheckOptions() {
  return useQuery({
    queryKey: pinKeys.options,
    queryFn: ({ signal }) => api.get<CheckOptions>('/check-result/options/', { ...T, signal, anonymous: true }),
    retry: 1,
    staleTime: 5 * 60_000,
  });
}

export function useCheckResult() {
  return useMutation({ mutationFn: (b: CheckBody) => api.post<CheckAnswer>('/check-result/', b, { timeout: 20_000, anonymous: true }) });
}

/** The checked card's PDF: the token the check gave (no second use of the PIN). */
export const downloadCheckedPdf = (token: string) =>
  api.get<Blob>('/check-result/pdf/', { query: { token }, blob: true, timeout: 30_000, anonymous: true });
