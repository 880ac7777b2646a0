import type { FormEvent, ReactNode } from 'react';
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
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { formatDate } from '../../../lib/datetime';
import { firstServerMessage } from '../../../lib/errors';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { useSessions } from '../../../lib/school-calendar';
import { useFilterDraft } from '../filter-draft';
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

const cell = 'px-2 py-1.5 text-right tabular-nums';

/** A plain table that becomes one card per row on a phone (`stack-sm`): the first column names the row. */
function Table({ caption, head, children, testId }: { caption: string; head: string[]; children: ReactNode; testId: string }) {
  return (
    <section className="mb-5">
      <h2 className="mb-2">{caption}</h2>
      <table className="stack-sm w-full text-sm" data-testid={testId}>
        <thead>
          <tr className="border-b border-slate-300 text-left">
            {head.map((h, i) => (
              <th key={h} scope="col" className={`px-2 py-1.5 ${i === 0 ? '' : 'text-right'}`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}

function FigureCells({ r }: { r: CollectionRow }) {
  return (
    <>
      <td data-label={L.expected} className={cell}>
        {formatNaira(r.expected)}
      </td>
      <td data-label={L.collected} className={cell}>
        {formatNaira(r.collected)}
      </td>
      <td data-label={L.outstanding} className={cell}>
        {formatNaira(r.outstanding)}
      </td>
      <td data-label={L.upcoming} className={cell}>
        {formatNaira(r.upcoming)}
      </td>
    </>
  );
}

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
          head={[L.class, L.students, L.expected, L.collected, L.outstanding, L.upcoming]}
          testId="collections-by-class"
        >
          {s.by_class.map((c) => (
            <tr key={c.student_class} className="border-b border-slate-100" data-class={c.student_class}>
              <th scope="row" className="px-2 py-1.5 text-left font-medium">
                {c.student_class}
              </th>
              <td data-label={L.students} className={cell}>
                {c.students}
              </td>
              <FigureCells r={c} />
            </tr>
          ))}
        </Table>
        <Table caption={L.byItem} head={[L.item, L.expected, L.collected, L.outstanding, L.upcoming]} testId="collections-by-item">
          {s.by_item.map((i) => (
            <tr key={i.name} className="border-b border-slate-100">
              <th scope="row" className="px-2 py-1.5 text-left font-medium [overflow-wrap:anywhere]">
                {i.name}
              </th>
              <FigureCells r={i} />
            </tr>
          ))}
        </Table>
        {s.by_method.length === 0 ? (
          <p className="mb-5 text-sm text-slate-700">{M.noMoney}</p>
        ) : (
          <>
            <Table caption={L.byMethod} head={[L.method, L.count, L.amount]} testId="collections-by-method">
              {s.by_method.map((m) => (
                <tr key={m.method} className="border-b border-slate-100" data-method={m.method}>
                  <th scope="row" className="px-2 py-1.5 text-left font-medium">
                    {PAYMENT_METHOD_LABELS[m.method]}
                  </th>
                  <td data-label={L.count} className={cell}>
                    {m.count}
                  </td>
                  <td data-label={L.amount} className={cell} data-testid="method-amount">
                    {formatNaira(m.amount)}
                  </td>
                </tr>
              ))}
              <tr className="font-semibold">
                <th scope="row" className="px-2 py-1.5 text-left">
                  {L.total}
                </th>
                <td data-label={L.count} className={cell}>
                  {s.by_method.reduce((n, m) => n + m.count, 0)}
                </td>
                <td data-label={L.amount} className={cell}>
                  {formatNaira(moneyIn)}
                </td>
              </tr>
            </Table>
            <Table caption={L.byDay} head={[L.date, L.count, L.amount]} testId="collections-by-day">
              {s.by_day.map((d) => (
                <tr key={d.date} className="border-b border-slate-100" data-date={d.date}>
                  <th scope="row" className="px-2 py-1.5 text-left font-medium whitespace-nowrap">
                    {formatDate(d.date)}
                  </th>
                  <td data-label={L.count} className={cell}>
                    {d.count}
                  </td>
                  <td data-label={L.amount} className={cell} data-testid="day-amount">
                    {formatNaira(d.amount)}
                  </td>
                </tr>
              ))}
            </Table>
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    patch(typed);
  };
  return (
    <PageLayout title={FEE_REPORT_SCREENS.collections.title} width="max-w-5xl">
      <Card className="mb-4">
        <form
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
          onSubmit={submit}
          noValidate
          aria-label={FEE_REPORT_SCREENS.collections.title}
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
          <Button type="submit">{L.show}</Button>
        </form>
      </Card>
      <QueryView query={summary} messages={firstServerMessage(summary.error) ?? M.collectionsFailed}>
        {(s) => <Summary s={s} />}
      </QueryView>
    </PageLayout>
  );
}
