import { useState, type FormEvent } from 'react';
import {
  CLASS_LEVELS,
  OFFERING_KINDS,
  OFFERING_KIND_LABELS,
  TEACHING_MESSAGES,
  sectionAllows,
  type OfferingKind,
  type CatalogueSubject,
  type ClassLevel,
  type TeachingStructure,
} from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { useToast } from '../../../lib/toast';
import { useSaveOfferings, useSetSubjectOfferings } from '../api';
import { GridHead, GridRow, GridSelect } from './grid';
import { teachingError } from '../errors';
import { ScrollTable } from '../../../components/ui/scroll-table';

type Offer = 'no' | 'compulsory' | 'elective';
const OFFER_OPTIONS: { value: Offer; label: string }[] = [
  { value: 'no', label: 'Not offered' },
  { value: 'compulsory', label: 'Compulsory' },
  { value: 'elective', label: 'Elective' },
];
const cellKey = (level: string, subjectId: number) => `${level}|${subjectId}`;
/** The grid's columns: a level each. */
const LEVEL_COLUMNS = CLASS_LEVELS.map((lv) => ({ key: lv, label: lv }));

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
        <SaveCancel label={M.bulkOfferingApply} busy={setOfferings.isPending} />
      </div>
    </form>
  );
}

export function OfferingsCard({ structure }: { structure: TeachingStructure }) {
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
        <GridHead first="Subject" sticky columns={LEVEL_COLUMNS} />
        <tbody>
          {subjects.map((s) => (
            <GridRow
              key={s.id}
              heading={s.name}
              sticky
              columns={LEVEL_COLUMNS}
              cell={({ key: lv }) => {
                const v = value(lv, s.id);
                return (
                  <GridSelect
                    label={`${s.name} in ${lv}`}
                    value={v}
                    changed={edits.has(cellKey(lv, s.id))}
                    disabled={!sectionAllows(s.section, lv) && v === 'no'}
                    onChange={(next) => set(lv, s.id, next as Offer)}
                    options={OFFER_OPTIONS}
                  />
                );
              }}
            />
          ))}
        </tbody>
      </ScrollTable>
    </Card>
  );
}
