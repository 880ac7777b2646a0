import type { ReactNode } from 'react';
import { ATTENDANCE_LABELS } from '@portal/domain/attendance';
import { ABSENT_MARK, ASSESSMENT_MESSAGES } from '@portal/domain/assessment';
import { formatNaira } from '@portal/domain/money';
import { CARD_SECTION_TITLES as T } from '@portal/domain/report-cards';
import { CARD_STATUS_LABELS, REPORT_MESSAGES, RATING_MIN } from '@portal/domain/report-card-rules';
import { formatAverage, RESULT_MESSAGES } from '@portal/domain/result-messages';
import { ordinal, type ReportCardSubject } from '@portal/domain/results';
import type { ReportCard } from '@portal/domain/report-cards';
import { REPORT_CARD_SCREEN_MESSAGES as M } from '@portal/domain/report-card-screens';
import { HeaderRow, ScrollTable } from '../ui/scroll-table';
import { schoolDay } from '../../lib/datetime';

const n = (v: number | null | undefined) => (v === null || v === undefined ? '–' : String(v));

/** A number in the subjects table; `label` names its column on a phone, where the rows stack. */
function NumberCell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <td className="p-2 text-right tabular-nums" data-label={label}>
      {children}
    </td>
  );
}

type CumulativeTerm = NonNullable<ReportCard['cumulative']>['terms'][number];

/** The cumulative table's rows: each term's total and its average. */
const CUMULATIVE_ROWS: { label: string; value: (t: CumulativeTerm) => string }[] = [
  { label: 'Total', value: (t) => n(t.total) },
  { label: 'Average', value: (t) => formatAverage(t.average) },
];

/** One component's cell: the marks, "ABS" where the student was absent, '–' when not entered. */
function componentCell(s: ReportCardSubject, label: string): string {
  const v = s.components?.[label];
  if (v === ABSENT_MARK || s.absent?.includes(label)) return ABSENT_MARK;
  return n(v);
}

/** Built once: `toLocaleDateString` with options builds a formatter on every call (~0.4 ms of each server-rendered card). */
const LONG_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** An ISO date as it reads on a Nigerian card: "5 January 2026". */
function longDate(iso: string): string {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? iso : LONG_DATE.format(d);
}

function Section({ title, children, testId, className = '' }: { title: string; children: ReactNode; testId: string; className?: string }) {
  return (
    <section className={`card-section mt-4 ${className}`} aria-label={title} data-testid={testId}>
      <h3 className="mb-1.5 border-b border-slate-300 pb-0.5 text-sm font-bold uppercase tracking-wide text-brand-900">{title}</h3>
      {children}
    </section>
  );
}

