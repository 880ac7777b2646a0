import { Link, useSearchParams } from 'react-router';
import { ATTENDANCE_SCREENS as ATT } from '@portal/domain/attendance';
import { CARD_STATUS_LABELS, CARD_STATUSES } from '@portal/domain/report-card-rules';
import { DASHBOARD_MESSAGES as M, type AdminDashboard } from '@portal/domain/dashboard-admin';
import { FEE_REPORT_SCREENS as REP } from '@portal/domain/fee-reports';
import { formatNaira } from '@portal/domain/money';
import { TERM_VALUES, termLabel, type Term } from '@portal/domain/constants';
import { BarChart, ChartPanel, GroupedBarChart, LineChart, ProgressGrid } from '../../components/charts';
import { SelectField } from '../../components/ui/field';
import { useSessions } from '../../lib/school-calendar';
import { useAdminDashboard, type DashboardTerm } from './api';

const pct = (v: number) => `${v}%`;
const nairaShort = (v: number) =>
  v >= 1_000_000 ? `₦${(v / 1_000_000).toFixed(1)}m` : v >= 1_000 ? `₦${Math.round(v / 1_000)}k` : `₦${Math.round(v)}`;
const shortDate = (iso: string) => {
  const d = new Date(`${iso}T00:00:00Z`);
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
};
const q = (o: Record<string, string | number>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();

function Attendance({ data }: { data: AdminDashboard['attendance'] }) {
  const marked = data.arms.filter((a) => a.marked);
  const waiting = data.arms.filter((a) => !a.marked).map((a) => a.student_class);
  const present = marked.reduce((s, a) => s + a.present, 0);
  const marks = marked.reduce((s, a) => s + a.marks, 0);
  const summary =
    `${marked.length} of ${data.arms.length} arms marked today` +
    (marks ? `; ${Math.round((present / marks) * 1000) / 10}% present across them. ` : '. ') +
    M.notMarked(waiting);
  return (
    <ChartPanel
      title={`Attendance today (${shortDate(data.date)})`}
      summary={summary}
      table={{
        columns: ['Arm', 'Present', 'Marks', 'Present %'],
        rows: data.arms.map((a) => [
          a.student_class,
          a.marked ? a.present : '–',
          a.marked ? a.marks : 'not marked',
          a.present_pct === null ? '–' : pct(a.present_pct),
        ]),
      }}
      report={{ to: `${ATT.absent.to}?${q({ date: data.date })}`, label: 'See who is absent today' }}
      testId="dash-attendance"
    >
      {(id) => (
        <BarChart data={data.arms.map((a) => ({ label: a.student_class, value: a.present_pct }))} labelledBy={id} format={pct} max={100} />
      )}
    </ChartPanel>
  );
}

function ScoreEntry({ d }: { d: AdminDashboard }) {
  const cells = d.score_entry.cells;
  const byKey = new Map(cells.map((c) => [`${c.student_class}|${c.subject}`, c]));
  const arms = [...new Set(cells.map((c) => c.student_class))];
  const complete = cells.filter((c) => c.expected > 0 && c.entered >= c.expected).length;
  const entered = cells.reduce((s, c) => s + Math.min(c.entered, c.expected), 0);
  const expected = cells.reduce((s, c) => s + c.expected, 0);
  const summary = cells.length
    ? `${complete} of ${cells.length} subject sheets complete; ${entered} of ${expected} scores entered this term.`
    : 'No arm has students taking subjects this term yet.';
  const sheet = (arm: string, subject: string) =>
    `/score-sheet?${q({ ...(d.session ? { session_id: d.session.id } : {}), ...(d.term ? { term: d.term } : {}), class: arm, subject })}`;
  return (
    <section
      aria-labelledby="dash-scores-title"
      className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="dash-scores"
    >
      <h3 id="dash-scores-title" className="mb-2 text-base font-semibold text-slate-900">
        Score entry, {d.term ?? ''} term
      </h3>
      <p id="dash-scores-summary" className="mb-2 text-sm text-slate-700" data-testid="dash-scores-summary">
        {summary}
      </p>
      {cells.length > 0 && (
        <ProgressGrid
          label="Score entry by arm and subject"
          rows={arms}
          columns={d.score_entry.subjects}
          cell={(r, c) => {
            const v = byKey.get(`${r}|${c}`);
            return v && { done: v.entered, of: v.expected };
          }}
          href={sheet}
          labelledBy="dash-scores-summary"
          testId="dash-scores-grid"
        />
      )}
    </section>
  );
}

function ReportCards({ data }: { data: AdminDashboard['report_cards'] }) {
  const by = CARD_STATUSES.map((s) => ({ status: s, arms: data.filter((a) => a.status === s).map((a) => a.student_class) }));
  const summary = data.length
    ? by.map((b) => `${CARD_STATUS_LABELS[b.status]}: ${b.arms.length}`).join(', ') + ' arms.'
    : 'No arm has report cards this term yet.';
  return (
    <ChartPanel
      title="Report cards by arm"
      summary={summary}
      table={{
        columns: ['Status', 'Arms', 'Which'],
        rows: by.map((b) => [CARD_STATUS_LABELS[b.status], b.arms.length, b.arms.join(', ') || '–']),
      }}
      report={{ to: '/report-approvals', label: 'Open report card approvals' }}
      testId="dash-cards"
    >
      {(id) => <BarChart data={by.map((b) => ({ label: CARD_STATUS_LABELS[b.status], value: b.arms.length }))} labelledBy={id} />}
    </ChartPanel>
  );
}

function Fees({ data }: { data: AdminDashboard['fees'] }) {
  const week = data.by_day.reduce((s, d) => s + d.amount, 0);
  return (
    <>
      <ChartPanel
        title="Fees this term: expected and collected"
        summary={`Collected ${formatNaira(data.collected)} of ${formatNaira(data.expected)} due so far; ${formatNaira(data.outstanding)} outstanding. ${data.debtors.count} debtors owe ${formatNaira(data.debtors.total)} (arrears included).`}
        table={{
          columns: ['Level', 'Expected', 'Collected'],
          rows: [
            ...data.by_level.map((l) => [l.level, formatNaira(l.expected), formatNaira(l.collected)]),
            ['All', formatNaira(data.expected), formatNaira(data.collected)],
          ],
        }}
        report={{ to: REP.collections.to, label: 'Open the collection summary' }}
        testId="dash-fees"
      >
        {(id) => (
          <>
            <GroupedBarChart
              categories={data.by_level.map((l) => l.level)}
              series={[
                { name: 'Expected', values: data.by_level.map((l) => l.expected) },
                { name: 'Collected', values: data.by_level.map((l) => l.collected) },
              ]}
              labelledBy={id}
              format={nairaShort}
            />
            <p className="mt-2 text-sm">
              <Link to={REP.debtors.to} className="font-medium text-brand-800 underline underline-offset-2" data-testid="dash-debtors">
                {data.debtors.count} debtors · {formatNaira(data.debtors.total)}
              </Link>
            </p>
          </>
        )}
      </ChartPanel>
      <ChartPanel
        title="Fees received, last 30 days"
        summary={`${formatNaira(week)} received in the 30 days to ${shortDate(data.by_day.at(-1)?.date ?? '')}.`}
        table={{ columns: ['Day', 'Payments', 'Amount'], rows: data.by_day.map((d) => [d.date, d.count, formatNaira(d.amount)]) }}
        report={{ to: REP.collections.to, label: 'Open the collection summary' }}
        testId="dash-days"
      >
        {(id) => (
          <LineChart
            points={data.by_day.map((d) => ({ x: d.date, y: d.amount }))}
            labelledBy={id}
            format={nairaShort}
            tickLabel={shortDate}
          />
        )}
      </ChartPanel>
    </>
  );
}

function Grades({ data }: { data: AdminDashboard['grades'] }) {
  if (!data.term) {
    return (
      <section className="rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-700 shadow-sm" data-testid="dash-grades">
        <h3 className="mb-1 text-base font-semibold text-slate-900">Grades</h3>
        No results are released this session yet.
      </section>
    );
  }
  const total = (c: Record<string, number>) => Object.values(c).reduce((s, n) => s + n, 0);
  return (
    <ChartPanel
      title={`Grades per subject, ${data.term} term (released)`}
      summary={`${data.subjects.length} subjects; grades ${data.grades.join(', ')}. ${data.subjects
        .slice(0, 3)
        .map((s) => `${s.subject}: ${data.grades.map((g) => `${s.counts[g] ?? 0} ${g}`).join(', ')}`)
        .join('; ')}${data.subjects.length > 3 ? '; the rest in the table.' : '.'}`}
      table={{
        columns: ['Subject', ...data.grades, 'Total'],
        rows: data.subjects.map((s) => [s.subject, ...data.grades.map((g) => s.counts[g] ?? 0), total(s.counts)]),
      }}
      report={{ to: '/broadsheet', label: 'Open the broadsheet' }}
      testId="dash-grades"
    >
      {(id) => (
        <GroupedBarChart
          stacked
          categories={data.subjects.map((s) => s.subject)}
          series={data.grades.map((g) => ({ name: g, values: data.subjects.map((s) => s.counts[g] ?? 0) }))}
          labelledBy={id}
        />
      )}
    </ChartPanel>
  );
}

function Accounts({ data }: { data: AdminDashboard['accounts'] }) {
  return (
    <section
      aria-labelledby="dash-accounts-title"
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="dash-accounts"
    >
      <h3 id="dash-accounts-title" className="mb-2 text-base font-semibold text-slate-900">
        Accounts
      </h3>
      <ul className="flex flex-col gap-2 text-sm">
        <li>
          <Link to="/new-sign-ins" className="font-medium text-brand-800 underline underline-offset-2">
            {data.new_today} new sign-in slips today
          </Link>
        </li>
        <li>
          <Link to="/sign-in-blocks" className="font-medium text-brand-800 underline underline-offset-2">
            {data.blocked} accounts blocked from signing in
          </Link>
        </li>
      </ul>
    </section>
  );
}

/** The term picked in the address (`?session_id=&term=`), or null for today's. */
function pickedTerm(params: URLSearchParams): DashboardTerm | null {
  const id = Number(params.get('session_id'));
  const term = params.get('term');
  return Number.isSafeInteger(id) && id > 0 && TERM_VALUES.includes(term as Term) ? { session_id: id, term: term as Term } : null;
}

/**
 * The admin / principal home's dashboard (issue 36, item 1): the term at a glance, each chart with
 * its numbers one tap away and its report one link away. Loaded lazily (its charts with it); while
 * it loads or if it fails, the menu below still reaches every screen.
 */
export default function AdminDashboardPanels() {
  const [params, setParams] = useSearchParams();
  const pick = pickedTerm(params);
  const sessions = useSessions();
  const { data, isPending, isError } = useAdminDashboard(pick);
  const choose = (value: string) =>
    setParams(
      (p) => {
        const [id, term] = value.split('|');
        const next = new URLSearchParams(p);
        if (id && term) {
          next.set('session_id', id);
          next.set('term', term);
        } else {
          next.delete('session_id');
          next.delete('term');
        }
        return next;
      },
      { replace: true },
    );
  return (
    <section aria-labelledby="dash-title" className="mb-6" data-testid="admin-dashboard">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <h2 id="dash-title">
          {M.adminTitle}
          {data?.session && (
            <span className="text-base font-normal text-slate-600">
              {' '}
              · {data.session.name}
              {data.term ? `, ${data.term} term` : ''}
            </span>
          )}
        </h2>
        <div className="w-full sm:w-72">
          <SelectField
            label={M.termShown}
            value={pick ? `${pick.session_id}|${pick.term}` : ''}
            onChange={(e) => choose(e.target.value)}
            options={[
              { value: '', label: M.todaysTerm },
              ...(sessions.data ?? []).flatMap((s) =>
                TERM_VALUES.map((t) => ({ value: `${s.id}|${t}`, label: `${s.name}, ${termLabel(t)}` })),
              ),
            ]}
          />
        </div>
      </div>
      {isPending && <p className="text-sm text-slate-700">{M.loading}</p>}
      {isError && <p className="text-sm text-slate-700">{M.failed}</p>}
      {data && (
        <div className="flex flex-col gap-4">
          {!data.term && <p className="text-sm text-slate-700">{M.noTerm}</p>}
          <div className="grid min-w-0 gap-4 lg:grid-cols-2">
            <Attendance data={data.attendance} />
            <ReportCards data={data.report_cards} />
          </div>
          {data.term && <ScoreEntry d={data} />}
          {data.term && (
            <div className="grid min-w-0 gap-4 lg:grid-cols-2">
              <Fees data={data.fees} />
            </div>
          )}
          <div className="grid min-w-0 gap-4 lg:grid-cols-2">
            <Grades data={data.grades} />
            <Accounts data={data.accounts} />
          </div>
        </div>
      )}
    </section>
  );
}
