import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';
import { noticesKey } from '../../lib/notices-unread';
import type { NoticeReminders, NoticeTemplateBody } from '@portal/domain/notice-templates-schemas';
import type {
  Blast,
  BlastEstimate,
  BlastInput,
  BlastPage,
  InboxPage,
  NoticeKind,
  NoticeLogPage,
  NoticePreferencesView,
  NoticeSettings,
  NoticeSettingsView,
  NoticeTemplate,
} from './contract';

const T = { timeout: 15_000 };

export interface MessageFilter {
  status: string;
  kind: string;
  page: number;
}

/**
 * Query keys: the inbox under `['notices']` (shared with the top bar's unread badge, lib/notices-unread),
 * the school's notice set-up and sending under `['notice-admin']`.
 */
export const noticeKeys = {
  inbox: (page: number) => [...noticesKey, 'inbox', page] as const,
  preferences: ['notice-preferences'] as const,
  admin: ['notice-admin'] as const,
  settings: ['notice-admin', 'settings'] as const,
  templates: ['notice-admin', 'templates'] as const,
  reminders: ['notice-admin', 'reminders'] as const,
  blasts: ['notice-admin', 'blasts'] as const,
  blast: (id: number) => ['notice-admin', 'blasts', id] as const,
  messages: (f: MessageFilter) => ['notice-admin', 'messages', f] as const,
};

export function useInbox(page: number) {
  return useGet<InboxPage>(noticeKeys.inbox(page), '/notices/', { page }, { placeholderData: (prev) => prev });
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<unknown>(`/notices/${id}/read/`, {}, T),
    onSuccess: () => qc.invalidateQueries({ queryKey: noticesKey }),
  });
}

export function usePreferences() {
  return useGet<NoticePreferencesView>(noticeKeys.preferences, '/notice-preferences/', {});
}

export function useSavePreferences() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (kinds: { kind: NoticeKind; opted_out: boolean }[]) => api.put<NoticePreferencesView>('/notice-preferences/', { kinds }, T),
    onSuccess: (saved) => qc.setQueryData(noticeKeys.preferences, saved),
  });
}

export function useNoticeSettings() {
  return useGet<NoticeSettingsView>(noticeKeys.settings, '/notice-settings/', {}, { refetchOnWindowFocus: false });
}

export function useSaveNoticeSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NoticeSettings) => api.put<NoticeSettingsView>('/notice-settings/', body, T),
    onSuccess: (saved) => qc.setQueryData(noticeKeys.settings, saved),
  });
}

/** Every kind's template, its placeholders and defaults. */
export function useTemplates() {
  return useQuery({
    queryKey: noticeKeys.templates,
    queryFn: async ({ signal }) => {
      return api.get<NoticeTemplate[]>('/notice-templates/', { ...T, signal });
    },
    retry: false,
    refetchOnWindowFocus: false,
  });
}

export function useSaveTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, body }: { kind: NoticeKind; body: NoticeTemplateBody }) =>
      api.put<NoticeTemplate>(`/notice-templates/${kind}/`, body, T),
    onSuccess: () => qc.invalidateQueries({ queryKey: noticeKeys.templates }),
  });
}

export function useReminders() {
  return useGet<NoticeReminders>(noticeKeys.reminders, '/notice-reminders/', {}, { refetchOnWindowFocus: false });
}

export function useSaveReminders() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NoticeReminders) => api.put<NoticeReminders>('/notice-reminders/', body, T),
    onSuccess: (saved) => qc.setQueryData(noticeKeys.reminders, saved),
  });
}

export function useEstimateBlast() {
  return useMutation({ mutationFn: (body: BlastInput) => api.post<BlastEstimate>('/notice-blasts/estimate/', body, T) });
}

export function useSendBlast() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BlastInput) => api.post<{ id: number }>('/notice-blasts/', body, { timeout: 30_000 }),
    onSuccess: () => qc.invalidateQueries({ queryKey: noticeKeys.blasts }),
  });
}

/** The latest blasts (the first page, newest first). */
export function useBlasts() {
  return useQuery({
    queryKey: noticeKeys.blasts,
    queryFn: async ({ signal }) => {
      const data = await api.get<BlastPage>('/notice-blasts/', { ...T, signal });
      return data.results;
    },
    retry: false,
  });
}

/** How often a sending blast's counts are asked again. */
export const BLAST_POLL_MS = 2_000;

/** One blast, asked again every 2 s while it is sending (its counts move as the worker sends). */
export function useBlast(id: number) {
  return useGet<Blast>(noticeKeys.blast(id), `/notice-blasts/${id}/`, Number.isInteger(id) && id > 0 ? {} : null, {
    refetchInterval: (query) => (query.state.data?.status === 'sending' ? BLAST_POLL_MS : false),
  });
}

export type BlastAction = 'pause' | 'resume' | 'cancel';

export function useBlastAction(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (action: BlastAction) => api.post<Blast | null>(`/notice-blasts/${id}/${action}/`, {}, T),
    onSuccess: () => qc.invalidateQueries({ queryKey: noticeKeys.blasts }),
  });
}

export function useMessages(f: MessageFilter) {
  return useGet<NoticeLogPage>(noticeKeys.messages(f), '/notice-messages/', f, { placeholderData: (prev) => prev });
}
