import { useState } from 'react';
import { CLASS_LEVELS, armCreateSchema, armPatchSchema, type ClassArm, type ClassLevel } from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { useToast } from '../../../lib/toast';
import { useCreateArm, usePatchArm } from '../api';
import { teachingError } from '../errors';
import { useTeachingForm } from '../teaching-form';
import { useRowAction, RetireRowActions } from './row-actions';

type NewArm = { level: string; arm: string };
/** What is sent: the arm as typed, trimmed (the level is one of the select's, which the schema checks). */
const newArmBody = (v: NewArm) => ({ level: v.level as ClassLevel, arm: v.arm.trim() });
const renameBody = (v: { arm: string }) => ({ arm: v.arm.trim() });

/** An arm's rename in place of its row; a refusal shows under the field. */
function RenameArmForm({ arm, onDone }: { arm: ClassArm; onDone: () => void }) {
  const toast = useToast();
  const patchArm = usePatchArm();
  const form = useTeachingForm({ at: 'arm', defaultValues: { arm: arm.arm }, schema: armPatchSchema, toBody: renameBody });
  const onValid = async (values: { arm: string }) => {
    try {
      const saved = await patchArm.mutateAsync({ id: arm.id, body: renameBody(values) });
      toast.success(M.armRenamed(arm.name, saved.name));
      onDone();
    } catch (err) {
      form.refuse(teachingError(err));
    }
  };
  return (
    <form className="flex flex-wrap items-start gap-2" ref={form.formRef} onSubmit={(e) => void form.submit(onValid)(e)} noValidate>
      <div className="w-32">
        <TextField
          label={`New arm for ${arm.name}`}
          value={form.values.arm}
          maxLength={20}
          onChange={(e) => form.type('arm', e.target.value)}
          error={form.message}
        />
      </div>
      <SaveCancel label="Save" busy={patchArm.isPending} onCancel={onDone} buttonClassName="mt-6" />
    </form>
  );
}

export function ArmsCard({ arms }: { arms: ClassArm[] }) {
  const toast = useToast();
  const createArm = useCreateArm();
  const patchArm = usePatchArm();
  const form = useTeachingForm<NewArm>({
    at: 'arm',
    defaultValues: { level: 'JSS 1', arm: '' },
    schema: armCreateSchema,
    toBody: newArmBody,
  });
  const [editing, setEditing] = useState<number | null>(null);
  const rowAction = useRowAction();

  const add = async (values: NewArm) => {
    try {
      const created = await createArm.mutateAsync(newArmBody(values));
      toast.success(M.armAdded(created.name));
      form.setValues({ ...values, arm: '' });
    } catch (err) {
      form.refuse(teachingError(err));
    }
  };

  const retire = (a: ClassArm, retired: boolean) =>
    rowAction.run(a.id, async () => {
      await patchArm.mutateAsync({ id: a.id, body: { retired } });
      return retired ? M.armRetired(a.name) : M.armRestored(a.name);
    });

  return (
    <Card title="Class arms">
      <form
        className="mb-4 grid gap-3 sm:grid-cols-[10rem_12rem_auto] sm:items-start"
        ref={form.formRef}
        onSubmit={(e) => void form.submit(add)(e)}
        noValidate
      >
        <SelectField
          label="Class level"
          value={form.values.level}
          onChange={(e) => form.set('level', e.target.value)}
          options={CLASS_LEVELS}
        />
        <TextField
          label="New arm"
          placeholder="D or Gold"
          value={form.values.arm}
          maxLength={20}
          onChange={(e) => form.type('arm', e.target.value)}
          error={form.message}
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
                    {editing === a.id ? (
                      <RenameArmForm arm={a} onDone={() => setEditing(null)} />
                    ) : (
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <p className={a.retired ? 'text-slate-500 line-through' : 'font-medium'}>
                          {a.name}{' '}
                          <span className="text-sm font-normal text-slate-600 no-underline">
                            ({a.students} {a.students === 1 ? 'student' : 'students'}){a.retired && ' · retired'}
                          </span>
                        </p>
                        <RetireRowActions
                          name={a.name}
                          retired={a.retired}
                          edit={{ label: 'Rename', onClick: () => setEditing(a.id) }}
                          onRetire={(retired) => void retire(a, retired)}
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
