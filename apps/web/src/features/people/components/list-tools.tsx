import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PEOPLE_MESSAGES, PEOPLE_SCREEN_MESSAGES, STUDENT_PAGE_SIZE, type StudentRecord } from '@portal/domain/people-constants';
import { useDebounced } from '../../../lib/use-debounced';
import { Button, RequestButton } from '../../../components/ui/button';
import { SelectField, TextField } from '../../../components/ui/field';
import { allClassNames, useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { downloadCsv, useStudentPage } from '../api';
import { QueryView } from '../../../components/ui/query-view';

/** Search box and class filter of the student lists. */
export function StudentFilters({ q, arm, onChange }: { q: string; arm: string; onChange: (next: { q: string; arm: string }) => void }) {
  const classes = allClassNames(useClasses().data);
  return (
    <div className="no-print mb-4 grid gap-3 sm:grid-cols-[2fr_1fr]">
      <TextField
        label="Search by name, admission number or email"
        type="search"
        value={q}
        onChange={(e) => onChange({ q: e.target.value, arm })}
      />
      <SelectField
        label="Class"
        options={[{ value: '', label: 'All classes' }, ...classes.map((c) => ({ value: c, label: c }))]}
        value={arm}
        onChange={(e) => onChange({ q, arm: e.target.value })}
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

/**
 * One row of a list that opens to its details below it, one row open at a time (the page keeps
 * which: `openRow`): the name and a short aside on the button, the details and a link to the full
 * record in the panel.
 */
export function DisclosureRow({
  rowId,
  openRow,
  onOpenRow,
  panelId,
  title,
  aside,
  more,
  children,
}: {
  rowId: string;
  openRow: string | null;
  onOpenRow: (rowId: string | null) => void;
  panelId: string;
  title: ReactNode;
  aside: ReactNode;
  more: { to: string; label: ReactNode };
  children: ReactNode;
}) {
  const open = openRow === rowId;
  return (
    <li>
      <button
        type="button"
        className="flex min-h-12 w-full items-center justify-between gap-3 px-4 py-2 text-left hover:bg-brand-50"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => onOpenRow(open ? null : rowId)}
      >
        <span className="font-medium text-slate-900">{title}</span>
        <span className="text-sm text-slate-600">{aside}</span>
      </button>
      {open && (
        <div id={panelId} className="bg-slate-50 px-4 pt-1 pb-3">
          {children}
          <Link to={more.to} className="mt-2 inline-block text-sm font-medium text-brand-800 hover:underline">
            {more.label}
          </Link>
        </div>
      )}
    </li>
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
  return (
    <RequestButton
      variant="secondary"
      run={() => downloadCsv(path, filename, query).catch(() => toast.error(PEOPLE_SCREEN_MESSAGES.exportFailed))}
    >
      {label}
    </RequestButton>
  );
}

/** The filters, debounced search and current page that the paged student lists share. */
export function useStudentList() {
  const [filters, setFilters] = useState({ q: '', arm: '' });
  const [offset, setOffset] = useState(0);
  const q = useDebounced(filters.q);
  const page = useStudentPage({ q: q || undefined, student_class: filters.arm || undefined, offset });
  // A new filter starts again from the first page.
  const changeFilters = (next: { q: string; arm: string }) => {
    setFilters(next);
    setOffset(0);
  };
  return {
    filters,
    changeFilters,
    offset,
    setOffset,
    page,
    exportQuery: { student_class: filters.arm || undefined, q: q || undefined },
  };
}

/** Filters, then loading / error / "no students" / the page's rows (with the pager to place). */
export function StudentListBody({
  list,
  children,
}: {
  list: ReturnType<typeof useStudentList>;
  children: (rows: StudentRecord[], pager: ReactNode) => ReactNode;
}) {
  const { page } = list;
  return (
    <>
      <StudentFilters q={list.filters.q} arm={list.filters.arm} onChange={list.changeFilters} />
      <QueryView
        query={page}
        messages={PEOPLE_MESSAGES.studentsFetchFailed}
        empty={PEOPLE_MESSAGES.noStudents}
        isEmpty={(data) => data.results.length === 0}
      >
        {(data) =>
          children(data.results, <Pager offset={list.offset} pageSize={STUDENT_PAGE_SIZE} total={data.count} onChange={list.setOffset} />)
        }
      </QueryView>
    </>
  );
}
