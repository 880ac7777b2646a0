import { useEffect, useRef } from 'react';
import { TERMS } from '@portal/domain/constants';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { SelectField } from '../ui/field';
import { useToast } from '../../lib/toast';
import { openingTerm, useCurrentTerm } from '../../lib/current-term';
import { ApiError } from '../../lib/api-client';
import { currentSessionId, useSessions } from '../../lib/school-calendar';
import { SessionSelect } from './session-select';

/**
 * Academic Session and Academic Term selects: the term stays disabled until a session is
 * chosen, and changing the session clears the term. The current session is preselected; with
 * `openOnCurrentTerm` the calendar's current session and term (the screens the spec does not fix,
 * which open on today's term).
 */
export function SessionTermFields({
  sessionId,
  term,
  onSession,
  onTerm,
  errors = {},
  preselect = true,
  openOnCurrentTerm = false,
  names,
}: {
  sessionId: string;
  term: string;
  onSession: (id: string) => void;
  onTerm: (term: string) => void;
  errors?: { session_id?: string | string[]; term?: string | string[] };
  preselect?: boolean;
  /** Open on the current term (the server's), not only the current session. */
  openOnCurrentTerm?: boolean;
  /** The selects' form names: a page rendered on the server submits its form before the app runs. */
  names?: { session: string; term: string };
}) {
  const sessions = useSessions();
  const toast = useToast();
  const warned = useRef(false);
  const preselected = useRef(false);
  useEffect(() => {
    if (sessions.isError && !warned.current) {
      warned.current = true;
      toast.error(RESULT_MESSAGES.sessionsFailed);
      if (sessions.error instanceof ApiError && sessions.error.status === 401) toast.error(RESULT_MESSAGES.pleaseLoginAgain);
    }
  }, [sessions.isError, sessions.error, toast]);
  const current = useCurrentTerm(openOnCurrentTerm);
  useEffect(() => {
    if (!preselect || preselected.current || !sessions.data || sessionId) return;
    if (!openOnCurrentTerm) {
      preselected.current = true;
      onSession(currentSessionId(sessions.data));
      return;
    }
    const open = openingTerm(sessions.data, current);
    if (!open) return;
    preselected.current = true;
    onSession(open.sessionId);
    if (open.term && !term) onTerm(open.term);
  }, [preselect, openOnCurrentTerm, sessions.data, sessionId, term, current, onSession, onTerm]);

  return (
    <>
      <SessionSelect
        label="Academic Session"
        required
        name={names?.session}
        value={sessionId}
        onChange={(e) => {
          onSession(e.target.value);
          onTerm('');
        }}
        error={errors.session_id}
      />
      <SelectField
        label="Academic Term"
        required
        name={names?.term}
        value={term}
        disabled={!sessionId}
        onChange={(e) => onTerm(e.target.value)}
        placeholder="Select term"
        options={TERMS}
        error={errors.term}
      />
    </>
  );
}
