import { termLabel } from '@portal/domain/constants';
import { STUDENT_DASHBOARD_TEXT as T, type StudentDashboard as Dashboard } from '@portal/domain/dashboard-student';
import { ChartPanel, GroupedBarChart, LineChart } from '../../components/charts';

const two = (v: number) => v.toFixed(2);
/** "2024/2025 1st Term": a card's place on the line and in the table. */
const termName = (p: { session: string; term: Dashboard['history'][number]['term'] }) => `${p.session} ${termLabel(p.term)}`;
/** "24/25 1st": the axis has little room on a phone; the table has the whole name. */
const shortTerm = (name: string) => name.replace(/^20(\d\d)\/20(\d\d) (\w+) Term$/, '$1/$2 $3');

/** Why this term has no bars. */
export function subjectsNote(d: Dashboard): string | null {
  switch (d.subjects.state) {
    case 'released':
      return null;
    case 'not_released':
      return T.subjectsNotReleased;
    case 'withheld':
      return T.subjectsWithheld;
    default:
      return T.subjectsNone;
  }
}

/**
 * The two charts of the student's dashboard, each in the kit's panel (text alternative, "Show
 * numbers" table, the report card one tap away): average term by term (a line; position and the
 * class average in the table and the summary), and this term's subjects against the class average
 * (grouped bars, only from a released card the viewer may see).
 */
export function StudentCharts({ d, cardLink }: { d: Dashboard; cardLink: string }) {
  const last = d.history.at(-1);
  const historySummary = last
    ? `${T.historyAlt(d.history.length)} Latest, ${termName(last)}: average ${two(last.average)}, position ${last.position} of ${last.out_of}, class average ${two(last.class_average)}.`
    : T.historyAlt(0);
  const note = subjectsNote(d);
  const rows = d.subjects.rows;
  const above = rows.filter((r) => r.score > r.class_average).length;
  const subjectsSummary = note ?? `${rows.length} subjects; above the class average in ${above}.`;
  return (
    <>
      <ChartPanel
        title={T.historyTitle}
        summary={historySummary}
        table={{
          columns: ['Term', 'Class', 'Average', 'Position', 'Class average'],
          rows: d.history.map((p) => [termName(p), p.arm, two(p.average), `${p.position} of ${p.out_of}`, two(p.class_average)]),
        }}
        report={{ to: cardLink, label: 'Report card' }}
        testId="history"
      >
        {(labelledBy) =>
          d.history.length ? (
            <LineChart
              points={d.history.map((p) => ({ x: termName(p), y: p.average }))}
              labelledBy={labelledBy}
              format={(v) => v.toFixed(0)}
              tickLabel={shortTerm}
              testId="history-chart"
            />
          ) : null
        }
      </ChartPanel>
      <ChartPanel
        title={d.term ? `${T.subjectsTitle} (${termLabel(d.term)})` : T.subjectsTitle}
        summary={subjectsSummary}
        table={{
          columns: ['Subject', 'Score', 'Class average'],
          rows: rows.map((r) => [r.subject, r.score, two(r.class_average)]),
        }}
        report={{ to: cardLink, label: 'Report card' }}
        testId="subjects"
      >
        {(labelledBy) =>
          rows.length ? (
            <GroupedBarChart
              categories={rows.map((r) => r.subject)}
              series={[
                { name: 'Score', values: rows.map((r) => r.score) },
                { name: 'Class average', values: rows.map((r) => r.class_average) },
              ]}
              labelledBy={labelledBy}
              format={(v) => (Number.isInteger(v) ? String(v) : v.toFixed(1))}
              max={100}
              testId="subjects-chart"
            />
          ) : null
        }
      </ChartPanel>
    </>
  );
}
