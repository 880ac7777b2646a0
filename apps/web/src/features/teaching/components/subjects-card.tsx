import { useState } from 'react';
import {
  SUBJECT_SECTIONS,
  subjectCreateSchema,
  subjectPatchSchema,
  type CatalogueSubject,
  type SubjectSection,
} from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { useToast } from '../../../lib/toast';
import { useCreateSubject, usePatchSubject } from '../api';
import { teachingError } from '../errors';
import { useTeachingForm } from '../teaching-form';
import { useRowAction, RetireRowActions } from './row-actions';

const SECTION_LABEL: Record<SubjectSection, string> = { JSS: 'JSS only', SSS: 'SSS only', ALL: 'JSS and SSS' };
const SECTION_OPTIONS = SUBJECT_SECTIONS.map((s) => ({ value: s, label: SECTION_LABEL[s] }));

type SubjectDraft = { name: string; code: string; section: string };
/** What is sent: the name and code as typed, trimmed (the section is one of the select's, which the schema checks). */
const subjectBody = (d: SubjectDraft) => ({ name: d.name.trim(), code: d.code.trim(), section: d.section as SubjectSection });

/** A subject's name, code and section: the add form, and a row's edit in its place (`onCancel`). */
function SubjectForm({
  initial,
  schema,
  submitLabel,
  idPrefix,
  onSubmit,
  onCancel,
  busy,
}: {
  initial: SubjectDraft;
  schema: typeof subjectCreateSchema | typeof subjectPatchSchema;
  submitLabel: string;
  idPrefix: string;
  onSubmit: (d: SubjectDraft) => Promise<string | null>;
  onCancel?: () => void;
  busy: boolean;
}) {
  const form = useTeachingForm<SubjectDraft>({ at: 'form', defaultValues: initial, schema, toBody: subjectBody });
  const onValid = async (d: SubjectDraft) => {
    const refused = await onSubmit(d);
    if (refused) form.refuse(refused);
    else if (!onCancel) form.setValues(initial);
  };
  return (
    <form
      className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_8rem_10rem_auto] sm:items-start"
      ref={form.formRef}
      onSubmit={(e) => void form.submit(onValid)(e)}
      noValidate
    >
      <TextField
        label={`${idPrefix}Subject name`}
        value={form.values.name}
        maxLength={60}
        onChange={(e) => form.type('name', e.target.value)}
      />
      <TextField
        label={`${idPrefix}Code`}
        value={form.values.code}
        maxLength={10}
        onChange={(e) => form.type('code', e.target.value.toUpperCase())}
      />
      <SelectField
        label={`${idPrefix}Section`}
        value={form.values.section}
        onChange={(e) => form.set('section', e.target.value)}
        options={SECTION_OPTIONS}
      />
      <div className="flex gap-2 sm:mt-6">
        <SaveCancel label={submitLabel} busy={busy} onCancel={onCancel} />
      </div>
      {form.message && (
        <Alert tone="error" className="sm:col-span-4">
          {form.message}
        </Alert>
      )}
    </form>
  );
}

export function SubjectsCard({ subjects }: { subjects: CatalogueSubject[] }) {
  const toast = useToast();
  const createSubject = useCreateSubject();
  const patchSubject = usePatchSubject();
  const [editing, setEditing] = useState<number | null>(null);
  const [showRetired, setShowRetired] = useState(false);
  const rowAction = useRowAction();
  const shown = subjects.filter((s) => showRetired || !s.retired);

  async function create(d: SubjectDraft): Promise<string | null> {
    try {
      const s = await createSubject.mutateAsync(subjectBody(d));
      toast.success(M.subjectAdded(s.name));
      return null;
    } catch (err) {
      return teachingError(err);
    }
  }

  async function save(s: CatalogueSubject, d: SubjectDraft): Promise<string | null> {
    try {
      await patchSubject.mutateAsync({ id: s.id, body: subjectBody(d) });
      toast.success(M.subjectSaved(d.name.trim()));
      setEditing(null);
      return null;
    } catch (err) {
      return teachingError(err);
    }
  }

  const retire = (s: CatalogueSubject, retired: boolean) =>
    rowAction.run(s.id, async () => {
      await patchSubject.mutateAsync({ id: s.id, body: { retired } });
      return retired ? M.subjectRetired(s.name) : M.subjectSaved(s.name);
    });

  return (
    <Card title="Subject catalogue">
      <h3 className="mb-2 text-sm font-semibold text-slate-800">Add a subject</h3>
      <SubjectForm
        initial={{ name: '', code: '', section: 'ALL' }}
        schema={subjectCreateSchema}
        submitLabel="Add subject"
        idPrefix=""
        onSubmit={create}
        busy={createSubject.isPending}
      />
      <label className="mt-4 inline-flex min-h-11 items-center gap-2 text-sm">
        <input type="checkbox" checked={showRetired} onChange={(e) => setShowRetired(e.target.checked)} />
        Show retired subjects
      </label>
      <ul className="mt-2 divide-y divide-slate-100" aria-label="Subjects">
        {shown.map((s) => (
          <li key={s.id} className="py-2" data-testid={`subject-${s.code}`}>
            {editing === s.id ? (
              <SubjectForm
                initial={{ name: s.name, code: s.code, section: s.section }}
                schema={subjectPatchSchema}
                submitLabel="Save"
                idPrefix={`${s.name}: `}
                onSubmit={(d) => save(s, d)}
                onCancel={() => setEditing(null)}
                busy={patchSubject.isPending}
              />
            ) : (
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className={s.retired ? 'text-slate-500' : ''}>
                  <span className="font-medium">{s.name}</span>{' '}
                  <span className="text-sm text-slate-600">
                    {s.code} · {SECTION_LABEL[s.section]}
                    {s.retired && ' · retired'}
                  </span>
                </p>
                <RetireRowActions
                  name={s.name}
                  retired={s.retired}
                  edit={{ label: 'Edit', onClick: () => setEditing(s.id) }}
                  onRetire={(retired) => void retire(s, retired)}
                />
              </div>
            )}
            {rowAction.errorOf(s.id)}
          </li>
        ))}
      </ul>
    </Card>
  );
}
