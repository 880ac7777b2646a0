import { useCallback, useDeferredValue, useMemo, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ASSESSMENT_MESSAGES, describeScheme, subjectStatistics, type ScoreSheet, type ScoreSheetQuery } from '@portal/domain/assessment';
import type { GradeBand } from '@portal/domain/grading';
import { levelOfClass, termLabel } from '@portal/domain/constants';
import { formatAverage } from '@portal/domain/result-messages';
import { PageLayout } from '../../../components/layout/app-layout';
import { SheetFrame } from '../../../components/layout/sheet-frame';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField } from '../../../components/ui/field';
import { OFFLINE_MESSAGES } from '@portal/domain/offline-screens';
import { OfflineBanner, useOnline } from '../../../lib/offline';
import { currentSubjectNames, useSubjects } from '../../../lib/school-lists';
import { useGradingScales } from '../api';
import { ReasonField } from '../components/reason-field';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { ClassSelect } from '../../../components/school/class-select';
import { CsvPanel } from '../components/score-grid/csv-panel';
import { parseRow } from '../components/score-grid/grid-model';
import { ScoreGrid } from '../components/score-grid/score-grid';
import { useGrid } from '../components/score-grid/use-grid';
import { FormError } from '../components/form-error';
import { KeptSheets } from '../components/kept-sheets';
import { sheetFetchedAt, sheetFromCopy, useKeepOwnSheets } from '../score-offline';
import { scoreSheetQuery, sheetQueryOf, useScoreSheet } from '../score-sheet-api';

/** The teacher's own sheets of the current term, fetched and kept for offline use while this screen is open. */
function useKeepOwnScoreSheets(): void {
  const qc = useQueryClient();
  const fetchSheet = useCallback((q: ScoreSheetQuery) => qc.fetchQuery({ ...scoreSheetQuery(q), staleTime: 60_000 }), [qc]);
  useKeepOwnSheets(fetchSheet);
}

/** The query in the address, once session, term, class and subject are all there. */
function useSheetQuery(): [ScoreSheetQuery | null, URLSearchParams, ReturnType<typeof useSearchParams>[1]] {
  const [params, setParams] = useSearchParams();
  const key = ['session_id', 'term', 'class', 'subject'].map((k) => params.get(k)).join('|');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the four values in `key` are all it reads
  const q = useMemo(() => sheetQueryOf(params), [key]);
  return [q, params, setParams];
}

function Choosers({ params, onOpen }: { params: URLSearchParams; onOpen: (p: Record<string, string>) => void }) {
  const [sessionId, setSessionId] = useState(params.get('session_id') ?? '');
  const [term, setTerm] = useState(params.get('term') ?? '');
  const [cls, setCls] = useState(params.get('class') ?? '');
  const [subject, setSubject] = useState(params.get('subject') ?? '');
  const [error, setError] = useState('');
  const subjects = useSubjects();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!sessionId || !term || !cls || !subject) return setError(ASSESSMENT_MESSAGES.sheetChoose);
    onOpen({ session_id: sessionId, term, class: cls, subject });
  };
  return (
    <Card>
      <form
        className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end"
        onSubmit={submit}
        noValidate
        aria-label="Choose a class and subject"
      >
        <SessionTermFields openOnCurrentTerm sessionId={sessionId} term={term} onSession={setSessionId} onTerm={setTerm} />
        <ClassSelect required value={cls} onChange={(e) => setCls(e.target.value)} />
        <SelectField
          label="Subject"
          required
          value={subject}
          onChange={(e) => setSubject(e.target.value)}
          placeholder="Select subject"
          options={currentSubjectNames(subjects.data)}
        />
        <Button type="submit">Open score sheet</Button>
      </form>
      <FormError message={error} />
    </Card>
  );
}

/**
 * The sheet being edited: the grid's state lives here, not in the page, so a keystroke re-renders
 * the grid and its status line only.
 */
