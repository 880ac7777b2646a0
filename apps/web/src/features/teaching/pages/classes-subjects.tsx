import { useState, type FormEvent } from 'react';
import {
  CLASS_LEVELS,
  OFFERING_KINDS,
  OFFERING_KIND_LABELS,
  SUBJECT_SECTIONS,
  TEACHING_MESSAGES,
  sectionAllows,
  type OfferingKind,
  type CatalogueSubject,
  type ClassArm,
  type ClassLevel,
  type Stream,
  type SubjectSection,
  type TeachingStructure,
} from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { useToast } from '../../../lib/toast';
import {
  useCreateArm,
  useCreateSubject,
  useDeleteStream,
  usePatchArm,
  usePatchSubject,
  useSaveOfferings,
  useSaveStream,
  useSetSubjectOfferings,
  useStructure,
} from '../api';
import { GridHead, GridSelect } from '../components/grid';
import { teachingError } from '../errors';
import { ScrollTable } from '../../../components/ui/scroll-table';
import { QueryView } from '../../../components/ui/query-view';

const SECTION_LABEL: Record<SubjectSection, string> = { JSS: 'JSS only', SSS: 'SSS only', ALL: 'JSS and SSS' };
const SECTION_OPTIONS = SUBJECT_SECTIONS.map((s) => ({ value: s, label: SECTION_LABEL[s] }));

/** /classes-subjects (admin): arms per class level, the subject catalogue, what each level offers, SSS streams. */
export default function ClassesSubjectsPage() {
  const structure = useStructure();
  return (
    <PageLayout title="Classes and Subjects" width="max-w-6xl">
      <QueryView query={structure} messages={M.loadFailed}>
        {(data) => (
          <div className="flex flex-col gap-5">
            <ArmsCard arms={data.arms} />
            <SubjectsCard subjects={data.subjects} />
            <OfferingsCard structure={data} />
            <StreamsCard streams={data.streams} subjects={data.subjects} />
          </div>
        )}
      </QueryView>
    </PageLayout>
  );
}

/**
 * A list's one-click row changes (retire, restore, delete): a success is a toast, a refusal is
 * shown under the row it concerns, in the server's words.
 */
function useRowAction() {
  const toast = useToast();
  const [rowError, setRowError] = useState<{ id: number; text: string } | null>(null);
  async function run(id: number, work: () => Promise<string>) {
    setRowError(null);
    try {
      toast.success(await work());
    } catch (err) {
      setRowError({ id, text: teachingError(err) });
    }
  }
  const errorOf = (id: number) => (rowError?.id === id ? <Alert tone="error">{rowError.text}</Alert> : null);
  return { run, errorOf };
}

/** A row's two buttons (edit, then retire/restore or delete), each named with the row's name for screen readers. */
function RowActions({
  name,
  edit,
  other,
}: {
  name: string;
  edit?: { label: string; onClick: () => void };
  other: { label: string; onClick: () => void };
}) {
  return (
    <div className="flex gap-1">
      {edit && (
        <Button variant="secondary" className="min-h-9 px-3" aria-label={`${edit.label} ${name}`} onClick={edit.onClick}>
          {edit.label}
        </Button>
      )}
      <Button variant="ghost" className="min-h-9 px-3" aria-label={`${other.label} ${name}`} onClick={other.onClick}>
        {other.label}
      </Button>
    </div>
  );
}

// ---- Arms ----

function ArmsCard({ arms }: { arms: ClassArm[] }) {
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

// ---- Subject catalogue ----

interface SubjectDraft {
  name: string;
  code: string;
  section: SubjectSection;
}

function SubjectForm({
  initial,
  submitLabel,
  idPrefix,
  onSubmit,
  onCancel,
  busy,
}: {
  initial: SubjectDraft;
  submitLabel: string;
  idPrefix: string;
  onSubmit: (d: SubjectDraft) => Promise<string | null>;
  onCancel?: () => void;
  busy: boolean;
}) {
  const [d, setD] = useState(initial);
  const [error, setError] = useState('');
  return (
    <form
      className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_8rem_10rem_auto] sm:items-start"
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit(d).then((err) => {
          if (err) setError(err);
          else if (!onCancel) setD(initial);
        });
      }}
      noValidate
    >
      <TextField
        label={`${idPrefix}Subject name`}
        value={d.name}
        maxLength={60}
        onChange={(e) => {
          setD({ ...d, name: e.target.value });
          setError('');
        }}
      />
      <TextField
        label={`${idPrefix}Code`}
        value={d.code}
        maxLength={10}
        onChange={(e) => {
          setD({ ...d, code: e.target.value.toUpperCase() });
          setError('');
        }}
      />
      <SelectField
        label={`${idPrefix}Section`}
        value={d.section}
        onChange={(e) => setD({ ...d, section: e.target.value as SubjectSection })}
        options={SECTION_OPTIONS}
      />
      <div className="flex gap-2 sm:mt-6">
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
      {error && (
        <Alert tone="error" className="sm:col-span-4">
          {error}
        </Alert>
      )}
    </form>
  );
}

