import { useState, type FormEvent } from 'react';
import { CLASS_LEVELS, type ClassArm, type ClassLevel } from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../lib/toast';
import { useCreateArm, usePatchArm } from '../api';
import { teachingError } from '../errors';
import { useRowAction, RowActions } from './row-actions';

export function ArmsCard({ arms }: { arms: ClassArm[] }) {
  const toast = useToast();
  const createArm = useCreateArm();
  const patchArm = usePatchArm();
  const [level, setLevel] = useState<ClassLevel>('JSS 1');
  const [arm, setArm] = useState('');
  const [error, setError] = useState('');
  const [editing, setEditing] = useState<{ id: number; arm: string; error: string } | null>(null);
  const rowAction = useRowAction();

  async function add(e: FormEvent) {
    e.preventDefault();
    try {
      const created = await createArm.mutateAsync({ level, arm: arm.trim() });
      toast.success(M.armAdded(created.name));
      setArm('');
      setError('');
    } catch (err) {
      setError(teachingError(err));
    }
  }

  async function rename(a: ClassArm) {
    if (!editing) return;
    try {
      const saved = await patchArm.mutateAsync({ id: a.id, body: { arm: editing.arm.trim() } });
      toast.success(M.armRenamed(a.name, saved.name));
      setEditing(null);
    } catch (err) {
      setEditing({ ...editing, error: teachingError(err) });
    }
  }

  const retire = (a: ClassArm, retired: boolean) =>
    rowAction.run(a.id, async () => {
      await patchArm.mutateAsync({ id: a.id, body: { retired } });
      return retired ? M.armRetired(a.name) : M.armRestored(a.name);
    });

  return (
    <Card title="Class arms">
      <form className="mb-4 grid gap-3 sm:grid-cols-[10rem_12rem_auto] sm:items-start" onSubmit={(e) => void add(e)} noValidate>
        <SelectField label="Class level" value={level} onChange={(e) => setLevel(e.target.value as ClassLevel)} options={CLASS_LEVELS} />
        <TextField
          label="New arm"
          placeholder="D or Gold"
          value={arm}
          maxLength={20}
          onChange={(e) => {
            setArm(e.target.value);
            setError('');
          }}
          error={error || undefined}
        />
        <Button type="submit" loading={createArm.isPending} className="sm:mt-6">
          Add arm
        </Button>
      </form>
      <p className="mb-3 text-sm text-slate-600">{M.renameExplain}</p>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {CLASS_LEVELS.map((lv) => (
          <section key={lv} aria-label={lv} className="rounded-lg border border-slate-200 p-3">
            <h3 className="mb-2 font-semibold text-brand-900">{lv}</h3>
            <ul className="flex flex-col gap-2">
              {arms
                .filter((a) => a.level === lv)
                .map((a) => (
                  <li key={a.id} className="flex flex-col gap-1" data-testid={`arm-${a.name}`}>
                    {editing?.id === a.id ? (
                      <form
                        className="flex flex-wrap items-start gap-2"
                        onSubmit={(e) => {
                          e.preventDefault();
                          void rename(a);
                        }}
                        noValidate
                      >
                        <div className="w-32">
                          <TextField
                            label={`New arm for ${a.name}`}
                            value={editing.arm}
                            maxLength={20}
                            onChange={(e) => setEditing({ ...editing, arm: e.target.value, error: '' })}
                            error={editing.error || undefined}
                          />
                        </div>
                        <Button type="submit" className="mt-6" loading={patchArm.isPending}>
                          Save
                        </Button>
                        <Button variant="ghost" className="mt-6" onClick={() => setEditing(null)}>
                          Cancel
                        </Button>
                      </form>
                    ) : (
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <p className={a.retired ? 'text-slate-500 line-through' : 'font-medium'}>
                          {a.name}{' '}
                          <span className="text-sm font-normal text-slate-600 no-underline">
                            ({a.students} {a.students === 1 ? 'student' : 'students'}){a.retired && ' · retired'}
                          </span>
                        </p>
                        <RowActions
                          name={a.name}
                          edit={a.retired ? undefined : { label: 'Rename', onClick: () => setEditing({ id: a.id, arm: a.arm, error: '' }) }}
                          other={{ label: a.retired ? 'Restore' : 'Retire', onClick: () => void retire(a, !a.retired) }}
                        />
                      </div>
                    )}
                    {rowAction.errorOf(a.id)}
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
    </Card>
  );
}
