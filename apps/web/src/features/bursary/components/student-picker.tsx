import { useState } from 'react';
import { BURSARY_SCREEN_LABELS as L } from '@portal/domain/bursary-screens';
import { TextField } from '../../../components/ui/field';
import { SessionSelect } from '../../../components/school/session-select';
import { useSessions } from '../../../lib/school-calendar';
import { FilterForm } from './filter-form';

/** The session in the address, else the current one; `ready` once the list has answered (or failed). */
export function useSessionParam(params: URLSearchParams): { sessionId: number | undefined; ready: boolean } {
  const sessions = useSessions();
  const picked = Number(params.get('session_id'));
  const sessionId = picked > 0 ? picked : sessions.data?.find((s) => s.is_current)?.id;
  return { sessionId, ready: picked > 0 || !sessions.isPending };
}

export function StatementSessionSelect({ value, onChange }: { value: string; onChange: (id: string) => void }) {
  return <SessionSelect label={L.session} value={value} onChange={(e) => onChange(e.target.value)} />;
}

/**
 * Which student a bursar's screen is about (the statement, the discounts): the admission number is
 * applied on "Open", a session chosen at once; `patch` keeps both in the address.
 */
export function StudentPicker({
  label,
  admissionNumber,
  sessionId,
  patch,
}: {
  label: string;
  admissionNumber: string;
  sessionId: number | undefined;
  patch: (p: Record<string, string>) => void;
}) {
  const [typed, setTyped] = useState(admissionNumber);
  return (
    <FilterForm
      className="grid gap-3 sm:grid-cols-3 sm:items-end"
      label={label}
      submitLabel={L.open}
      onApply={() => patch({ admission_number: typed.trim().toUpperCase() })}
    >
      <TextField
        label={L.admissionNumber}
        value={typed}
        onChange={(e) => setTyped(e.target.value.toUpperCase())}
        autoComplete="off"
        placeholder="STU-0001"
      />
      <StatementSessionSelect value={sessionId ? String(sessionId) : ''} onChange={(id) => patch({ session_id: id })} />
    </FilterForm>
  );
}
