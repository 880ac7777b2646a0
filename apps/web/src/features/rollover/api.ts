import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RolloverPreview, RolloverResult } from '@portal/domain/rollover';
import { api } from '../../lib/api-client';
import { useGet } from '../../lib/get-query';

export const rolloverKeys = {
  preview: (fromSessionId: string) => ['session-rollover', 'preview', fromSessionId] as const,
};

/** What starting the next session from `fromSessionId` would make ('' : from the current session). */
export function useRolloverPreview(fromSessionId: string) {
  return useGet<RolloverPreview>(
    rolloverKeys.preview(fromSessionId),
    '/session-rollover/preview/',
    fromSessionId ? { from_session_id: fromSessionId } : {},
  );
}

/** The one step; afterwards every screen reads the sessions again (the new one, maybe current). */
export function useStartNextSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: unknown) => api.post<RolloverResult>('/session-rollover/', body, { timeout: 30_000 }),
    onSuccess: () => qc.invalidateQueries(),
  });
}
