import {
  memo,
  useCallback,
  useDeferredValue,
  useMemo,
  useSyncExternalStore,
  type ClipboardEvent,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import { flushSync } from 'react-dom';
import { ASSESSMENT_MESSAGES, type AssessmentComponent, type ScorePrecision, type ScoreSheet } from '@portal/domain/assessment';
import { bandFor, type GradeBand } from '@portal/domain/grading';
import { Button } from '../../../../components/ui/button';
import { describeScores, livePositions, parsePasted, parseRow, type RowState } from './grid-model';
import type { useGrid } from './use-grid';

type Grid = ReturnType<typeof useGrid>;

const WIDE = '(min-width: 640px)';
let wideQuery: MediaQueryList | null = null;
const media = () => (wideQuery ??= window.matchMedia(WIDE));
const subscribe = (cb: () => void) => {
  media().addEventListener('change', cb);
  return () => media().removeEventListener('change', cb);
};
/** Laptops show every component column; below 640 px only the chosen one is rendered. */
export function useWideScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media().matches,
    () => true,
  );
}

const STATUS: Record<RowState['status'], { icon: string; text: string; tone: string } | null> = {
  idle: null,
  unsaved: { icon: '●', text: ASSESSMENT_MESSAGES.gridUnsaved, tone: 'text-amber-800' },
  saving: { icon: '↻', text: ASSESSMENT_MESSAGES.gridSaving, tone: 'text-slate-700' },
  saved: { icon: '✓', text: ASSESSMENT_MESSAGES.gridSaved, tone: 'text-brand-800' },
  failed: { icon: '⚠', text: ASSESSMENT_MESSAGES.gridFailed, tone: 'text-red-700' },
  conflict: { icon: '⚠', text: ASSESSMENT_MESSAGES.gridConflict, tone: 'text-red-700' },
};

interface RowProps {
  index: number;
  admission: string;
  name: string;
  takes: boolean;
  state: RowState | undefined;
  components: readonly AssessmentComponent[];
  /** Indexes into `components` of the columns rendered. */
  shown: readonly number[];
  precision: ScorePrecision;
  position: number | null;
  bands: readonly GradeBand[] | undefined;
  readOnly: boolean;
  grid: Pick<Grid, 'edit' | 'saveRow' | 'keepMine' | 'takeTheirs'>;
  onPaste: (row: number, col: number, text: string) => boolean;
}

