import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TIMINGS } from '@portal/domain/constants';
import type { FeeItemsBulkResult, FeeItemsCopyResult } from '@portal/domain/fees';
import type {
  InitiateResponse,
  Payment,
  PaymentProviderInfo,
  SimulatorCheckout,
  SimulatorOutcome,
  VerifyResponse,
} from '@portal/domain/payments';
import type { ClassReportRow, FeeSchedule, PaymentContext, Receipt } from '@portal/domain/payment-views';
import { api } from '../../lib/api-client';
import { keptOffline } from '../../lib/offline-query';
import { SubmissionKeys } from '../../lib/idempotency';

/** Fetchers and query hooks of the payment screens; timeouts. */
export const paymentKeys = {
  all: ['payments'] as const,
  context: ['payments', 'context'] as const,
  history: (admissionNumber: string) => ['payments', 'history', admissionNumber] as const,
  report: (cls: string, session: string) => ['payments', 'report', cls, session] as const,
  receipt: (reference: string) => ['payments', 'receipt', reference] as const,
  feeSchedules: (sessionId: number | null) => ['payments', 'fee-schedules', sessionId] as const,
  provider: ['payments', 'provider'] as const,
  simulator: (code: string) => ['payments', 'simulator', code] as const,
};

/** Whether this portal takes payments online (off in production without a provider key). */
export const paymentProviderQuery = queryOptions({
  queryKey: paymentKeys.provider,
  queryFn: () => api.get<PaymentProviderInfo>('/payments/provider/', { timeout: TIMINGS.defaultTimeout }),
  staleTime: 5 * 60_000,
});
export function usePaymentProvider() {
  return useQuery(paymentProviderQuery);
}

/** The simulator's checkout, for the payer (or an admin) only. */
export function useSimulatorCheckout(code: string) {
  return useQuery({
    queryKey: paymentKeys.simulator(code),
    queryFn: () => api.get<SimulatorCheckout>(`/payments/simulator/${encodeURIComponent(code)}/`, { timeout: TIMINGS.defaultTimeout }),
    retry: false,
  });
}

export function completeSimulatorCheckout(code: string, outcome: SimulatorOutcome) {
  return api.post<SimulatorCheckout>(
    `/payments/simulator/${encodeURIComponent(code)}/`,
    { outcome },
    { timeout: TIMINGS.paymentClientTimeout },
  );
}

/** The form's context: the signed-in student's own, or (a parent) the child's, named by admission number. */
export const paymentContextOf = (child: string | null) =>
  queryOptions({
    queryKey: child ? [...paymentKeys.context, child] : [...paymentKeys.context],
    queryFn: () =>
      api.get<PaymentContext>('/payments/context/', {
        query: child ? { admission_number: child } : {},
        timeout: TIMINGS.paymentClientTimeout,
      }),
  });
export function usePaymentContext(child: string | null = null) {
  return useQuery(paymentContextOf(child));
}

/** Not retried on mount: the payment form's route asks for a student's own history on every visit. */
export const paymentHistoryQuery = (admissionNumber: string) =>
  queryOptions({
    queryKey: paymentKeys.history(admissionNumber),
    queryFn: () =>
      api.get<Payment[]>('/payments/history/', { query: { admission_number: admissionNumber }, timeout: TIMINGS.defaultTimeout }),
    retry: false,
    retryOnMount: false,
  });
export function usePaymentHistory(admissionNumber: string) {
  return useQuery({ ...paymentHistoryQuery(admissionNumber), enabled: admissionNumber.trim().length >= 3 });
}

export function useClassReport(cls: string, session: string, enabled: boolean) {
  return useQuery({
    queryKey: paymentKeys.report(cls, session),
    queryFn: () =>
      api.get<ClassReportRow[]>('/payments/report/', {
        query: { class: cls, session: session || undefined },
        timeout: TIMINGS.defaultTimeout,
      }),
    enabled: enabled && cls !== '',
    retry: false,
  });
}

export function downloadClassReportCsv(cls: string, session: string) {
  return api.get<Blob>('/payments/report/csv/', {
    query: { class: cls, session: session || undefined },
    timeout: TIMINGS.paymentClientTimeout,
    blob: true,
  });
}

