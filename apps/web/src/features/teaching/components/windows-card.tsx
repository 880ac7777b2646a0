import { useState } from 'react';
import { TERMS, termLabel } from '@portal/domain/constants';
import { CLASS_LEVELS, type SessionAssignments } from '@portal/domain/teaching';
import { TEACHING_SCREEN_MESSAGES as M } from '@portal/domain/teaching-screens';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { useToast } from '../../../lib/toast';
import { useSaveWindow } from '../api';
import { GridHead, GridRow } from './grid';
import { teachingError } from '../errors';

const ALL_LEVELS = '';
/** The level choices and the grid's columns: all levels, then each level (the grid's head shortens the first to "All"). */
const LEVEL_COLUMNS = [ALL_LEVELS, ...CLASS_LEVELS].map((lv) => ({ key: lv, label: lv === ALL_LEVELS ? 'All levels' : lv }));

export function WindowsCard({ sessionId, data }: { sessionId: number; data: SessionAssignments }) {
  const toast = useToast();
  const saveWindow = useSaveWindow();
  const [term, setTerm] = useState('1st');
  const [level, setLevel] = useState<string>(ALL_LEVELS);
  const [error, setError] = useState('');
  const rowOf = (t: string, lv: string) => data.windows.find((w) => w.term === t && w.class_level === lv);
  // A level's own row wins over the all-levels row; no row means open.
  const isOpen = (t: string, lv: string) => (rowOf(t, lv) ?? rowOf(t, ALL_LEVELS))?.is_open ?? true;
  const levelLabel = (lv: string) => (lv === ALL_LEVELS ? 'all levels' : lv);

  async function set(open: boolean) {
    setError('');
    try {
      await saveWindow.mutateAsync({ session_id: sessionId, term, class_level: level, is_open: open });
      toast.success(M.windowSaved(termLabel(term), levelLabel(level), open));
    } catch (err) {
      setError(teachingError(err));
    }
  }

  const open = isOpen(term, level);
  return (
    <Card title="Score entry">
      <p className="mb-3 text-sm text-slate-600">{M.windowsExplain}</p>
      <div className="grid gap-3 sm:grid-cols-[12rem_12rem_auto] sm:items-end">
        <SelectField label="Score entry term" value={term} onChange={(e) => setTerm(e.target.value)} options={TERMS} />
        <SelectField
          label="Score entry level"
          value={level}
          onChange={(e) => setLevel(e.target.value)}
          options={LEVEL_COLUMNS.map((c) => ({ value: c.key, label: c.label }))}
        />
        <Button variant={open ? 'danger' : 'primary'} loading={saveWindow.isPending} onClick={() => void set(!open)}>
          {open ? 'Close score entry' : 'Open score entry'}
        </Button>
      </div>
      <p className="mt-3 text-sm" data-testid="window-state">
        Score entry for {termLabel(term)}, {levelLabel(level)}: <strong>{open ? 'open' : 'closed'}</strong>
      </p>
      {error && (
        <Alert tone="error" className="mt-3">
          {error}
        </Alert>
      )}
      <table className="stack-sm mt-4 w-full border-collapse text-sm" aria-label="Score entry by term and level">
        <GridHead first="Term" columns={LEVEL_COLUMNS.map((c) => ({ ...c, label: c.key === ALL_LEVELS ? 'All' : c.label }))} />
        <tbody>
          {TERMS.map((t) => (
            <GridRow
              key={t.value}
              heading={t.label}
              columns={LEVEL_COLUMNS}
              cellClassName="p-2"
              cell={({ key: lv }) => (isOpen(t.value, lv) ? 'Open' : <span className="font-semibold text-red-800">Closed</span>)}
            />
          ))}
        </tbody>
      </table>
    </Card>
  );
}
