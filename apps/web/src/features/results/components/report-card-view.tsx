import { ABSENT_MARK, ASSESSMENT_MESSAGES } from '@portal/domain/assessment';
import { formatAverage, ordinal, RESULT_MESSAGES, type ReportCard, type ReportCardSubject } from '@portal/domain/results';
import { HeaderRow, ScrollTable } from '../../../components/ui/scroll-table';

const n = (v: number | null | undefined) => (v === null || v === undefined ? '–' : String(v));

/** One component's cell: the marks, "ABS" where the student was absent, '–' when not entered. */
function componentCell(s: ReportCardSubject, label: string): string {
  const v = s.components?.[label];
  if (v === ABSENT_MARK || s.absent?.includes(label)) return ABSENT_MARK;
  return n(v);
}

/** A printable report card: school header, student, subjects with class statistics, summary. */
export function ReportCardView({ card }: { card: ReportCard }) {
  // A scheme of several components shows each before the total; the default one-score card is unchanged.
  const components = (card.components?.length ?? 0) > 1 ? card.components : [];
  const scoreHeading = components.length ? ASSESSMENT_MESSAGES.totalLabel : 'Score';
  const anyAbsent = components.length > 0 && card.subjects.some((s) => components.some((c) => componentCell(s, c.label) === ABSENT_MARK));
  return (
    <article className="report-card print-plain rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" aria-label="Report card">
      <header className="flex items-center gap-3 border-b-2 border-brand-800 pb-3">
        {card.school.logo && <img src={card.school.logo} alt="" className="h-14 w-14 shrink-0 object-contain" />}
        <div className="min-w-0">
          <p className="text-lg font-bold text-brand-900 sm:text-xl">{card.school.name}</p>
          {card.school.motto && <p className="text-sm italic text-slate-600">Motto: {card.school.motto}</p>}
          {card.school.address && <p className="text-sm text-slate-600">{card.school.address}</p>}
        </div>
      </header>
      <h2 className="my-3 text-center">
        Report Card — {card.term_label}, {card.session.name} Session
      </h2>
      {card.revised_at && (
        <div className="mb-3 rounded-lg border border-amber-500 bg-amber-50 p-2 text-sm text-amber-950" data-testid="revised">
          <p className="font-semibold">{RESULT_MESSAGES.revisedOn(card.revised_at.slice(0, 10))}</p>
          <ul className="mt-1 list-disc pl-5">
            {(card.revisions ?? []).map((r, i) => (
              <li key={i}>
                {r.subject} ({r.at.slice(0, 10)}): {r.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline font-semibold">Name: </dt>
          <dd className="inline" data-testid="card-name">
            {card.student.first_name} {card.student.last_name}
          </dd>
        </div>
        <div>
          <dt className="inline font-semibold">Admission number: </dt>
          <dd className="inline">{card.student.admission_number}</dd>
        </div>
        <div>
          <dt className="inline font-semibold">Class: </dt>
          <dd className="inline">{card.student.student_class}</dd>
        </div>
        <div>
          <dt className="inline font-semibold">Position: </dt>
          <dd className="inline" data-testid="card-position">
            {card.position_text}
          </dd>
        </div>
        <div>
          <dt className="inline font-semibold">Total: </dt>
          <dd className="inline">
            {card.total} ({card.subjects_taken} subjects)
          </dd>
        </div>
        <div>
          <dt className="inline font-semibold">Average: </dt>
          <dd className="inline">
            {formatAverage(card.average)} (class average {formatAverage(card.class_average)})
          </dd>
        </div>
      </dl>
      <ScrollTable
        label="Subjects"
        className="mt-4 overflow-x-auto"
        tableClassName={`stack-sm w-full border-collapse text-sm ${components.length ? 'sm:min-w-[44rem]' : 'sm:min-w-[36rem]'}`}
      >
        <HeaderRow
          rowClassName="bg-brand-900 text-left text-white"
          cellClassName="p-2"
          labels={[
            'Subject',
            ...components.map((c) => c.label),
            scoreHeading,
            'Grade',
            'Remark',
            'Position',
            'Class avg',
            'Highest',
            'Lowest',
          ]}
          align={{
            ...Object.fromEntries(components.map((c) => [c.label, 'text-right'])),
            [scoreHeading]: 'text-right',
            Grade: 'text-center',
            Position: 'text-right',
            'Class avg': 'text-right',
            Highest: 'text-right',
            Lowest: 'text-right',
          }}
        />
        <tbody>
          {card.subjects.map((s) => (
            <tr key={s.subject} className="border-b border-slate-100 even:bg-slate-50">
              <th scope="row" className="p-2 text-left font-medium">
                {s.subject}
                {s.teacher_remarks && <span className="block text-xs font-normal text-slate-600">{s.teacher_remarks}</span>}
              </th>
              {components.map((c) => (
                <td key={c.label} className="p-2 text-right tabular-nums" data-label={c.label}>
                  {componentCell(s, c.label)}
                </td>
              ))}
              <td className={`p-2 text-right tabular-nums ${components.length ? 'font-semibold' : ''}`} data-label={scoreHeading}>
                {n(s.score)}
              </td>
              <td className="p-2 text-center" data-label="Grade">
                {s.grade}
              </td>
              <td className="p-2" data-label="Remark">
                {s.remark}
              </td>
              <td className="p-2 text-right" data-label="Position">
                {s.position === null ? '–' : ordinal(s.position)}
              </td>
              <td className="p-2 text-right tabular-nums" data-label="Class avg">
                {formatAverage(s.class_average)}
              </td>
              <td className="p-2 text-right tabular-nums" data-label="Highest">
                {n(s.class_highest)}
              </td>
              <td className="p-2 text-right tabular-nums" data-label="Lowest">
                {n(s.class_lowest)}
              </td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
      {anyAbsent && (
        <p className="mt-2 text-xs text-slate-600" data-testid="absent-note">
          {ASSESSMENT_MESSAGES.absentNote}
        </p>
      )}
      {card.cumulative && (
        <section className="mt-5">
          <h3 className="mb-2 font-semibold text-brand-900">Cumulative (whole session)</h3>
          <ScrollTable label="Cumulative scores" tableClassName="stack-sm w-full border-collapse text-sm sm:min-w-[28rem]">
            <HeaderRow
              rowClassName="border-b-2 border-slate-300 text-left"
              cellClassName="p-2"
              labels={['Subject', '1st term', '2nd term', '3rd term', 'Average']}
              align={{ '1st term': 'text-right', '2nd term': 'text-right', '3rd term': 'text-right', Average: 'text-right' }}
            />
            <tbody>
              {card.subjects.map((s) => (
                <tr key={s.subject} className="border-b border-slate-100">
                  <th scope="row" className="p-2 text-left font-medium">
                    {s.subject}
                  </th>
                  <td className="p-2 text-right" data-label="1st term">
                    {n(s.term_scores?.['1st'])}
                  </td>
                  <td className="p-2 text-right" data-label="2nd term">
                    {n(s.term_scores?.['2nd'])}
                  </td>
                  <td className="p-2 text-right" data-label="3rd term">
                    {n(s.term_scores?.['3rd'])}
                  </td>
                  <td className="p-2 text-right" data-label="Average">
                    {formatAverage(s.term_scores?.average)}
                  </td>
                </tr>
              ))}
              <tr className="font-semibold">
                <th scope="row" className="p-2 text-left">
                  Term total
                </th>
                {card.cumulative.terms.map((t) => (
                  <td key={t.term} className="p-2 text-right" data-label={`${t.term} term`}>
                    {n(t.total)}
                  </td>
                ))}
                <td />
              </tr>
              <tr className="font-semibold">
                <th scope="row" className="p-2 text-left">
                  Term average
                </th>
                {card.cumulative.terms.map((t) => (
                  <td key={t.term} className="p-2 text-right" data-label={`${t.term} term`}>
                    {formatAverage(t.average)}
                  </td>
                ))}
                <td className="p-2 text-right" data-label="Average" data-testid="annual-average">
                  {formatAverage(card.cumulative.annual_average)}
                </td>
              </tr>
            </tbody>
          </ScrollTable>
          <p className="mt-2 font-semibold">Annual average: {formatAverage(card.cumulative.annual_average)}</p>
        </section>
      )}
      <footer className="mt-10 grid grid-cols-2 gap-6 text-sm text-slate-600">
        <p className="border-t border-slate-400 pt-1">Class teacher&apos;s signature</p>
        <p className="border-t border-slate-400 pt-1 text-right">Principal&apos;s signature</p>
      </footer>
    </article>
  );
}