const GridRow = memo(function GridRow({
  index,
  admission,
  name,
  takes,
  state,
  components,
  shown,
  precision,
  position,
  bands,
  readOnly,
  grid,
  onPaste,
}: RowProps) {
  const cols = shown.length + 5;
  const detailId = `row-detail-${index}`;
  if (!takes || !state) {
    return (
      <tr className="border-b border-slate-100 bg-slate-50 text-slate-500" data-testid={`row-${admission}`}>
        <th scope="row" className="p-1 text-left font-normal [overflow-wrap:anywhere] sm:p-1.5">
          <span className="block">{name}</span>
          <span className="block text-xs">{admission}</span>
        </th>
        {shown.map((i) => (
          <td key={components[i]!.label} className="p-1 sm:p-1.5" />
        ))}
        <td className="p-1 sm:p-1.5" colSpan={3} />
        <td className="p-1 sm:p-1.5 text-xs" data-testid="row-status">
          {ASSESSMENT_MESSAGES.notTaken}
        </td>
      </tr>
    );
  }
  const parsed = parseRow(components, precision, state);
  const grade =
    parsed.total === null
      ? ''
      : bands?.length
        ? bandFor(parsed.total, bands).grade
        : state.base && state.base.score === parsed.total
          ? state.base.grade
          : '';
  const problems = Object.entries(parsed.problems);
  const status = STATUS[state.status];
  const totalOnly = state.base?.total_only && !Object.keys(parsed.values).length;
  const showDetail = problems.length > 0 || state.status === 'failed' || state.status === 'conflict';
  const leaveRow = (e: FocusEvent<HTMLTableRowElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget)) void grid.saveRow(admission);
  };
  return (
    <>
      <tr className="border-b border-slate-100 align-top" data-testid={`row-${admission}`} onBlur={readOnly ? undefined : leaveRow}>
        <th scope="row" className="p-1 text-left font-medium [overflow-wrap:anywhere] sm:p-1.5">
          <span className="block">{name}</span>
          <span className="block text-xs font-normal text-slate-600">{admission}</span>
        </th>
        {shown.map((i) => {
          const c = components[i]!;
          const bad = parsed.problems[c.label];
          return (
            <td key={c.label} className="p-1">
              {readOnly ? (
                <span className="block px-1 py-1.5 text-right tabular-nums">{state.cells[c.label] || '–'}</span>
              ) : (
                <input
                  type="text"
                  autoComplete="off"
                  spellCheck={false}
                  enterKeyHint="next"
                  data-r={index}
                  data-c={i}
                  value={state.cells[c.label] ?? ''}
                  aria-label={`${c.label} for ${name}`}
                  aria-invalid={bad ? true : undefined}
                  aria-describedby={bad ? detailId : undefined}
                  onChange={(e) => grid.edit(admission, { [c.label]: e.target.value })}
                  onPaste={(e: ClipboardEvent<HTMLInputElement>) => {
                    if (onPaste(index, i, e.clipboardData.getData('text/plain'))) e.preventDefault();
                  }}
                  className={`w-12 rounded border px-1 py-1.5 text-right text-base tabular-nums sm:w-16 ${
                    bad ? 'border-red-600 bg-red-50' : 'border-slate-300'
                  }`}
                />
              )}
            </td>
          );
        })}
        <td className="p-1 text-right font-semibold tabular-nums sm:p-1.5" data-testid="row-total">
          {parsed.total ?? '–'}
          {totalOnly && (
            <>
              <span aria-hidden="true">*</span>
              <span className="sr-only"> ({ASSESSMENT_MESSAGES.totalOnly})</span>
            </>
          )}
        </td>
        <td className="p-1 sm:p-1.5 text-center" data-testid="row-grade">
          {grade}
        </td>
        <td className="p-1 sm:p-1.5 text-center tabular-nums" data-testid="row-position">
          {position ?? ''}
        </td>
        <td className={`p-1 sm:p-1.5 text-xs ${status?.tone ?? ''}`} data-testid="row-status">
          {status && (
            <span className="inline-flex items-start gap-1">
              <span aria-hidden="true">{status.icon}</span>
              <span>{status.text}</span>
            </span>
          )}
        </td>
      </tr>
      {showDetail && (
        <tr className="border-b border-slate-100">
          <td colSpan={cols} className="px-1.5 pb-2 text-sm" id={detailId} data-testid={`row-detail-${admission}`}>
            {problems.map(([label, message]) => (
              <p key={label} className="text-red-700">
                {message}
              </p>
            ))}
            {state.status === 'failed' && (
              <div className="flex flex-wrap items-center gap-2 text-red-700">
                <span>{state.message}</span>
                <Button variant="secondary" className="min-h-9 px-3" onClick={() => void grid.saveRow(admission)}>
                  Retry
                </Button>
              </div>
            )}
            {state.status === 'conflict' && (
              <div className="flex flex-col gap-1" data-testid="conflict">
                <p className="font-medium text-red-700">{ASSESSMENT_MESSAGES.rowConflict(name)}</p>
                <p>Yours: {describeScores(components, parsed.values)}</p>
                <p>
                  Theirs{state.theirs?.updated_by ? ` (changed by ${state.theirs.updated_by})` : ''}:{' '}
                  {state.theirs
                    ? describeScores(components, state.theirs.components, state.theirs.total_only ? state.theirs.score : undefined)
                    : 'cleared'}
                </p>
                <div className="flex flex-wrap gap-2">
                  <Button className="min-h-9 px-3" onClick={() => grid.keepMine(admission)}>
                    {ASSESSMENT_MESSAGES.gridKeepMine}
                  </Button>
                  <Button variant="secondary" className="min-h-9 px-3" onClick={() => grid.takeTheirs(admission)}>
                    {ASSESSMENT_MESSAGES.gridUseTheirs}
                  </Button>
                </div>
              </div>
            )}
          </td>
        </tr>
      )}
    </>
  );
});

/** The next input in a direction, skipping rows without inputs (students who do not take the subject). */
function moveFrom(table: HTMLElement, r: number, c: number, dr: number, dc: number, rows: number): HTMLInputElement | null {
  if (dc) return table.querySelector<HTMLInputElement>(`input[data-r="${r}"][data-c="${c + dc}"]`);
  for (let k = r + dr; k >= 0 && k < rows; k += dr) {
    const el = table.querySelector<HTMLInputElement>(`input[data-r="${k}"][data-c="${c}"]`);
    if (el) return el;
  }
  return null;
}

/**
 * The class grid: students down, component columns across, then total, grade, position and each
 * row's save state. Enter/arrows move like a spreadsheet, a pasted block fills right and down.
 */
