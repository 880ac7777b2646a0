import { PAYMENT_METHOD_LABELS } from '@portal/domain/bursary';
import { TERM_VALUES, termLabel, type Term } from '@portal/domain/constants';
import {
  FEE_REPORT_LABELS as L,
  FEE_REPORT_SCREEN_MESSAGES as M,
  FEE_REPORT_SCREENS,
  type CollectionRow,
  type CollectionSummary,
} from '@portal/domain/fee-reports';
import { formatNaira, sumNaira } from '@portal/domain/money';
import { PageLayout } from '../../../components/layout/app-layout';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { RowTable, type Column, type RowTableProps } from '../../../components/ui/row-table';
import { formatDate } from '../../../lib/datetime';
import { firstServerMessage } from '../../../lib/errors';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useSessions } from '../../../lib/school-calendar';
import { useFilterDraft } from '../filter-draft';
import { FilterForm } from '../components/filter-form';
import { useCollections, type CollectionsFilter } from '../report-api';
import { SessionSelect } from '../../../components/school/session-select';

const FILTERS = ['session_id', 'term', 'from', 'to'] as const;

function filterOf(params: URLSearchParams): CollectionsFilter {
  const sessionId = Number(params.get('session_id'));
  const term = params.get('term') ?? '';
  return {
    ...(sessionId > 0 ? { session_id: sessionId } : {}),
    ...((TERM_VALUES as readonly string[]).includes(term) ? { term: term as Term } : {}),
    ...(params.get('from') ? { from: params.get('from')! } : {}),
    ...(params.get('to') ? { to: params.get('to')! } : {}),
  };
}

/** A summary table under its caption; a phone shows it as one card per row (`stack-sm`). */
function Table<T>({ caption, ...table }: { caption: string } & RowTableProps<T>) {
  return (
    <section className="mb-5">
      <h2 className="mb-2">{caption}</h2>
      <RowTable className="stack-sm w-full text-sm" {...table} />
    </section>
  );
}

const rowLine = () => ({ className: 'border-b border-slate-100' });

/** What was expected, collected, still owed and not yet due: the figures of a class and of a fee item. */
const FIGURE_COLUMNS: Column<CollectionRow>[] = [
  { label: L.expected, figures: true, cell: (r) => formatNaira(r.expected) },
  { label: L.collected, figures: true, cell: (r) => formatNaira(r.collected) },
  { label: L.outstanding, figures: true, cell: (r) => formatNaira(r.outstanding) },
  { label: L.upcoming, figures: true, cell: (r) => formatNaira(r.upcoming) },
];

