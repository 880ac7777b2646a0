import { memo, useCallback, useMemo, useState } from 'react';
import { CLASS_LEVELS, TEACHING_MESSAGES, type ClassLevel, type SessionAssignments, type TeachingStructure } from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import type { StaffRecord } from '@portal/domain/people-constants';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { useToast } from '../../../lib/toast';
import { useSaveAssignments, useSaveFormTeachers } from '../api';
import { GridHead, GridRow, GridSelect, useOptionsOnDemand } from './grid';
import { teachingError } from '../errors';
import { ScrollTable } from '../../../components/ui/scroll-table';

const cellKey = (armId: number, subjectId: number) => `${armId}|${subjectId}`;
/** One empty list for every cell without teachers: the same value each render, so its cell is not drawn again. */
const NO_TEACHERS: number[] = [];
const staffName = (s: StaffRecord) => `${s.first_name} ${s.last_name}`.trim();

export function GridCard({
  sessionId,
  data,
  structure,
  staff,
}: {
  sessionId: number;
  data: SessionAssignments;
  structure: TeachingStructure;
  staff: StaffRecord[];
}) {
  const toast = useToast();
  const saveAssignments = useSaveAssignments();
  const saveFormTeachers = useSaveFormTeachers();
  const [level, setLevel] = useState<ClassLevel>('JSS 1');
  const [cells, setCells] = useState<Map<string, number[]>>(new Map());
  const [forms, setForms] = useState<Map<number, number | null>>(new Map());
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  const arms = structure.arms.filter((a) => a.level === level && !a.retired);
  const columns = arms.map((a) => ({ key: a.id, label: a.name }));
  const offered = structure.offerings.find((o) => o.class_level === level)?.subjects.map((o) => o.subject_id) ?? [];
  const subjects = structure.subjects.filter((s) => !s.retired && offered.includes(s.id));
  // Looked up once per render of every cell: keyed, not searched.
  const stored = useMemo(
    () => ({
      cells: new Map(data.cells.map((c) => [cellKey(c.arm_id, c.subject_id), c.staff.map((s) => s.id)])),
      forms: new Map(data.form_teachers.map((f) => [f.arm_id, f.staff?.id ?? null])),
    }),
    [data],
  );
  const storedCell = (armId: number, subjectId: number) => stored.cells.get(cellKey(armId, subjectId)) ?? NO_TEACHERS;
  const cell = (armId: number, subjectId: number) => cells.get(cellKey(armId, subjectId)) ?? storedCell(armId, subjectId);
  const storedForm = (armId: number) => stored.forms.get(armId) ?? null;
  const form = (armId: number) => (forms.has(armId) ? forms.get(armId)! : storedForm(armId));
  const nameOf = useCallback(
    (id: number) => {
      const s = staff.find((x) => x.id === id);
      if (s) return staffName(s);
      for (const c of data.cells) for (const t of c.staff) if (t.id === id) return t.name;
      return `#${id}`;
    },
    [staff, data],
  );
  const changes = cells.size + forms.size;

  // Stable while the stored assignments are: a pick re-renders its own cell, not the whole grid.
  const setCell = useCallback(
    (armId: number, subjectId: number, ids: number[]) => {
      const before = stored.cells.get(cellKey(armId, subjectId)) ?? [];
      setCells((m) => {
        const next = new Map(m);
        const same = ids.length === before.length && ids.every((x) => before.includes(x));
        if (same) next.delete(cellKey(armId, subjectId));
        else next.set(cellKey(armId, subjectId), ids);
        return next;
      });
      setError('');
    },
    [stored],
  );

  function setForm(armId: number, id: number | null) {
    setForms((m) => {
      const next = new Map(m);
      if (id === storedForm(armId)) next.delete(armId);
      else next.set(armId, id);
      return next;
    });
    setError('');
  }

  async function save() {
    if (!changes) {
      toast.info(M.noChanges);
      return;
    }
    setSaving(true);
    setError('');
    try {
      if (cells.size) {
        await saveAssignments.mutateAsync({
          session_id: sessionId,
          cells: [...cells].map(([k, ids]) => {
            const [arm, subject] = k.split('|').map(Number);
            return { arm_id: arm!, subject_id: subject!, staff_ids: ids };
          }),
        });
        setCells(new Map());
        toast.success(TEACHING_MESSAGES.assignmentsSaved);
      }
      if (forms.size) {
        await saveFormTeachers.mutateAsync({ session_id: sessionId, arms: [...forms].map(([arm_id, staff_id]) => ({ arm_id, staff_id })) });
        setForms(new Map());
        toast.success(TEACHING_MESSAGES.formTeachersSaved);
      }
    } catch (err) {
      setError(teachingError(err));
    } finally {
      setSaving(false);
    }
  }

  const staffOptions = useMemo(() => staff.map((s) => ({ value: String(s.id), label: `${staffName(s)} (${s.staff_id})` })), [staff]);
  const formOptions = useMemo(() => [{ value: '', label: 'None' }, ...staffOptions], [staffOptions]);

  return (
    <Card
      title="Subject and form teachers"
      actions={
        <Button onClick={() => void save()} loading={saving}>
          Save assignments
        </Button>
      }
    >
      <div className="mb-3 flex flex-wrap items-end gap-4">
        <div className="w-40">
          <SelectField label="Class level" value={level} onChange={(e) => setLevel(e.target.value as ClassLevel)} options={CLASS_LEVELS} />
        </div>
        {changes > 0 && (
          <p className="pb-2 text-sm font-medium text-amber-800" role="status">
            {M.unsavedCells(changes)}
          </p>
        )}
      </div>
      {error && (
        <Alert tone="error" className="mb-3">
          {error}
        </Alert>
      )}
      {staff.length === 0 && <EmptyState>{M.noStaff}</EmptyState>}
      {arms.length > 0 && staff.length > 0 && (
        <ScrollTable
          label={`Assignments ${level}`}
          className="grid-scroll"
          tableClassName="stack-sm stack-sm-1 w-full border-collapse text-sm"
        >
          <GridHead first="Subject" sticky columnClass="min-w-52" columns={columns} />
          <tbody>
            <GridRow
              heading="Form teacher"
              sticky
              lead
              columns={columns}
              cell={({ key: armId, label: arm }) => (
                <GridSelect
                  label={`Form teacher of ${arm}`}
                  value={form(armId) === null ? '' : String(form(armId))}
                  changed={forms.has(armId)}
                  onChange={(next) => setForm(armId, next === '' ? null : Number(next))}
                  options={formOptions}
                  className="w-full max-w-56"
                  onDemand
                />
              )}
            />
            {subjects.map((s) => (
              <GridRow
                key={s.id}
                heading={s.name}
                sticky
                columns={columns}
                cellClassName="p-1 align-top"
                cell={({ key: armId, label: arm }) => (
                  <TeachersCell
                    armId={armId}
                    arm={arm}
                    subjectId={s.id}
                    subject={s.name}
                    ids={cell(armId, s.id)}
                    changed={cells.has(cellKey(armId, s.id))}
                    staffOptions={staffOptions}
                    nameOf={nameOf}
                    onChange={setCell}
                  />
                )}
              />
            ))}
          </tbody>
        </ScrollTable>
      )}
    </Card>
  );
}

