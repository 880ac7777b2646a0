import { TERM_VALUES, termLabel } from '@portal/domain/constants';
import {
  DEBTOR_SORTS,
  DEBTOR_TERMS,
  FEE_REPORT_LABELS as L,
  FEE_REPORT_MESSAGES,
  FEE_REPORT_SCREEN_MESSAGES as M,
  FEE_REPORT_SCREENS,
  type Debtor,
  type DebtorSort,
  type DebtorTerm,
  type DebtorsPage,
} from '@portal/domain/fee-reports';
import { formatNaira } from '@portal/domain/money';
import { CLASS_LEVELS, classLevelOf } from '@portal/domain/teaching';
import { PageLayout } from '../../../components/layout/app-layout';
import { RequestButton } from '../../../components/ui/button';
import { Pager } from '../components/pager';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { ScrollTable } from '../../../components/ui/scroll-table';
import { downloadBlob } from '../../../lib/api-client';
import { formatDate } from '../../../lib/datetime';
import { errorMessage, firstServerMessage } from '../../../lib/errors';
import { allClassNames, useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useSessions } from '../../../lib/school-calendar';
import { downloadDebtors, useDebtors, type DebtorsFilter } from '../report-api';
import { SessionSelect } from '../../../components/school/session-select';

/** Largest first for money and days; A to Z for names and classes. */
const FIRST_ORDER: Record<DebtorSort, 'asc' | 'desc'> = { balance: 'desc', days_overdue: 'desc', name: 'asc', class: 'asc' };
const SORT_LABEL: Record<DebtorSort, string> = { balance: L.balance, days_overdue: L.daysOverdue, name: L.name, class: L.class };

function filterOf(params: URLSearchParams): DebtorsFilter & { page?: number } {
  const sessionId = Number(params.get('session_id'));
  const term = params.get('term') ?? '';
  const sort = params.get('sort') ?? '';
  const order = params.get('order');
  const page = Number(params.get('page'));
  return {
    ...(sessionId > 0 ? { session_id: sessionId } : {}),
    ...((DEBTOR_TERMS as readonly string[]).includes(term) ? { term: term as DebtorTerm } : {}),
    ...(params.get('level') ? { level: params.get('level')! } : {}),
    ...(params.get('student_class') ? { student_class: params.get('student_class')! } : {}),
    ...((DEBTOR_SORTS as readonly string[]).includes(sort) ? { sort: sort as DebtorSort } : {}),
    ...(order === 'asc' || order === 'desc' ? { order } : {}),
    ...(page > 1 ? { page } : {}),
  };
}

function SortHeader({
  column,
  filter,
  onSort,
  className,
}: {
  column: DebtorSort;
  filter: DebtorsFilter;
  onSort: (c: DebtorSort) => void;
  className: string;
}) {
  const sort = filter.sort ?? 'balance';
  const order = filter.order ?? 'desc';
  const active = sort === column;
  return (
    <th scope="col" className={className} aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        className="inline-flex min-h-11 items-center gap-1 font-semibold text-brand-800 underline-offset-2 hover:underline"
        onClick={() => onSort(column)}
        aria-label={L.sortBy(SORT_LABEL[column])}
      >
        {SORT_LABEL[column]}
        <span aria-hidden="true">{active ? (order === 'asc' ? '▲' : '▼') : '↕'}</span>
      </button>
    </th>
  );
}

function DebtorRow({ d }: { d: Debtor }) {
  const cell = 'px-2 py-1.5 text-right tabular-nums whitespace-nowrap';
  return (
    <tr className="border-b border-slate-100" data-testid="debtor-row" data-admission={d.admission_number}>
      <th
        scope="row"
        className="sticky left-0 z-10 w-32 max-w-32 min-w-32 bg-white px-2 py-1.5 text-left font-medium [overflow-wrap:anywhere]"
      >
        {d.full_name}
        <span className="block text-xs font-normal text-slate-600">{d.admission_number}</span>
      </th>
      <td className="px-2 py-1.5 whitespace-nowrap">{d.student_class}</td>
      <td className={`${cell} font-semibold`} data-testid="debtor-balance">
        {formatNaira(d.balance)}
      </td>
      <td className={cell}>{d.days_overdue}</td>
      <td className={cell}>{formatNaira(d.due)}</td>
      <td className={cell}>{d.discount ? formatNaira(d.discount) : ''}</td>
      <td className={cell}>{formatNaira(d.paid)}</td>
      <td className={cell}>{d.last_paid_on ? formatDate(d.last_paid_on) : L.never}</td>
    </tr>
  );
}

