import { useState } from 'react';
import { streamSchema, type CatalogueSubject, type Stream } from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { Alert } from '../../../components/ui/alert';
import { Card, EmptyState } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { useToast } from '../../../lib/toast';
import { useDeleteStream, useSaveStream } from '../api';
import { teachingError } from '../errors';
import { useTeachingForm } from '../teaching-form';
import { useRowAction, RowActions } from './row-actions';

function StreamForm({
  initial,
  subjects,
  label,
  onSubmit,
  onCancel,
  busy,
}: {
  initial: { name: string; subject_ids: number[] };
  subjects: CatalogueSubject[];
  label: string;
  onSubmit: (d: { name: string; subject_ids: number[] }) => Promise<string | null>;
  onCancel?: () => void;
  busy: boolean;
}) {
  const [ids, setIds] = useState<number[]>(initial.subject_ids);
  // The name is the form's value; the ticked subjects are sent with it as they stand.
  const toBody = (v: { name: string }) => ({ name: v.name.trim(), subject_ids: ids });
  const form = useTeachingForm({ at: 'form', defaultValues: { name: initial.name }, schema: streamSchema, toBody });
  const onValid = async (values: { name: string }) => {
    const refused = await onSubmit(toBody(values));
    if (refused) form.refuse(refused);
    else if (!onCancel) {
      form.setValues({ name: '' });
      setIds([]);
    }
  };
  return (
    <form className="flex flex-col gap-3" aria-label={label} ref={form.formRef} onSubmit={(e) => void form.submit(onValid)(e)} noValidate>
      <div className="sm:w-64">
        <TextField label="Stream name" value={form.values.name} maxLength={40} onChange={(e) => form.type('name', e.target.value)} />
      </div>
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-800">Subjects of the stream</legend>
        <div className="grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
          {subjects.map((s) => (
            <label key={s.id} className="inline-flex min-h-11 items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={ids.includes(s.id)}
                onChange={(e) => setIds((l) => (e.target.checked ? [...l, s.id] : l.filter((x) => x !== s.id)))}
              />
              {s.name}
            </label>
          ))}
        </div>
      </fieldset>
      {form.message && <Alert tone="error">{form.message}</Alert>}
      <div className="flex gap-2">
        <SaveCancel label={onCancel ? 'Save stream' : 'Create stream'} busy={busy} onCancel={onCancel} />
      </div>
    </form>
  );
}

export function StreamsCard({ streams, subjects }: { streams: Stream[]; subjects: CatalogueSubject[] }) {
  const toast = useToast();
  const saveStream = useSaveStream();
  const deleteStream = useDeleteStream();
  const [editing, setEditing] = useState<number | null>(null);
  const rowAction = useRowAction();
  const senior = subjects.filter((s) => !s.retired && s.section !== 'JSS');
  const nameOf = (id: number) => subjects.find((s) => s.id === id)?.name ?? '';

  async function submit(id: number | undefined, body: { name: string; subject_ids: number[] }): Promise<string | null> {
    try {
      const s = await saveStream.mutateAsync({ id, body });
      toast.success(M.streamSaved(s.name));
      setEditing(null);
      return null;
    } catch (err) {
      return teachingError(err);
    }
  }

  const remove = (s: Stream) =>
    rowAction.run(s.id, async () => {
      await deleteStream.mutateAsync(s.id);
      return M.streamDeleted(s.name);
    });

  return (
    <Card title="SSS streams">
      {streams.length === 0 ? (
        <EmptyState>{M.noStreams}</EmptyState>
      ) : (
        <ul className="mb-4 divide-y divide-slate-100" aria-label="Streams">
          {streams.map((s) => (
            <li key={s.id} className="py-3" data-testid={`stream-${s.name}`}>
              {editing === s.id ? (
                <StreamForm
                  initial={s}
                  subjects={senior}
                  label={`Edit stream ${s.name}`}
                  onSubmit={(body) => submit(s.id, body)}
                  onCancel={() => setEditing(null)}
                  busy={saveStream.isPending}
                />
              ) : (
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-medium">{s.name}</p>
                    <p className="text-sm text-slate-600">{s.subject_ids.map(nameOf).filter(Boolean).join(', ') || 'No subjects yet'}</p>
                  </div>
                  <RowActions
                    name={`stream ${s.name}`}
                    edit={{ label: 'Edit', onClick: () => setEditing(s.id) }}
                    other={{ label: 'Delete', onClick: () => void remove(s) }}
                  />
                </div>
              )}
              {rowAction.errorOf(s.id)}
            </li>
          ))}
        </ul>
      )}
      <h3 className="mt-4 mb-2 text-sm font-semibold text-slate-800">New stream</h3>
      <StreamForm
        initial={{ name: '', subject_ids: [] }}
        subjects={senior}
        label="New stream"
        onSubmit={(body) => submit(undefined, body)}
        busy={saveStream.isPending}
      />
    </Card>
  );
}