/** One arm and subject: its teachers, each removable, and the list to add another. */
const TeachersCell = memo(function TeachersCell({
  armId,
  arm,
  subjectId,
  subject,
  ids,
  changed,
  staffOptions,
  nameOf,
  onChange,
}: {
  armId: number;
  arm: string;
  subjectId: number;
  subject: string;
  ids: number[];
  changed: boolean;
  staffOptions: readonly { value: string; label: string }[];
  nameOf: (id: number) => string;
  onChange: (armId: number, subjectId: number, ids: number[]) => void;
}) {
  return (
    <div className={`flex flex-col items-end gap-1 rounded-lg sm:items-stretch ${changed ? 'bg-amber-50' : ''}`}>
      {ids.length > 0 && (
        <ul className="flex flex-wrap justify-end gap-1 sm:justify-start" aria-label={`Teachers of ${subject} in ${arm}`}>
          {ids.map((id) => (
            <li key={id} className="inline-flex items-center gap-1 rounded-full bg-brand-50 pl-2 text-xs text-brand-900">
              {nameOf(id)}
              <button
                type="button"
                className="min-h-8 min-w-8 rounded-full text-base hover:bg-brand-100"
                aria-label={`Remove ${nameOf(id)} from ${subject} in ${arm}`}
                onClick={() =>
                  onChange(
                    armId,
                    subjectId,
                    ids.filter((x) => x !== id),
                  )
                }
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <AddTeacherSelect
        label={`Add a teacher of ${subject} in ${arm}`}
        placeholder={ids.length ? 'Add another…' : 'Assign a teacher…'}
        options={staffOptions}
        taken={ids}
        onPick={(id) => onChange(armId, subjectId, [...ids, id])}
      />
    </div>
  );
});

/** A cell's "add a teacher" list: every member of staff not already in the cell, drawn when reached for. */
function AddTeacherSelect({
  label,
  placeholder,
  options,
  taken,
  onPick,
}: {
  label: string;
  placeholder: string;
  options: readonly { value: string; label: string }[];
  taken: readonly number[];
  onPick: (staffId: number) => void;
}) {
  const { shown, reach } = useOptionsOnDemand(options, () => false);
  return (
    <select
      aria-label={label}
      value=""
      onChange={(e) => e.target.value && onPick(Number(e.target.value))}
      {...reach}
      className="min-h-11 w-full max-w-56 rounded-lg border border-slate-300 bg-white px-2 text-sm"
    >
      <option value="">{placeholder}</option>
      {shown
        .filter((o) => !taken.includes(Number(o.value)))
        .map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
    </select>
  );
}
