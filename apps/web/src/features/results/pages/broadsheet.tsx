import { Fragment, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { termLabel } from '@portal/domain/constants';
import { ASSESSMENT_MESSAGES, type AssessmentComponent, type ComponentScores } from '@portal/domain/assessment';
import { formatAverage, RESULT_ADMIN_MESSAGES, RESULT_MESSAGES } from '@portal/domain/result-messages';
import { ordinal } from '@portal/domain/results';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { downloadBlob } from '../../../lib/api-client';
import { allClassNames, useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { downloadBroadsheetCsv, downloadClassPdf, useBroadsheet, sameQuery } from '../api';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { FormError } from '../components/form-error';
import { ScrollTable } from '../../../components/ui/scroll-table';

const ALL = 'All classes';

type Stats = { average: number; highest: number; lowest: number };
/** The subject statistics under the students: the class average first, then highest and lowest. */
const STAT_ROWS: { label: string; pick: (s: Stats) => string | number }[] = [
  { label: 'Class average', pick: (s) => formatAverage(s.average) },
  { label: 'Highest', pick: (s) => s.highest },
  { label: 'Lowest', pick: (s) => s.lowest },
];

/**
 * Under a score: the student's subject position and, on a scheme with several components, the
 * components as "15+12+50" (breakable after each "+", so the column is no wider than before on a
 * phone); the names and marks are in the cell's tooltip.
 */
function ScoreDetail({
  position,
  components,
  scores,
}: {
  position: number | undefined;
  components: AssessmentComponent[];
  scores: ComponentScores | undefined;
}) {
  return (
    <>
      {position !== undefined && (
        <span className="block text-[0.7rem] leading-tight text-slate-600" data-testid="subject-position">
          {ordinal(position)}
        </span>
      )}
      {scores && components.length > 1 && (
        <span className="block text-[0.7rem] leading-tight text-slate-600" data-testid="subject-components">
          {components.map((k, i) => (
            <Fragment key={k.label}>
              {i > 0 && (
                <>
                  +<wbr />
                </>
              )}
              {scores[k.label] ?? '–'}
            </Fragment>
          ))}
        </span>
      )}
    </>
  );
}

const componentsTitle = (components: AssessmentComponent[], scores: ComponentScores | undefined) =>
  scores && components.length > 1
    ? ASSESSMENT_MESSAGES.componentsTitle(components.map((k) => `${k.label} ${scores[k.label] ?? '–'}`).join(' · '))
    : undefined;

/** /broadsheet: students x subjects for a class (or the whole school) and term, with positions; CSV and PDF. */
export default function BroadsheetPage() {
  const toast = useToast();
  // A link may name the session and term (`?session_id&term`); otherwise the current term is chosen.
  const [params] = useSearchParams();
  const [sessionId, setSessionId] = useState(params.get('session_id') ?? '');
  const [term, setTerm] = useState(params.get('term') ?? '');
  const classes = allClassNames(useClasses().data);
  const [picked, setArm] = useState('');
  // The school's first class until one is picked; the lists load once and are cached.
  const arm = picked || classes[0] || ALL;
  const [formError, setFormError] = useState('');
  const query = () => ({ session_id: sessionId, term, student_class: arm === ALL ? undefined : arm });
  const [asked, setAsked] = useState<ReturnType<typeof query> | null>(null);
  const broadsheet = useBroadsheet(asked);
  const sheet = broadsheet.isError ? null : (broadsheet.data ?? null);
  const message = formError || (broadsheet.isError ? RESULT_MESSAGES.fetchResultsFailed : '');

  function load(e: FormEvent) {
    e.preventDefault();
    if (!sessionId || !term) {
      setFormError(RESULT_MESSAGES.selectSessionAndTerm);
      return;
    }
    setFormError('');
    const next = query();
    if (sameQuery(asked, next)) void broadsheet.refetch();
    else setAsked(next);
  }

  async function download(kind: 'csv' | 'pdf') {
    try {
      if (kind === 'csv') downloadBlob(await downloadBroadsheetCsv(query()), `broadsheet-${arm.replace(' ', '')}-${term}.csv`);
      else
        downloadBlob(
          await downloadClassPdf({ session_id: sessionId, term, student_class: arm }),
          `report-cards-${arm.replace(' ', '')}-${term}.pdf`,
        );
    } catch {
      toast.error(kind === 'csv' ? RESULT_ADMIN_MESSAGES.csvFailed : RESULT_MESSAGES.pdfFailed);
    }
  }

  return (
    <PageLayout
      title="Broadsheet"
      width="max-w-7xl"
      actions={
        sheet && sheet.classes.length > 0 ? (
          <>
            <Button variant="secondary" onClick={() => void download('csv')}>
              Download CSV
            </Button>
            {arm !== ALL && <Button onClick={() => void download('pdf')}>Class report cards (PDF)</Button>}
            <Button variant="secondary" onClick={() => window.print()}>
              Print
            </Button>
          </>
        ) : undefined
      }
    >
      <Card className="no-print mb-5">
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end" onSubmit={load} noValidate>
          <SessionTermFields openOnCurrentTerm sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
          <SelectField label="Class" value={arm} onChange={(e) => setArm(e.target.value)} options={[...classes, ALL]} />
          <Button type="submit" loading={broadsheet.isFetching}>
            Load Broadsheet
          </Button>
        </form>
        <FormError message={message} />
      </Card>
      {sheet && sheet.classes.length === 0 && <EmptyState>{RESULT_MESSAGES.noStudentsFound}</EmptyState>}
      {sheet?.classes.map((c) => (
        <Card
          key={c.student_class}
          className="broadsheet print-plain mb-5"
          title={`${c.student_class} · ${termLabel(sheet.term)}, ${sheet.session.name} · ${c.class_size} students · class average ${formatAverage(c.class_average)}`}
        >
          <ScrollTable label={`Broadsheet ${c.student_class}`} tableClassName="w-full border-collapse text-xs sm:text-sm">
            <thead>
              <tr className="border-b-2 border-slate-300 text-left">
                <th scope="col" className="sticky left-0 z-10 w-10 min-w-10 bg-white p-1.5">
                  Pos.
                </th>
                <th scope="col" className="sticky left-10 z-10 bg-white p-1.5 shadow-[1px_0_0_var(--color-slate-200)]">
                  Student
                </th>
                {/* A column a subject, then the student's total and average. */}
                {[...c.subjects, 'Total', 'Average'].map((s, i) => (
                  <th key={i} scope="col" className="p-1.5 text-right">
                    {s}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {[...c.rows]
                .sort((a, b) => a.position - b.position)
                .map((r) => (
                  <tr key={r.admission_number} className="border-b border-slate-100">
                    <td className="sticky left-0 z-10 w-10 min-w-10 bg-white p-1.5">{r.position}</td>
                    <th
                      scope="row"
                      className="sticky left-10 z-10 max-w-[9rem] bg-white p-1.5 text-left font-medium shadow-[1px_0_0_var(--color-slate-200)] sm:max-w-none"
                      data-testid="broadsheet-name"
                    >
                      {r.name} <span className="text-slate-500">{r.admission_number}</span>
                    </th>
                    {c.subjects.map((s) => (
                      <td key={s} className="p-1.5 text-right tabular-nums" title={componentsTitle(c.components ?? [], r.components?.[s])}>
                        {r.not_taken.includes(s) ? (
                          <span className="text-slate-600" title={RESULT_ADMIN_MESSAGES.notTakenTitle}>
                            {RESULT_ADMIN_MESSAGES.notTaken}
                          </span>
                        ) : (
                          <>
                            {r.scores[s] ?? '–'}
                            <ScoreDetail
                              position={r.scores[s] === null ? undefined : c.subject_positions?.[r.admission_number]?.[s]}
                              components={c.components ?? []}
                              scores={r.components?.[s]}
                            />
                          </>
                        )}
                      </td>
                    ))}
                    <td className="p-1.5 text-right font-semibold tabular-nums">{r.total}</td>
                    <td className="p-1.5 text-right tabular-nums">{formatAverage(r.average)}</td>
                  </tr>
                ))}
            </tbody>
            <tfoot>
              {STAT_ROWS.map(({ label, pick }) => (
                <tr key={label} className="text-slate-700">
                  <td className="sticky left-0 z-10 bg-white" />
                  <th scope="row" className="sticky left-10 z-10 bg-white p-1.5 text-left shadow-[1px_0_0_var(--color-slate-200)]">
                    {label}
                  </th>
                  {c.subjects.map((s) => {
                    const stats = c.subject_stats[s];
                    return (
                      <td key={s} className="p-1.5 text-right tabular-nums">
                        {stats ? pick(stats) : '–'}
                      </td>
                    );
                  })}
                  <td />
                  <td className="p-1.5 text-right tabular-nums">{label === STAT_ROWS[0]!.label ? formatAverage(c.class_average) : ''}</td>
                </tr>
              ))}
            </tfoot>
          </ScrollTable>
        </Card>
      ))}
    </PageLayout>
  );
}
