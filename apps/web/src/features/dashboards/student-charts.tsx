import { termLabel } from '@portal/domain/constants';
import { STUDENT_DASHBOARD_TEXT as T, type StudentDashboard as Dashboard } from '@portal/domain/dashboard-student';
import { ScrollTable } from '../../components/ui/scroll-table';

const TH = 'border-b border-slate-200 px-2 py-1 text-left font-semibold text-slate-700';
const TD = 'border-b border-slate-100 px-2 py-1';
const NUM = `${TD} text-right tabular-nums`;

/** The history's numbers: one row per released term the viewer may see. */
export function HistoryTable({ d }: { d: Dashboard }) {
  return (
    <ScrollTable label={T.historyTitle} testId="history-table">
      <thead>
        <tr>
          <th className={TH}>Term</th>
          <th className={TH}>Class</th>
          <th className={`${TH} text-right`}>Average</th>
          <th className={`${TH} text-right`}>Position</th>
          <th className={`${TH} text-right`}>Class average</th>
        </tr>
      </thead>
      <tbody>
        {d.history.map((p) => (
          <tr key={`${p.session_id}-${p.term}`}>
            <td className={TD}>
              {p.session} {termLabel(p.term)}
            </td>
            <td className={TD}>{p.arm}</td>
            <td className={NUM}>{p.average.toFixed(2)}</td>
            <td className={NUM}>
              {p.position} of {p.out_of}
            </td>
            <td className={NUM}>{p.class_average.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

/** This term's subjects: the student's score and the class average. */
export function SubjectsTable({ d }: { d: Dashboard }) {
  return (
    <ScrollTable label={T.subjectsTitle} testId="subjects-table">
      <thead>
        <tr>
          <th className={TH}>Subject</th>
          <th className={`${TH} text-right`}>Score</th>
          <th className={`${TH} text-right`}>Class average</th>
        </tr>
      </thead>
      <tbody>
        {d.subjects.rows.map((r) => (
          <tr key={r.subject}>
            <td className={TD}>{r.subject}</td>
            <td className={NUM}>{r.score}</td>
            <td className={NUM}>{r.class_average.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

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

/** The two charts (until the chart kit is merged: their tables). */
export function StudentCharts({ d }: { d: Dashboard; cardLink: string }) {
  const note = subjectsNote(d);
  return (
    <>
      <section aria-label={T.historyTitle} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4">
        <h3 className="mb-2 text-base font-semibold text-slate-900">{T.historyTitle}</h3>
        {d.history.length ? <HistoryTable d={d} /> : <p className="text-sm text-slate-600">{T.historyAlt(0)}</p>}
      </section>
      <section aria-label={T.subjectsTitle} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4">
        <h3 className="mb-2 text-base font-semibold text-slate-900">{T.subjectsTitle}</h3>
        {note ? <p className="text-sm text-slate-600">{note}</p> : <SubjectsTable d={d} />}
      </section>
    </>
  );
}
