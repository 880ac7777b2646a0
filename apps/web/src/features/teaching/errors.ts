import { TEACHING_SCREEN_MESSAGES } from '@portal/domain/teaching-screens';
import { ApiError } from '../../lib/api-client';
import { firstServerMessage } from '../../lib/errors';
import { GENERAL_MESSAGES } from '@portal/domain/http';

/** A refused teaching write in the server's own words (a 400's first field message, a 403/404/409 detail). */
export function teachingError(err: unknown): string {
  if (err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout')) return GENERAL_MESSAGES.networkError;
  return firstServerMessage(err) ?? TEACHING_SCREEN_MESSAGES.saveFailed;
}