function SheetEditor({
  sheet,
  bands,
  reason,
  setReason,
}: {
  sheet: ScoreSheet;
  bands: readonly GradeBand[] | undefined;
  reason: string;
  setReason: (r: string) => void;
}) {
  const grid = useGrid(sheet, reason);
  const [column, setColumn] = useState('');
  const shownLabel = column || sheet.components[0]?.label || '';
  const settled = useDeferredValue(grid.rows);
  const stats = subjectStatistics(
    sheet.rows.flatMap((r, i) => {
      const s = settled[r.admission_number];
      // Only complete rows count: a CA1 alone is not a score of the class yet.
      const p = r.takes && s ? parseRow(sheet.components, sheet.precision, s) : null;
      return p?.complete && p.total !== null ? [{ student_id: i, score: p.total }] : [];
    }),
  ).stats;
  return (
    <>
      <div className="mb-3 flex flex-col gap-3">
        {sheet.may_write && (sheet.released || grid.needReason) && (
          <div className="sm:w-96">
            <ReasonField value={reason} onChange={setReason} />
          </div>
        )}
        <div className="flex flex-wrap items-end justify-between gap-3">
          {sheet.components.length > 1 && (
            <div className="min-w-40 flex-1 sm:hidden">
              <SelectField
                label="Component"
                value={shownLabel}
                onChange={(e) => setColumn(e.target.value)}
                options={sheet.components.map((c) => ({ value: c.label, label: `${c.label} /${c.max}` }))}
              />
            </div>
          )}
          {sheet.may_write && (
            <Button variant="secondary" onClick={grid.saveAll} disabled={!grid.unsaved}>
              {grid.unsaved ? `Save all (${grid.unsaved})` : 'Save all'}
            </Button>
          )}
        </div>
        <OfflineBanner fetchedAt={sheetFetchedAt(sheet)} fromCopy={sheetFromCopy(sheet)} entries={sheet.may_write} className="" />
        <p className="min-h-5 text-sm text-slate-700" role="status" aria-live="polite" data-testid="grid-status">
          {grid.announcement}
        </p>
      </div>
      <ScoreGrid sheet={sheet} grid={grid} bands={bands} column={shownLabel} onColumn={setColumn} />
      {stats && (
        <p className="mt-3 text-sm text-slate-700" data-testid="sheet-stats">
          {stats.count} scored · highest {stats.highest} · lowest {stats.lowest} · average {formatAverage(stats.average)}
        </p>
      )}
    </>
  );
}

/** /score-sheet (staff and admin): one arm's scores in one subject and term, students down, components across. */
export default function ScoreSheetPage() {
  const [q, params, setParams] = useSheetQuery();
  const sheetQuery = useScoreSheet(q);
  const sheet = sheetQuery.data;
  const scales = useGradingScales(q?.session_id);
  const [reason, setReason] = useState('');
  const bands = sheet ? scales.data?.find((s) => s.level === levelOfClass(sheet.student_class))?.bands : undefined;
  const online = useOnline();
  // The teacher's own sheets of the term are kept for offline use while this screen is open online.
  useKeepOwnScoreSheets();

  const title = 'Score Sheet';
  if (!q) {
    return (
      <PageLayout title={title}>
        <KeptSheets />
        <Choosers params={params} onOpen={(p) => setParams(p)} />
      </PageLayout>
    );
  }

  return (
    <SheetFrame
      title={title}
      heading={
        <>
          {q.student_class} · {q.subject} · {termLabel(q.term)}
          {sheet ? `, ${sheet.session.name}` : ''}
        </>
      }
      back={{ to: '/score-sheet', label: 'Change class or subject' }}
      load={{
        query: sheetQuery,
        failed: online ? ASSESSMENT_MESSAGES.gridLoadFailed : OFFLINE_MESSAGES.noCopy,
        empty: ASSESSMENT_MESSAGES.sheetNoStudents,
      }}
    >
      {(sheet) => (
        <>
          <p className="mb-3 text-sm text-slate-700" data-testid="scheme">
            {describeScheme(sheet.components)}. {ASSESSMENT_MESSAGES.absentNote}
          </p>
          {!sheet.may_write && (
            <Alert tone="warning" className="mb-3">
              {sheet.refusal ?? ASSESSMENT_MESSAGES.gridReadOnly}
            </Alert>
          )}
          {/* One editor per sheet: edits of one subject or class never carry over to another. */}
          <SheetEditor
            key={`${sheet.session.id}|${sheet.term}|${sheet.student_class}|${sheet.subject}`}
            sheet={sheet}
            bands={bands}
            reason={reason}
            setReason={setReason}
          />
          <CsvPanel sheet={sheet} query={q} reason={reason} />
        </>
      )}
    </SheetFrame>
  );
}
