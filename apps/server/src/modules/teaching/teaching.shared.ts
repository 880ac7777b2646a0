import { TEACHING_MESSAGES, type AcademicSession } from '@portal/domain';
import { badRequest } from '../../http/errors';
import type { SessionsService } from '../calendar/sessions.service';

/** A session named by id (400 when unknown), or the current one (undefined when the school has none yet). */
export async function resolveSession(sessions: SessionsService, id: number | undefined): Promise<AcademicSession | undefined> {
  if (id === undefined) return sessions.currentOrLatest();
  const s = await sessions.byId(id);
  if (!s) throw badRequest({ session_id: [TEACHING_MESSAGES.sessionNotFound] });
  return s;
}