function SubjectsCard({ subjects }: { subjects: CatalogueSubject[] }) {
  const toast = useToast();
  const createSubject = useCreateSubject();
  const patchSubject = usePatchSubject();
  const [editing, setEditing] = useState<number | null>(null);
  const [showRetired, setShowRetired] = useState(false);
  const rowAction = useRowAction();
  const shown = subjects.filter((s) => showRetired || !s.retired);

  async function create(d: SubjectDraft): Promise<string | null> {
    try {
      const s = await createSubject.mutateAsync({ name: d.name.trim(), code: d.code.trim(), section: d.section });
      toast.success(M.subjectAdded(s.name));
      return null;
    } catch (err) {
      return teachingError(err);
    }
  }

  async function save(s: CatalogueSubject, d: SubjectDraft): Promise<string | null> {
    try {
      await patchSubject.mutateAsync({ id: s.id, body: { name: d.name.trim(), code: d.code.trim(), section: d.section } });
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
                <RowActions
                  name={s.name}
                  edit={s.retired ? undefined : { label: 'Edit', onClick: () => setEditing(s.id) }}
                  other={{ label: s.retired ? 'Restore' : 'Retire', onClick: () => void retire(s, !s.retired) }}
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

// ---- Offerings ----

type Offer = 'no' | 'compulsory' | 'elective';
const OFFER_OPTIONS: { value: Offer; label: string }[] = [
  { value: 'no', label: 'Not offered' },
  { value: 'compulsory', label: 'Compulsory' },
  { value: 'elective', label: 'Elective' },
];
const cellKey = (level: string, subjectId: number) => `${level}|${subjectId}`;

/**
 * One subject's offering for several class levels at once (one call, all or nothing): the column
 * an admin would otherwise set with one dropdown per level.
 */
function BulkOfferingForm({
  subjects,
  onApplied,
}: {
  subjects: CatalogueSubject[];
  onApplied: (subjectId: number, levels: ClassLevel[]) => void;
}) {
  const toast = useToast();
  const setOfferings = useSetSubjectOfferings();
  const [subjectId, setSubjectId] = useState('');
  const [offering, setOffering] = useState<OfferingKind>('compulsory');
  const [levels, setLevels] = useState<ClassLevel[]>([]);
  const [error, setError] = useState('');
  const subject = subjects.find((s) => String(s.id) === subjectId);

  async function apply(e: FormEvent) {
    e.preventDefault();
    if (!subject) return setError(M.bulkOfferingPickSubject);
    if (!levels.length) return setError(M.bulkOfferingPickLevels);
    const chosen = CLASS_LEVELS.filter((l) => levels.includes(l));
    try {
      await setOfferings.mutateAsync({ subjectId: subject.id, offering, levels: chosen });
      setError('');
      onApplied(subject.id, chosen);
      toast.success(TEACHING_MESSAGES.offeringsSetForLevels(subject.name, OFFERING_KIND_LABELS[offering], chosen));
    } catch (err) {
      setError(teachingError(err));
    }
  }

  return (
    <form
      className="mb-4 flex flex-col gap-3 rounded-lg border border-slate-200 p-3"
      aria-label={M.bulkOfferingTitle}
      onSubmit={(e) => void apply(e)}
    >
      <h3 className="text-base font-semibold">{M.bulkOfferingTitle}</h3>
      <p className="text-sm text-slate-600">{M.bulkOfferingExplain}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Subject"
          placeholder="Select subject"
          value={subjectId}
          onChange={(e) => {
            setSubjectId(e.target.value);
            setError('');
          }}
          options={subjects.map((s) => ({ value: String(s.id), label: s.name }))}
        />
        <SelectField
          label="Offering"
          value={offering}
          onChange={(e) => {
            setOffering(e.target.value as OfferingKind);
            setError('');
          }}
          options={OFFERING_KINDS.map((k) => ({ value: k, label: OFFERING_KIND_LABELS[k] }))}
        />
      </div>
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-800">Class levels</legend>
        <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-3">
          {CLASS_LEVELS.map((lv) => (
            <label key={lv} className="inline-flex min-h-11 items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={levels.includes(lv)}
                onChange={(e) => {
                  setLevels((l) => (e.target.checked ? [...l, lv] : l.filter((x) => x !== lv)));
                  setError('');
                }}
              />
              {lv}
              {subject && offering !== 'none' && !sectionAllows(subject.section, lv) && (
                <span className="text-xs text-slate-600">({subject.section} only)</span>
              )}
            </label>
          ))}
        </div>
      </fieldset>
      {error && <Alert tone="error">{error}</Alert>}
      <div>
        <Button type="submit" loading={setOfferings.isPending}>
          {M.bulkOfferingApply}
        </Button>
      </div>
    </form>
  );
}

function OfferingsCard({ structure }: { structure: TeachingStructure }) {
  const toast = useToast();
  const saveOfferings = useSaveOfferings();
  const [edits, setEdits] = useState<Map<string, Offer>>(new Map());
  const [error, setError] = useState('');
  const subjects = structure.subjects.filter((s) => !s.retired);

  const stored = (level: ClassLevel, id: number): Offer => {
    const o = structure.offerings.find((x) => x.class_level === level)?.subjects.find((x) => x.subject_id === id);
    return o ? (o.compulsory ? 'compulsory' : 'elective') : 'no';
  };
  const value = (level: ClassLevel, id: number) => edits.get(cellKey(level, id)) ?? stored(level, id);

  function set(level: ClassLevel, id: number, v: Offer) {
    setEdits((m) => {
      const next = new Map(m);
      if (v === stored(level, id)) next.delete(cellKey(level, id));
      else next.set(cellKey(level, id), v);
      return next;
    });
    setError('');
  }

  async function save() {
    const levels = CLASS_LEVELS.filter((lv) => subjects.some((s) => edits.has(cellKey(lv, s.id))));
    if (!levels.length) {
      toast.info(M.noChanges);
      return;
    }
    try {
      for (const lv of levels) {
        // A level's whole list is sent: retired subjects it still offers stay as they are.
        const kept = (structure.offerings.find((o) => o.class_level === lv)?.subjects ?? []).filter(
          (o) => !subjects.some((s) => s.id === o.subject_id),
        );
        const chosen = subjects
          .map((s) => ({ subject_id: s.id, v: value(lv, s.id) }))
          .filter((x) => x.v !== 'no')
          .map((x) => ({ subject_id: x.subject_id, compulsory: x.v === 'compulsory' }));
        await saveOfferings.mutateAsync({ level: lv, subjects: [...kept, ...chosen] });
        setEdits((m) => new Map([...m].filter(([k]) => !k.startsWith(`${lv}|`))));
        toast.success(M.offeringsSaved(lv));
      }
    } catch (err) {
      setError(teachingError(err));
    }
  }

  return (
    <Card
      title="Subjects offered per class level"
      actions={
        <Button onClick={() => void save()} loading={saveOfferings.isPending}>
          Save offerings
        </Button>
      }
    >
      <p className="mb-3 text-sm text-slate-600">{M.offeringsExplain}</p>
      <BulkOfferingForm
        subjects={subjects}
        onApplied={(id, levels) =>
          // The grid's own unsaved choices for those cells are now decided by the applied column.
          setEdits((m) => new Map([...m].filter(([k]) => !levels.some((lv) => k === cellKey(lv, id)))))
        }
      />
      {edits.size > 0 && (
        <p className="mb-2 text-sm font-medium text-amber-800" role="status">
          {M.unsavedCells(edits.size)}
        </p>
      )}
      {error && (
        <Alert tone="error" className="mb-3">
          {error}
        </Alert>
      )}
      <ScrollTable label="Offerings grid" className="grid-scroll" tableClassName="stack-sm stack-sm-1 w-full border-collapse text-sm">
        <GridHead first="Subject" sticky columns={CLASS_LEVELS.map((lv) => ({ key: lv, label: lv }))} />
        <tbody>
          {subjects.map((s) => (
            <tr key={s.id} className="border-b border-slate-100">
              <th scope="row" className="sticky-col bg-white p-2 text-left font-medium">
                {s.name}
              </th>
              {CLASS_LEVELS.map((lv) => {
                const allowed = sectionAllows(s.section, lv);
                const v = value(lv, s.id);
                return (
                  <td key={lv} data-label={lv} className="p-1">
                    <GridSelect
                      label={`${s.name} in ${lv}`}
                      value={v}
                      changed={edits.has(cellKey(lv, s.id))}
                      disabled={!allowed && v === 'no'}
                      onChange={(next) => set(lv, s.id, next as Offer)}
                      options={OFFER_OPTIONS}
                    />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </Card>
  );
}

// ---- Streams ----

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
  const [name, setName] = useState(initial.name);
  const [ids, setIds] = useState<number[]>(initial.subject_ids);
  const [error, setError] = useState('');
  return (
    <form
      className="flex flex-col gap-3"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit({ name: name.trim(), subject_ids: ids }).then((err) => {
          if (err) setError(err);
          else if (!onCancel) {
            setName('');
            setIds([]);
          }
        });
      }}
      noValidate
    >
      <div className="sm:w-64">
        <TextField
          label="Stream name"
          value={name}
          maxLength={40}
          onChange={(e) => {
            setName(e.target.value);
            setError('');
          }}
        />
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
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex gap-2">
        <Button type="submit" loading={busy}>
          {onCancel ? 'Save stream' : 'Create stream'}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

function StreamsCard({ streams, subjects }: { streams: Stream[]; subjects: CatalogueSubject[] }) {
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