/** The payer's fields as a payment stores them, the term paid for, and the confirm step's answer. */
export type InitiateBody = Pick<
  Payment,
  'admission_number' | 'full_name' | 'current_class' | 'current_session' | 'email' | 'phone_number' | 'amount'
> & {
  term: string | null;
  /** The payer confirmed paying a term already paid or more than the balance. */
  confirm?: boolean;
};

/** The payment form's submissions: a retry of the same one (a double tap, a time-out) starts one payment. */
const initiateKeys = new SubmissionKeys();

export async function initiatePayment(body: InitiateBody) {
  const res = await api.post<InitiateResponse>('/payments/initiate/', body, {
    timeout: TIMINGS.initiateTimeout,
    idempotencyKey: initiateKeys.keyFor('initiate', body),
  });
  initiateKeys.reset();
  return res;
}

export function verifyPayment(reference: string) {
  return api.post<VerifyResponse>('/payments/verify/', { reference }, { timeout: TIMINGS.paymentClientTimeout });
}

/** A receipt, kept on this phone once seen: offline it reads as a saved copy (issue 35.5). */
export function useReceipt(reference: string) {
  return useQuery({
    queryKey: paymentKeys.receipt(reference),
    ...keptOffline('receipt', paymentKeys.receipt(reference), () =>
      api.get<Receipt>(`/payments/receipt/${encodeURIComponent(reference)}/`, { timeout: TIMINGS.paymentClientTimeout }),
    ),
    retry: false,
  });
}

export function downloadReceiptPdf(reference: string) {
  return api.get<Blob>(`/payments/receipt/${encodeURIComponent(reference)}/pdf/`, { timeout: TIMINGS.paymentClientTimeout, blob: true });
}

export function useFeeSchedules(sessionId: number | null) {
  return useQuery({
    queryKey: paymentKeys.feeSchedules(sessionId),
    queryFn: () =>
      api.get<FeeSchedule[]>('/payments/fee-schedules/', {
        query: { session_id: sessionId ?? undefined },
        timeout: TIMINGS.defaultTimeout,
      }),
    enabled: sessionId !== null,
  });
}

export interface FeeScheduleBody {
  student_class: string;
  session_id: number;
  term: string;
  amount: string;
  description: string;
  name?: string;
  compulsory?: boolean;
}

/** The same items for many classes, and copying a term's items. */
export interface FeeItemsBulkBody {
  session_id: number;
  term: string;
  classes: string[];
  /** `due_on`: the day the school wants it paid by; omitted keeps an existing item's. */
  items: { name: string; amount: string; compulsory: boolean; description?: string; due_on?: string }[];
}
export interface FeeItemsCopyBody {
  from_session_id: number;
  from_term: string;
  to_session_id: number;
  to_term: string;
}

export function useFeeScheduleMutations() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: paymentKeys.all });
  return {
    create: useMutation({
      mutationFn: (b: FeeScheduleBody) => api.post<FeeSchedule>('/payments/fee-schedules/', b, { timeout: TIMINGS.defaultTimeout }),
      onSuccess: done,
    }),
    bulk: useMutation({
      mutationFn: (b: FeeItemsBulkBody) =>
        api.post<FeeItemsBulkResult>('/payments/fee-items/bulk/', b, { timeout: TIMINGS.defaultTimeout }),
      onSuccess: done,
    }),
    copy: useMutation({
      mutationFn: (b: FeeItemsCopyBody) =>
        api.post<FeeItemsCopyResult>('/payments/fee-items/copy/', b, { timeout: TIMINGS.defaultTimeout }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({
        id,
        ...b
      }: {
        id: number;
        amount: string;
        description: string;
        name?: string;
        compulsory?: boolean;
        /** null: due when the term begins. */
        due_on?: string | null;
      }) => api.put<FeeSchedule>(`/payments/fee-schedules/${id}/`, b, { timeout: TIMINGS.defaultTimeout }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: number) => api.delete<null>(`/payments/fee-schedules/${id}/`, { timeout: TIMINGS.defaultTimeout }),
      onSuccess: done,
    }),
  };
}
