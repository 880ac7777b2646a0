import { Link } from 'react-router';
import { ATTENDANCE_SCREENS as ATT } from '@portal/domain/attendance';
import { ATTENDANCE_STATUS_LABELS } from '@portal/domain/attendance-rules';
import { TERM_LABELS } from '@portal/domain/constants';
import type { StaffDashboard as Data, StaffFormClass, StaffSubjectProgress } from '@portal/domain/dashboard-staff';
import { BarChart, ChartPanel } from '../../components/charts';
import { QueryView } from '../../components/ui/query-view';
import { useStaffDashboard } from './staff-api';

const qs = (o: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, String(v)])).toString();
const scoreSheet = (d: Data, p: StaffSubjectProgress) =>
  `/score-sheet?${qs({ session_id: d.session_id ?? '', term: d.term ?? '', class: p.student_class, subject: p.subject })}`;
const armSheet = (d: Data, path: string, arm: string) =>
  `${path}?${qs({ session_id: d.session_id ?? '', term: d.term ?? '', class: arm })}`;
const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);
const average = (p: StaffSubjectProgress) => (p.average === null ? '—' : p.average.toFixed(1));

/** The subject teacher's arm-subjects: scores entered against expected, the class average once entered (each sheet one tap away below). */
function Subjects({ d }: { d: Data }) {
  const done = d.subjects.filter((p) => p.expected > 0 && p.entered >= p.expected).length;
  return (
    <ChartPanel
      title="Score entry"
      testId="staff-subjects"
      summary={`${done} of ${d.subjects.length} ${d.subjects.length === 1 ? 'sheet' : 'sheets'} complete: ${d.subjects
        .map((p) => `${p.student_class} ${p.subject} ${p.entered} of ${p.expected}${p.average === null ? '' : `, average ${average(p)}`}`)
        .join('; ')}.`}
      table={{
        columns: ['Class and subject', 'Entered', 'Expected', 'Average'],
        rows: d.subjects.map((p) => [`${p.student_class} · ${p.subject}`, p.entered, p.expected, average(p)]),
      }}
    >
      {(id) => (
        <BarChart
          data={d.subjects.map((p) => ({
            label: `${p.student_class} ${p.subject}`,
            value: p.expected ? pct(p.entered, p.expected) : null,
          }))}
          labelledBy={id}
          format={(v) => `${v}%`}
          max={100}
        />
      )}
    </ChartPanel>
  );
}

function SheetLinks({ d }: { d: Data }) {
  return (
    <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2" aria-label="Score sheets of your classes" data-testid="staff-sheet-links">
      {d.subjects.map((p) => (
        <li key={`${p.student_class}|${p.subject}`} className="min-w-0">
          <Link
            to={scoreSheet(d, p)}
            className="flex min-h-11 items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm hover:border-brand-700"
          >
            <span className="min-w-0 truncate font-medium text-brand-900">
              Score sheet: {p.student_class} {p.subject}
            </span>
            <span className="shrink-0 text-slate-700">
              {p.entered}/{p.expected}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function streakText(n: number): string {
  return n > 1 ? `${n} days in a row` : 'today';
}

/** A form arm: today's register, who is absent (and for how long), and what the cards still lack. */
function FormClass({ d, f }: { d: Data; f: StaffFormClass }) {
  const register = `${ATT.register.to}?${qs({ class: f.student_class })}`;
  const owed = [
    f.ratings_missing > 0 && `${f.ratings_missing} ${f.ratings_missing === 1 ? 'student' : 'students'} to rate`,
    f.comments_required &&
      f.form_comments_missing > 0 &&
      `${f.form_comments_missing} form ${f.form_comments_missing === 1 ? 'comment' : 'comments'} to write`,
  ].filter(Boolean);
  return (
    <section
      aria-labelledby={`form-${f.student_class}`}
      className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="staff-form-class"
    >
      <h3 id={`form-${f.student_class}`} className="mb-2 text-base font-semibold">
        Form class {f.student_class}
      </h3>
      <p className="text-sm" data-testid="staff-register-today">
        {!f.school_day ? (
          'No register today: not a school day.'
        ) : f.register_done ? (
          <>
            <span aria-hidden="true">✓ </span>Today's register is marked.
          </>
        ) : (
          <>
            <span aria-hidden="true">! </span>
            <strong>Today's register is not marked yet.</strong>
          </>
        )}{' '}
        <Link to={register} className="inline-flex min-h-11 items-center font-medium text-brand-800 underline">
          Open the register of {f.student_class}
        </Link>
      </p>
      {f.school_day && (
        <div className="mt-2">
          <h4 className="text-sm font-semibold text-slate-800">Absent today: {f.absentees.length}</h4>
          {f.absentees.length > 0 && (
            <ul className="mt-1 flex flex-col gap-1 text-sm" data-testid="staff-absentees">
              {f.absentees.map((a) => (
                <li key={`${a.admission_number}|${a.period}`} className={a.flagged ? 'font-semibold text-red-800' : 'text-slate-800'}>
                  {a.name} · {ATTENDANCE_STATUS_LABELS[a.status]} · {streakText(a.streak)}
                  {a.flagged ? ' (follow up)' : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="mt-3 text-sm" data-testid="staff-cards-owed">
        <p>
          Report cards ({f.cards}): {owed.length ? `${owed.join(', ')} before submitting.` : 'ratings and comments complete.'}
        </p>
        <p className="flex flex-wrap gap-x-4">
          <Link
            to={armSheet(d, '/class-ratings', f.student_class)}
            className="inline-flex min-h-11 items-center font-medium text-brand-800 underline"
          >
            Rate {f.student_class}
          </Link>
          <Link
            to={armSheet(d, '/class-comments', f.student_class)}
            className="inline-flex min-h-11 items-center font-medium text-brand-800 underline"
          >
            Write comments for {f.student_class}
          </Link>
        </p>
      </div>
    </section>
  );
}

/** A teacher's home at a glance (issue 36.3): their sheets' progress, and their form arms' day and cards. */
export default function StaffDashboard() {
  const query = useStaffDashboard();
  const d = query.data;
  return (
    <section aria-labelledby="staff-dashboard-title" data-testid="staff-dashboard">
      <h2 id="staff-dashboard-title" className="mb-3">
        This term at a glance
        {d?.term && (
          <span className="text-base font-normal text-slate-600">
            {' '}
            · {TERM_LABELS[d.term]}, {d.session}
          </span>
        )}
      </h2>
      <QueryView
        query={query}
        messages="Your classes' figures could not be loaded. Try again in a moment."
        loading="Loading your classes' figures"
        isEmpty={(x) => !x.subjects.length && !x.form_classes.length}
        empty="No classes are assigned to you this term."
      >
        {(x) => (
          <div className="flex flex-col gap-3">
            {x.form_classes.map((f) => (
              <FormClass key={f.student_class} d={x} f={f} />
            ))}
            {x.subjects.length > 0 && (
              <>
                <Subjects d={x} />
                <SheetLinks d={x} />
              </>
            )}
          </div>
        )}
      </QueryView>
    </section>
  );
}