/** A "label: value" pair of a definition grid. */
function Pair({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div>
      <dt className="inline font-semibold">{label}: </dt>
      <dd className="inline" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/**
 * A printable report card with every section of the card a Nigerian parent expects, in the order of
 * school-term.md: header, student, attendance, subjects, summary, ratings, keys, comments, sign-off,
 * next term and (third term) the cumulative table and the promotion decision. `showStatus`: staff
 * see where an unreleased card is in the approval.
 */
export function ReportCardView({ card, showStatus = false }: { card: ReportCard; showStatus?: boolean }) {
  // A scheme of several components shows each before the total; the default one-score card is unchanged.
  const components = (card.components?.length ?? 0) > 1 ? card.components : [];
  const scoreHeading = components.length ? ASSESSMENT_MESSAGES.totalLabel : 'Score';
  const anyAbsent = components.length > 0 && card.subjects.some((s) => components.some((c) => componentCell(s, c.label) === ABSENT_MARK));
  const status = card.status ?? (card.released ? 'released' : 'draft');
  const ratings = card.ratings;
  const labels = ratings?.labels ?? [];
  // Third term: each subject's earlier terms and annual average sit in the subjects table (one A4 page).
  const third = card.cumulative !== null && card.cumulative !== undefined;
  return (
    <article className="report-card print-plain rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" aria-label="Report card">
      {showStatus && status !== 'released' && (
        <p className="no-print mb-3 rounded-lg border border-sky-600 bg-sky-50 p-2 text-sm text-sky-950" data-testid="card-status">
          {M.statusNotReleased(CARD_STATUS_LABELS[status])}
        </p>
      )}
      <header className="flex items-center gap-3 border-b-2 border-brand-800 pb-3" data-testid="card-header">
        {card.school.logo && <img src={card.school.logo} alt="" className="h-14 w-14 shrink-0 object-contain" />}
        <div className="min-w-0">
          <p className="text-lg font-bold text-brand-900 sm:text-xl">{card.school.name}</p>
          {card.school.motto && <p className="text-sm italic text-slate-600">Motto: {card.school.motto}</p>}
          {card.school.address && <p className="text-sm text-slate-600">{card.school.address}</p>}
          {card.school.phone && <p className="text-sm text-slate-600">Phone: {card.school.phone}</p>}
        </div>
      </header>
      <h2 className="my-3 text-center">
        Report Card — {card.term_label}, {card.session.name} Session
      </h2>
      {card.revised_at && (
        <div className="mb-3 rounded-lg border border-amber-500 bg-amber-50 p-2 text-sm text-amber-950" data-testid="revised">
          <p className="font-semibold">
            {T.revised}: {RESULT_MESSAGES.revisedOn(schoolDay(card.revised_at, card.school.time_zone))}
          </p>
          {(card.revisions ?? []).length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {card.revisions.map((r, i) => (
                <li key={i}>
                  {r.subject} ({schoolDay(r.at, card.school.time_zone)}): {r.reason}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      <div className="flex items-start gap-4" data-testid="card-student">
        <dl className="grid min-w-0 flex-1 grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          <Pair label="Name" testId="card-name">
            {card.student.first_name} {card.student.last_name}
          </Pair>
          <Pair label="Admission number">{card.student.admission_number}</Pair>
          <Pair label="Class">{card.student.student_class}</Pair>
          <Pair label={T.numberInClass} testId="card-class-size">
            {card.class_size}
          </Pair>
        </dl>
        {card.student.photo && (
          <img
            src={card.student.photo}
            alt={`Photo of ${card.student.first_name} ${card.student.last_name}`}
            className="h-24 w-20 shrink-0 rounded border border-slate-300 object-cover"
            data-testid="card-photo"
          />
        )}
      </div>

      {card.attendance && (
        <Section title={T.attendance} testId="card-attendance">
          <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
            <Pair label={T.timesOpened}>{n(card.attendance.times_opened)}</Pair>
            <Pair label={T.present}>{n(card.attendance.present)}</Pair>
            <Pair label={T.absent}>{n(card.attendance.absent)}</Pair>
            {card.attendance.unmarked !== null && (
              <Pair label={ATTENDANCE_LABELS.timesNotMarked} testId="card-attendance-unmarked">
                {card.attendance.unmarked}
              </Pair>
            )}
          </dl>
          <p className="no-print mt-1 text-xs text-slate-600" data-testid="card-attendance-source">
            {card.attendance.source === 'register' ? ATTENDANCE_LABELS.fromRegister : ATTENDANCE_LABELS.fromFormTeacher}
          </p>
        </Section>
      )}

      <ScrollTable
        label="Subjects"
        className="card-section mt-4 overflow-x-auto"
        tableClassName={`stack-sm w-full border-collapse text-sm ${components.length || third ? 'sm:min-w-[44rem]' : 'sm:min-w-[36rem]'}`}
      >
        <HeaderRow
          rowClassName="bg-brand-900 text-left text-white"
          cellClassName="p-2"
          labels={[
            'Subject',
            ...components.map((c) => c.label),
            scoreHeading,
            ...(third ? ['1st term', '2nd term', 'Annual avg'] : []),
            'Highest',
            'Lowest',
            'Class avg',
            'Position',
            'Grade',
            'Remark',
          ]}
          align={{
            ...Object.fromEntries(components.map((c) => [c.label, 'text-right'])),
            [scoreHeading]: 'text-right',
            '1st term': 'text-right',
            '2nd term': 'text-right',
            'Annual avg': 'text-right',
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
                <NumberCell key={c.label} label={c.label}>
                  {componentCell(s, c.label)}
                </NumberCell>
              ))}
              <td className={`p-2 text-right tabular-nums ${components.length ? 'font-semibold' : ''}`} data-label={scoreHeading}>
                {n(s.score)}
              </td>
              {third && (
                <>
                  <NumberCell label="1st term">{n(s.term_scores?.['1st'])}</NumberCell>
                  <NumberCell label="2nd term">{n(s.term_scores?.['2nd'])}</NumberCell>
                  <NumberCell label="Annual avg">{formatAverage(s.term_scores?.average)}</NumberCell>
                </>
              )}
              <NumberCell label="Highest">{n(s.class_highest)}</NumberCell>
              <NumberCell label="Lowest">{n(s.class_lowest)}</NumberCell>
              <NumberCell label="Class avg">{formatAverage(s.class_average)}</NumberCell>
              <td className="p-2 text-right" data-label="Position">
                {s.position === null ? '–' : ordinal(s.position)}
              </td>
              <td className="p-2 text-center" data-label="Grade">
                {s.grade}
              </td>
              <td className="p-2" data-label="Remark">
                {s.remark}
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

      <Section title={T.summary} testId="card-summary">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
          <Pair label="Total">
            {card.total} ({card.subjects_taken} subjects)
          </Pair>
          <Pair label="Average">{formatAverage(card.average)}</Pair>
          <Pair label="Position" testId="card-position">
            {card.position_text}
          </Pair>
          <Pair label="Class average">{formatAverage(card.class_average)}</Pair>
          {card.subjects_passed !== undefined && <Pair label={T.passed}>{card.subjects_passed}</Pair>}
          {card.subjects_failed !== undefined && <Pair label={T.failed}>{card.subjects_failed}</Pair>}
        </dl>
      </Section>

      {ratings && ratings.domains.length > 0 && (
        <div className="grid gap-x-6 sm:grid-cols-2">
          {ratings.domains.map((d) => (
            <Section key={d.domain} title={d.title} testId={`card-ratings-${d.domain}`}>
              <dl className="grid grid-cols-1 gap-x-4 text-sm min-[400px]:grid-cols-2">
                {d.traits.map((t) => (
                  <div key={t.name} className="flex justify-between gap-2 border-b border-slate-100 py-0.5">
                    <dt>{t.name}</dt>
                    <dd className="tabular-nums">{n(t.rating)}</dd>
                  </div>
                ))}
              </dl>
            </Section>
          ))}
        </div>
      )}

      <div className="grid gap-x-6 sm:grid-cols-2">
        {(card.grading_key?.length ?? 0) > 0 && (
          <Section title={T.gradingKey} testId="card-grading-key">
            <p className="text-xs leading-relaxed">
              {card.grading_key.map((g, i) => (
                <span key={g.grade} className="inline-block pr-2">
                  {g.grade}: {g.min}–{g.max} {g.remark}
                  {i < card.grading_key.length - 1 ? ';' : ''}
                </span>
              ))}
            </p>
          </Section>
        )}
        {labels.length > 0 && (
          <Section title={T.ratingKey} testId="card-rating-key">
            <p className="text-xs leading-relaxed">
              {labels.map((l, i) => (
                <span key={i} className="inline-block pr-2">
                  {i + RATING_MIN} = {l}
                  {i < labels.length - 1 ? ';' : ''}
                </span>
              ))}
            </p>
          </Section>
        )}
      </div>

      {card.comments && (
        <Section title={T.comments} testId="card-comments">
          <dl className="grid gap-1 text-sm">
            <div>
              <dt className="font-semibold">
                {T.formTeacherComment}
                {card.comments.form_teacher_name ? ` (${card.comments.form_teacher_name})` : ''}
              </dt>
              <dd data-testid="card-form-comment">{card.comments.form_teacher || '–'}</dd>
            </div>
            <div>
              <dt className="font-semibold">{T.principalComment}</dt>
              <dd data-testid="card-principal-comment">{card.comments.principal || '–'}</dd>
            </div>
          </dl>
        </Section>
      )}

      <div className="card-section mt-6 grid grid-cols-2 items-end gap-6 text-xs text-slate-600" data-testid="card-sign-off">
        <p className="border-t border-slate-400 pt-0.5">Form teacher&apos;s signature</p>
        <div className="flex items-end justify-end gap-4">
          {card.sign_off?.stamp && <img src={card.sign_off.stamp} alt={T.stamp} className="h-16 max-w-24 object-contain" />}
          <figure className="text-right">
            {card.sign_off?.signature && (
              <img src={card.sign_off.signature} alt={T.signature} className="ml-auto h-12 max-w-40 object-contain" />
            )}
            <figcaption className="border-t border-slate-400 pt-0.5">{T.signature}</figcaption>
          </figure>
        </div>
      </div>

      {card.next_term && (
        <Section title={T.nextTerm} testId="card-next-term">
          <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
            <Pair label={T.nextTermBegins} testId="card-next-term-begins">
              {card.next_term.begins ? longDate(card.next_term.begins) : REPORT_MESSAGES.toBeAnnounced}
            </Pair>
            <Pair label={T.nextTermFees}>{card.next_term.fees === null ? REPORT_MESSAGES.notSet : formatNaira(card.next_term.fees)}</Pair>
            <Pair label={T.outstanding} testId="card-outstanding">
              {formatNaira(card.next_term.outstanding)}
            </Pair>
          </dl>
        </Section>
      )}

      <div className="grid gap-x-6 sm:grid-cols-2">
        {card.cumulative && (
          <Section title={T.cumulative} testId="card-cumulative">
            <ScrollTable label={T.cumulative} tableClassName="w-full border-collapse text-sm">
              <HeaderRow
                rowClassName="border-b-2 border-slate-300 text-left"
                cellClassName="p-2"
                labels={['Term', ...card.cumulative.terms.map((t) => `${t.term} term`)]}
                align={Object.fromEntries(card.cumulative.terms.map((t) => [`${t.term} term`, 'text-right']))}
              />
              <tbody>
                {CUMULATIVE_ROWS.map(({ label, value }, k) => (
                  <tr key={label} className={k === 0 ? 'border-b border-slate-100' : undefined}>
                    <th scope="row" className="p-2 text-left font-medium">
                      {label}
                    </th>
                    {card.cumulative!.terms.map((t) => (
                      <td key={t.term} className="p-2 text-right tabular-nums">
                        {value(t)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
            <p className="mt-1 font-semibold">
              {T.annualAverage}: <span data-testid="annual-average">{formatAverage(card.cumulative.annual_average)}</span>
            </p>
          </Section>
        )}
        {card.promotion && (
          <Section title={T.promotion} testId="card-promotion">
            <p className="text-base font-bold" data-testid="card-promotion-label">
              {card.promotion.label}
            </p>
            {card.promotion.overridden && card.promotion.reason && (
              <p className="text-sm text-slate-600">{M.promotionOverridden(card.promotion.reason)}</p>
            )}
          </Section>
        )}
      </div>
    </article>
  );
}
