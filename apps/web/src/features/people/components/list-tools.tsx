import { useState } from 'react';
import { PEOPLE_SCREEN_MESSAGES } from '@portal/domain/people-constants';
import { Button } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { allClassNames, useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { downloadCsv } from '../api';

/** Search box and class filter of the student lists. */
export function StudentFilters({
  q,
  studentClass,
  onChange,
}: {
  q: string;
  studentClass: string;
  onChange: (next: { q: string; studentClass: string }) => void;
}) {
  const classes = allClassNames(useClasses().data);
  return (
    <div className="no-print mb-4 grid gap-3 sm:grid-cols-[2fr_1fr]">
      <TextField
        label="Search by name, admission number or email"
        type="search"
        value={q}
        onChange={(e) => onChange({ q: e.target.value, studentClass })}
      />
      <SelectField
        label="Class"
        options={[{ value: '', label: 'All classes' }, ...classes.map((c) => ({ value: c, label: c }))]}
        value={studentClass}
        onChange={(e) => onChange({ q, studentClass: e.target.value })}
      />
    </div>
  );
}

/** Previous/next paging with "Showing a–b of n". */
export function Pager({
  offset,
  pageSize,
  total,
  onChange,
}: {
  offset: number;
  pageSize: number;
  total: number;
  onChange: (o: number) => void;
}) {
  if (total <= pageSize) return null;
  const end = Math.min(offset + pageSize, total);
  return (
    <nav className="no-print mt-4 flex flex-wrap items-center justify-between gap-2" aria-label="Pages">
      <p className="text-sm text-slate-600" aria-live="polite">
        Showing {(offset + 1).toLocaleString('en-NG')}–{end.toLocaleString('en-NG')} of {total.toLocaleString('en-NG')}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - pageSize))}>
          Previous
        </Button>
        <Button variant="secondary" disabled={end >= total} onClick={() => onChange(offset + pageSize)}>
          Next
        </Button>
      </div>
    </nav>
  );
}

/** "Export CSV" for a list. */
export function ExportButton({
  path,
  filename,
  query,
  label = 'Export CSV',
}: {
  path: string;
  filename: string;
  query?: Record<string, string | undefined>;
  label?: string;
}) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      loading={busy}
      onClick={() => {
        setBusy(true);
        downloadCsv(path, filename, query)
          .catch(() => toast.error(PEOPLE_SCREEN_MESSAGES.exportFailed))
          .finally(() => setBusy(false));
      }}
    >
      {label}
    </Button>
  );
}
