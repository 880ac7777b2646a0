import { useState } from 'react';
import { TEACHING_MESSAGES, type SessionAssignments } from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useToast } from '../../../lib/toast';
import { useCopyAssignments, useSaveEnforcement } from '../api';
import { teachingError } from '../errors';

export function EnforcementCard({ sessionId, data }: { sessionId: number; data: SessionAssignments }) {
  const toast = useToast();
  const enforcement = useSaveEnforcement();
  const copy = useCopyAssignments();
  const [error, setError] = useState('');

  // The switch moves at once; a refused change puts it back.
  const [pending, setPending] = useState<boolean | null>(null);
  const enforced = pending ?? data.enforce_assignments;

  async function toggle(on: boolean) {
    setError('');
    setPending(on);
    try {
      await enforcement.mutateAsync({ session_id: sessionId, enforce_assignments: on });
      toast.success(on ? TEACHING_MESSAGES.enforcementOn : TEACHING_MESSAGES.enforcementOff);
    } catch (err) {
      setError(teachingError(err));
    } finally {
      setPending(null);
    }
  }

  async function copyLast() {
    setError('');
    try {
      const r = await copy.mutateAsync({ session_id: sessionId });
      toast.success(TEACHING_MESSAGES.copiedAssignments(r.copied, r.from));
    } catch (err) {
      setError(teachingError(err));
    }
  }

  return (
    <Card title="Who may enter scores">
      <label className="flex min-h-11 items-start gap-3">
        <input
          type="checkbox"
          role="switch"
          className="mt-1 h-5 w-5"
          checked={enforced}
          disabled={enforcement.isPending}
          onChange={(e) => void toggle(e.target.checked)}
          aria-describedby="enforcement-explain"
        />
        <span className="font-semibold">Only assigned teachers may enter scores</span>
      </label>
      <p id="enforcement-explain" className="mt-1 text-sm text-slate-600">
        {M.enforcementExplain}
      </p>
      <p className="mt-2 text-sm font-medium text-brand-900" data-testid="enforcement-state">
        {enforced ? TEACHING_MESSAGES.enforcementOn : TEACHING_MESSAGES.enforcementOff}
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button variant="secondary" loading={copy.isPending} onClick={() => void copyLast()}>
          Copy last session&apos;s assignments
        </Button>
      </div>
      {error && (
        <Alert tone="error" className="mt-3">
          {error}
        </Alert>
      )}
    </Card>
  );
}
