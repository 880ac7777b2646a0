import { useState, type FormEvent } from 'react';
import { RESULT_ADMIN_MESSAGES, RESULT_MESSAGES } from '@portal/domain/result-messages';
import { sessionNameField } from '@portal/domain/result-schemas';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { TextField } from '../../../components/ui/field';
import { firstServerMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useCreateSession, useUpdateSession } from '../api';
import { useSessions } from '../../../lib/school-calendar';
import { QueryView } from '../../../components/ui/query-view';

const firstError = (err: unknown): string => firstServerMessage(err) ?? RESULT_ADMIN_MESSAGES.sessionSaveFailed;

/** /sessions (admin): create, rename and mark the current academic session. */
export default function SessionsAdminPage() {
  const sessions = useSessions();
  const createSession = useCreateSession();
  const updateSession = useUpdateSession();
  const toast = useToast();
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [editing, setEditing] = useState<{ id: number; name: string; error: string } | null>(null);

  async function create(e: FormEvent) {
    e.preventDefault();
    const parsed = sessionNameField.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]!.message);
      return;
    }
    try {
      await createSession.mutateAsync(parsed.data);
      toast.success(RESULT_MESSAGES.sessionCreated);
      setName('');
      setError('');
    } catch (err) {
      setError(firstError(err));
    }
  }

  async function patch(id: number, body: { name?: string; is_current?: boolean }) {
    try {
      await updateSession.mutateAsync({ id, body });
      toast.success(RESULT_MESSAGES.sessionUpdated);
      setEditing(null);
    } catch (err) {
      if (editing) setEditing({ ...editing, error: firstError(err) });
      else toast.error(firstError(err));
    }
  }

  return (
    <PageLayout title="Academic Sessions">
      <Card title="New session" className="mb-5">
        <form className="flex flex-col gap-3 sm:flex-row sm:items-start" onSubmit={(e) => void create(e)} noValidate>
          <div className="sm:w-64">
            <TextField
              label="Session name"
              placeholder="2026/2027"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={error || undefined}
            />
          </div>
          <Button type="submit" className="sm:mt-6">
            Create Session
          </Button>
        </form>
      </Card>
      <Card title="Sessions">
        <QueryView query={sessions} messages={RESULT_MESSAGES.sessionsFailed} empty={RESULT_ADMIN_MESSAGES.noSessions}>
          {(data) => (
            <ul className="divide-y divide-slate-100">
              {data.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  {editing?.id === s.id ? (
                    <form
                      className="flex flex-wrap items-start gap-2"
                      onSubmit={(e) => {
                        e.preventDefault();
                        void patch(s.id, { name: editing.name });
                      }}
                    >
                      <TextField
                        label={`New name for ${s.name}`}
                        value={editing.name}
                        onChange={(e) => setEditing({ ...editing, name: e.target.value, error: '' })}
                        error={editing.error || undefined}
                      />
                      <SaveCancel label="Save" buttonClassName="mt-6" onCancel={() => setEditing(null)} />
                    </form>
                  ) : (
                    <p className="font-semibold">
                      {s.name}
                      {s.is_current && <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs text-brand-900">Current</span>}
                    </p>
                  )}
                  {editing?.id !== s.id && (
                    <div className="flex gap-2">
                      <Button
                        variant="secondary"
                        onClick={() => setEditing({ id: s.id, name: s.name, error: '' })}
                        aria-label={`Rename ${s.name}`}
                      >
                        Rename
                      </Button>
                      {!s.is_current && (
                        <Button onClick={() => void patch(s.id, { is_current: true })} aria-label={`Make ${s.name} current`}>
                          Make current
                        </Button>
                      )}
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      </Card>
    </PageLayout>
  );
}