function Summary({ s }: { s: CollectionSummary }) {
  const t = s.totals;
  const figures: [string, string, string][] = [
    [L.expected, formatNaira(t.expected), 'expected'],
    [L.collected, formatNaira(t.collected), 'collected'],
    [L.outstanding, formatNaira(t.outstanding), 'outstanding'],
    [L.upcoming, formatNaira(t.upcoming), 'upcoming'],
    [L.discounts, formatNaira(t.discounts), 'discounts'],
    [L.credit, formatNaira(t.credit), 'credit'],
    [L.students, String(t.students), 'students'],
  ];
  const moneyIn = sumNaira(s.by_method, (m) => m.amount);
  return (
    <>
      <Card className="mb-4">
        <h2 className="mb-1">
          {L.totals}: {s.session}, {s.term ? termLabel(s.term) : L.wholeSession}
        </h2>
        <p className="mb-3 text-xs text-slate-600">{L.asOf(formatDate(s.as_of))}</p>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {figures.map(([label, value, id]) => (
            <div key={id} className="rounded-md bg-slate-50 p-2">
              <dt className="text-xs text-slate-600">{label}</dt>
              <dd className="text-base font-semibold tabular-nums" data-testid={`collections-${id}`}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card>
        <Table
          caption={L.byClass}
          testId="collections-by-class"
          columns={[
            { label: L.class, className: 'font-medium', cell: (c) => c.student_class },
            { label: L.students, figures: true, cell: (c) => c.students },
            ...FIGURE_COLUMNS,
          ]}
          rows={s.by_class}
          rowKey={(c) => c.student_class}
          rowProps={(c) => ({ ...rowLine(), 'data-class': c.student_class })}
        />
        <Table
          caption={L.byItem}
          testId="collections-by-item"
          columns={[{ label: L.item, className: 'font-medium [overflow-wrap:anywhere]', cell: (i) => i.name }, ...FIGURE_COLUMNS]}
          rows={s.by_item}
          rowKey={(i) => i.name}
          rowProps={rowLine}
        />
        {s.by_method.length === 0 ? (
          <p className="mb-5 text-sm text-slate-700">{M.noMoney}</p>
        ) : (
          <>
            <Table
              caption={L.byMethod}
              testId="collections-by-method"
              columns={[
                { label: L.method, className: 'font-medium', cell: (m) => PAYMENT_METHOD_LABELS[m.method] },
                { label: L.count, figures: true, cell: (m) => m.count },
                { label: L.amount, figures: true, testId: 'method-amount', cell: (m) => formatNaira(m.amount) },
              ]}
              rows={s.by_method}
              rowKey={(m) => m.method}
              rowProps={(m) => ({ ...rowLine(), 'data-method': m.method })}
              after={
                <tr className="font-semibold">
                  <th scope="row" className="px-2 py-1.5 text-left">
                    {L.total}
                  </th>
                  <td data-label={L.count} className="px-2 py-1.5 text-right tabular-nums">
                    {s.by_method.reduce((n, m) => n + m.count, 0)}
                  </td>
                  <td data-label={L.amount} className="px-2 py-1.5 text-right tabular-nums">
                    {formatNaira(moneyIn)}
                  </td>
                </tr>
              }
            />
            <Table
              caption={L.byDay}
              testId="collections-by-day"
              columns={[
                { label: L.date, className: 'font-medium whitespace-nowrap', cell: (d) => formatDate(d.date) },
                { label: L.count, figures: true, cell: (d) => d.count },
                { label: L.amount, figures: true, testId: 'day-amount', cell: (d) => formatNaira(d.amount) },
              ]}
              rows={s.by_day}
              rowKey={(d) => d.date}
              rowProps={(d) => ({ ...rowLine(), 'data-date': d.date })}
            />
          </>
        )}
      </Card>
    </>
  );
}

/** /bursary/collections (bursar, admin): expected against collected, then by class, fee item, method and day. */
export default function CollectionsPage() {
  const [params, patch] = useSearchParamPatch();
  const filter = filterOf(params);
  const summary = useCollections(filter);
  const sessions = useSessions();
  const { typed, field } = useFilterDraft(FILTERS, params);
  return (
    <PageLayout title={FEE_REPORT_SCREENS.collections.title} width="max-w-5xl">
      <Card className="mb-4">
        <FilterForm
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
          label={FEE_REPORT_SCREENS.collections.title}
          submitLabel={L.show}
          onApply={() => patch(typed)}
        >
          <SessionSelect
            label={L.session}
            placeholder={sessions.data?.find((s) => s.is_current)?.name ?? L.session}
            {...field('session_id')}
          />
          <SelectField
            label={L.term}
            placeholder={L.wholeSession}
            options={TERM_VALUES.map((t) => ({ value: t, label: termLabel(t) }))}
            {...field('term')}
          />
          <TextField label={L.from} type="date" {...field('from')} />
          <TextField label={L.to} type="date" {...field('to')} />
        </FilterForm>
      </Card>
      <QueryView query={summary} messages={firstServerMessage(summary.error) ?? M.collectionsFailed}>
        {(s) => <Summary s={s} />}
      </QueryView>
    </PageLayout>
  );
}
