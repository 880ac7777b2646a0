import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { TERM_VALUES, TERMS, type Term } from '@portal/domain/constants';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M } from '@portal/domain/report-sheet-screens';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { useSession } from '../../../lib/auth-store';
import { openingTerm, useCurrentTerm } from '../../../lib/current-term';
import { useFormClasses } from '../../../lib/my-classes';
import type { SheetQuery } from '../api';
import { useSessions } from '../../../lib/school-calendar';
import { SessionSelect } from '../../../components/school/session-select';
import { ClassSelect } from '../../../components/school/class-select';

/** The sheet's query in the address (`?session_id&term&class`), once all three are there. */
export function useSheetQuery(): [SheetQuery | null, URLSearchParams, (p: Record<string, string>) => void] {
  const [params, setParams] = useSearchParams();
  const sessionId = Number(params.get('session_id'));
  const term = params.get('term') ?? '';
  const cls = params.get('class') ?? '';
  const q = useMemo(
    () =>
      sessionId > 0 && (TERM_VALUES as readonly string[]).includes(term) && cls
        ? { session_id: sessionId, term: term as Term, student_class: cls }
        : null,
    [sessionId, term, cls],
  );
  return [q, params, setParams];
}

/**
 * Session, term and class: the admin chooses among every arm, a staff member among the arms they
 * are form teacher of in the chosen session (the server refuses the others anyway).
 */
export function SheetChooser({
  params,
  onOpen,
  action,
}: {
  params: URLSearchParams;
  onOpen: (p: Record<string, string>) => void;
  action: string;
}) {
  const isAdmin = useSession()?.role === 'admin';
  const sessions = useSessions();
  const [sessionId, setSessionId] = useState(params.get('session_id') ?? '');
  const [term, setTerm] = useState(params.get('term') ?? '');
  const [cls, setCls] = useState(params.get('class') ?? '');
  const [error, setError] = useState('');
  const form = useFormClasses(sessionId, !isAdmin);
  // Opens on the current term (the server's, from the calendar) unless the address names a session.
  const current = useCurrentTerm();
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || sessionId || !sessions.data?.length) return;
    const open = openingTerm(sessions.data, current);
    if (!open) return;
    opened.current = true;
    setSessionId(open.sessionId);
    if (open.term) setTerm((t) => t || open.term);
  }, [sessionId, sessions.data, current]);
  // A staff member's arms: those they are form teacher of (a form teacher of one has nothing to choose).
  const arms = (form.data?.form_classes ?? []).map((c) => c.class_name);
  useEffect(() => {
    if (!isAdmin && !cls && arms.length === 1) setCls(arms[0]!);
  }, [isAdmin, cls, arms]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!sessionId || !term || !cls) return setError(M.choose);
    onOpen({ session_id: sessionId, term, class: cls });
  };
  return (
    <Card>
      <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end" onSubmit={submit} noValidate aria-label="Choose a class">
        <SessionSelect
          label={L.session}
          required
          value={sessionId}
          onChange={(e) => {
            setSessionId(e.target.value);
            setCls('');
          }}
        />
        <SelectField
          label={L.term}
          required
          value={term}
          onChange={(e) => setTerm(e.target.value)}
          placeholder="Select term"
          options={TERMS}
        />
        <ClassSelect label={L.arm} required value={cls} onChange={(e) => setCls(e.target.value)} arms={isAdmin ? undefined : arms} />
        <Button type="submit">{action}</Button>
      </form>
      {error && (
        <p className="mt-3 text-sm text-red-700" role="alert">
          {error}
        </p>
      )}
      {!isAdmin && form.data && !form.data.form_classes.length && (
        <Alert tone="info" className="mt-3">
          {M.noFormClasses}
        </Alert>
      )}
    </Card>
  );
}