function DebtorsTable({ data, filter, onSort }: { data: DebtorsPage; filter: DebtorsFilter; onSort: (c: DebtorSort) => void }) {
  const th = 'px-2 py-1 text-right whitespace-nowrap';
  return (
    <ScrollTable
      label={FEE_REPORT_SCREENS.debtors.title}
      className="overflow-x-auto rounded-lg border border-slate-200"
      testId="debtors-table"
    >
      <thead className="bg-slate-50">
        <tr className="border-b border-slate-300">
          <SortHeader
            column="name"
            filter={filter}
            onSort={onSort}
            className="sticky left-0 z-20 w-32 min-w-32 bg-slate-50 px-2 py-1 text-left"
          />
          <SortHeader column="class" filter={filter} onSort={onSort} className="px-2 py-1 text-left whitespace-nowrap" />
          <SortHeader column="balance" filter={filter} onSort={onSort} className={th} />
          <SortHeader column="days_overdue" filter={filter} onSort={onSort} className={th} />
          {[L.due, L.discount, L.paid, L.lastPaid].map((label) => (
            <th key={label} scope="col" className={th}>
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.debtors.map((d) => (
          <DebtorRow key={d.admission_number} d={d} />
        ))}
      </tbody>
    </ScrollTable>
  );
}

/** The term shown has not begun: its fees are not owed yet (said beside the choice, even when no one owes). */
function NotBegun({ data }: { data: DebtorsPage }) {
  if (!data.term || !data.term_begins || data.term_begins <= data.as_of) return null;
  return (
    <p className="mt-2 text-sm text-slate-700" role="status" data-testid="debtors-not-begun">
      {FEE_REPORT_MESSAGES.termNotBegun(termLabel(data.term), formatDate(data.term_begins))}
    </p>
  );
}

function Downloads({ filter }: { filter: DebtorsFilter }) {
  const toast = useToast();
  async function download(kind: 'csv' | 'pdf') {
    try {
      downloadBlob(await downloadDebtors(kind, filter), `debtors.${kind}`);
    } catch (err) {
      toast.error(errorMessage(err, { fallback: M.downloadFailed, useDetail: true }));
    }
  }
  return (
    <div className="flex flex-wrap gap-2">
      <RequestButton variant="secondary" run={() => download('csv')}>
        {L.downloadCsv}
      </RequestButton>
      <RequestButton variant="secondary" run={() => download('pdf')}>
        {L.downloadPdf}
      </RequestButton>
    </div>
  );
}

/**
 * /bursary/debtors (bursar, admin): who owes what has fallen due, by level or arm, sortable, paged,
 * with CSV and PDF of every row; opens on the current term (the server's choice).
 */
export default function DebtorsPage() {
  const [params, patch] = useSearchParamPatch();
  const filter = filterOf(params);
  const { page: _page, ...every } = filter;
  const debtors = useDebtors(filter);
  const sessions = useSessions();
  const arms = allClassNames(useClasses().data).filter((a) => !filter.level || classLevelOf(a) === filter.level);
  const set = (k: string) => (e: { target: { value: string } }) => patch({ [k]: e.target.value, page: '' });
  const onSort = (c: DebtorSort) => {
    const same = (filter.sort ?? 'balance') === c;
    const order = same ? ((filter.order ?? FIRST_ORDER[c]) === 'asc' ? 'desc' : 'asc') : FIRST_ORDER[c];
    patch({ sort: c, order, page: '' });
  };

  return (
    <PageLayout title={FEE_REPORT_SCREENS.debtors.title} width="max-w-6xl">
      <Card className="mb-4">
        <form
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
          aria-label={FEE_REPORT_SCREENS.debtors.title}
          onSubmit={(e) => e.preventDefault()}
        >
          <SessionSelect
            label={L.session}
            value={filter.session_id ? String(filter.session_id) : ''}
            onChange={set('session_id')}
            placeholder={sessions.data?.find((s) => s.is_current)?.name ?? L.session}
          />
          {/* Without a term in the address the server opens on the current term; the choice shows the one it chose. */}
          <SelectField
            label={L.term}
            value={filter.term ?? (debtors.data ? (debtors.data.term ?? 'session') : '')}
            onChange={set('term')}
            options={[...TERM_VALUES.map((t) => ({ value: t, label: termLabel(t) })), { value: 'session', label: L.wholeSession }]}
            {...(debtors.data || filter.term ? {} : { placeholder: L.term })}
          />
          <SelectField
            label={L.level}
            value={filter.level ?? ''}
            onChange={(e) => patch({ level: e.target.value, student_class: '', page: '' })}
            placeholder={L.anyLevel}
            options={CLASS_LEVELS}
          />
          <SelectField
            label={L.arm}
            value={filter.student_class ?? ''}
            onChange={set('student_class')}
            placeholder={L.anyClass}
            options={arms}
          />
        </form>
        <p className="mt-2 text-xs text-slate-600">{L.termHint}</p>
        {debtors.data && <NotBegun data={debtors.data} />}
      </Card>
      <QueryView
        query={debtors}
        messages={firstServerMessage(debtors.error) ?? M.debtorsFailed}
        isEmpty={(d) => d.total === 0}
        empty={FEE_REPORT_MESSAGES.noDebtors}
      >
        {(data) => (
          <Card>
            <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm">
                <span data-testid="debtors-count">{L.debtors(data.total)}</span> · {data.session}
                {data.term ? `, ${termLabel(data.term)}` : ''} · {L.totalOwed}:{' '}
                <span className="font-semibold" data-testid="debtors-total">
                  {formatNaira(data.total_balance)}
                </span>{' '}
                · {L.asOf(formatDate(data.as_of))}
              </p>
              <Downloads filter={every} />
            </div>
            <DebtorsTable data={data} filter={filter} onSort={onSort} />
            <Pager page={data.page} pages={data.pages} onPage={(page) => patch({ page })} />
          </Card>
        )}
      </QueryView>
    </PageLayout>
  );
}