export function ScoreGrid({
  sheet,
  grid,
  bands,
  column,
  onColumn,
}: {
  sheet: ScoreSheet;
  grid: Grid;
  bands: readonly GradeBand[] | undefined;
  /** The component shown on a phone (a label). */
  column: string;
  /** Shows another component on a phone (the arrows step across components there). */
  onColumn: (label: string) => void;
}) {
  const wide = useWideScreen();
  const { components, precision } = sheet;
  const readOnly = !sheet.may_write;
  const shown = useMemo(() => {
    if (wide) return components.map((_, i) => i);
    const i = components.findIndex((c) => c.label === column);
    return [i < 0 ? 0 : i];
  }, [wide, components, column]);

  // Positions depend on every row: worked out after the keystroke's own paint (a deferred
  // render), so typing repaints one row, not the forty whose positions shift.
  const settled = useDeferredValue(grid.rows);
  const positions = useMemo(
    () =>
      livePositions(
        sheet.rows.map((r) => {
          const s = settled[r.admission_number];
          return { admission_number: r.admission_number, total: r.takes && s ? parseRow(components, precision, s).total : null };
        }),
      ),
    [settled, sheet.rows, components, precision],
  );

  const { edit, setAnnouncement } = grid;
  const onPaste = useCallback(
    (row: number, col: number, text: string): boolean => {
      // One value is an ordinary paste into the cell; a block (tabs or lines) fills right and down.
      if (!/[\t\n]/.test(text.replace(/\r?\n$/, ''))) return false;
      const block = parsePasted(text);
      const targets = sheet.rows.slice(row).filter((r) => r.takes);
      let dropped = false;
      block.forEach((cells, k) => {
        const target = targets[k];
        if (!target) {
          dropped = true;
          return;
        }
        const patch: Record<string, string> = {};
        cells.forEach((v, j) => {
          const c = components[col + j];
          if (c) patch[c.label] = v;
          else dropped = true;
        });
        edit(target.admission_number, patch);
      });
      if (dropped) setAnnouncement(ASSESSMENT_MESSAGES.gridPasteTooBig(block.length, Math.max(...block.map((b) => b.length))));
      return true;
    },
    [sheet.rows, components, edit, setAnnouncement],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const el = e.target as HTMLInputElement;
    if (el.tagName !== 'INPUT' || el.dataset.r === undefined) return;
    const r = Number(el.dataset.r);
    const c = Number(el.dataset.c);
    let next: HTMLInputElement | null = null;
    // Read only for arrows: a digit's keydown does no work here.
    const atStart = () => el.selectionStart === 0 && el.selectionEnd === 0;
    const atEnd = () => el.selectionStart === el.value.length && el.selectionEnd === el.value.length;
    if (e.key === 'Enter' || e.key === 'ArrowDown') next = moveFrom(e.currentTarget, r, c, 1, 0, sheet.rows.length);
    else if (e.key === 'ArrowUp') next = moveFrom(e.currentTarget, r, c, -1, 0, sheet.rows.length);
    else if (e.key === 'ArrowLeft' && atStart()) next = moveFrom(e.currentTarget, r, c, 0, -1, sheet.rows.length);
    else if (e.key === 'ArrowRight' && atEnd()) next = moveFrom(e.currentTarget, r, c, 0, 1, sheet.rows.length);
    else return;
    if (e.key === 'Enter') e.preventDefault();
    const dc = e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowRight' ? 1 : 0;
    if (!next && dc && !wide && components[c + dc]) {
      // A phone shows one component: stepping across brings the next one into view.
      flushSync(() => onColumn(components[c + dc]!.label));
      next = e.currentTarget.querySelector<HTMLInputElement>(`input[data-r="${r}"][data-c="${c + dc}"]`);
    }
    if (!next) return;
    e.preventDefault();
    next.focus();
    next.select();
  };

  const actions = useMemo(
    () => ({ edit: grid.edit, saveRow: grid.saveRow, keepMine: grid.keepMine, takeTheirs: grid.takeTheirs }),
    [grid.edit, grid.saveRow, grid.keepMine, grid.takeTheirs],
  );

  const anyTotalOnly = sheet.rows.some((r) => r.result?.total_only);
  return (
    <>
      {anyTotalOnly && <p className="mb-2 text-sm text-slate-700">* {ASSESSMENT_MESSAGES.totalOnly}</p>}
      <div className="max-w-full rounded-xl border border-slate-200 bg-white">
        <table
          // Fixed layout: a typed digit re-lays one cell, not every column of the 40 rows.
          className="w-full table-fixed border-collapse text-sm"
          aria-label={`Scores: ${sheet.student_class} ${sheet.subject}`}
          data-testid="score-grid"
        >
          <thead>
            <tr className="border-b-2 border-slate-300 text-left text-xs sm:text-sm">
              <th scope="col" className="p-1 sm:p-1.5">
                Student
              </th>
              {shown.map((i) => (
                <th key={components[i]!.label} scope="col" className="w-[3.75rem] p-1 text-right whitespace-nowrap sm:w-24 sm:p-1.5">
                  {components[i]!.label} <span className="font-normal text-slate-600">/{components[i]!.max}</span>
                </th>
              ))}
              <th scope="col" className="w-11 p-1 text-right sm:w-16 sm:p-1.5">
                Total
              </th>
              <th scope="col" className="w-11 p-1 text-center sm:w-16 sm:p-1.5">
                Grade
              </th>
              <th scope="col" className="w-9 p-1 text-center sm:w-14 sm:p-1.5">
                <abbr title="Position" className="no-underline">
                  Pos.
                </abbr>
              </th>
              <th scope="col" className="w-16 p-1 sm:w-32 sm:p-1.5">
                Status
              </th>
            </tr>
          </thead>
          <tbody onKeyDown={onKeyDown}>
            {sheet.rows.map((r, index) => {
              const state = grid.rows[r.admission_number];
              return (
                <GridRow
                  key={r.admission_number}
                  index={index}
                  admission={r.admission_number}
                  name={r.name}
                  takes={r.takes}
                  state={state}
                  components={components}
                  shown={shown}
                  precision={precision}
                  position={positions.get(r.admission_number) ?? null}
                  bands={bands}
                  readOnly={readOnly}
                  grid={actions}
                  onPaste={onPaste}
                />
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
