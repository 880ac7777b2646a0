import {
  memo,
  useCallback,
  useDeferredValue,
  useMemo,
  useState,
  useSyncExternalStore,
  type ClipboardEvent,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import { flushSync } from 'react-dom';
import {
  ABSENT_MARK,
  ASSESSMENT_MESSAGES,
  parseComponentCell,
  type AssessmentComponent,
  type ScorePrecision,
  type ScoreSheet,
} from '@portal/domain/assessment';
import { AUTOSAVE_MESSAGES } from '@portal/domain/autosave-screens';
import { bandFor, type GradeBand } from '@portal/domain/grading';
import { GRID_SCREEN_MESSAGES as G } from '@portal/domain/score-grid-screens';
import { Button } from '../../../../components/ui/button';
import { LeaveGuard } from '../../../../components/ui/leave-guard';
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

/** Names wrap at spaces (a word breaks only when it cannot fit a line of its own). */
const NAME_CELL = 'p-1 text-left font-normal [overflow-wrap:break-word] sm:p-1.5';

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
  /** Every column shown (a laptop); a phone puts the grade under the total. */
  wide: boolean;
  /** A cell took the focus: the absent button acts on it. */
  onCell: (admission: string, label: string) => void;
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
  wide,
  onCell,
}: RowProps) {
  const cols = shown.length + (wide ? 5 : 4);
  const detailId = `row-detail-${index}`;
  if (!takes || !state) {
    return (
      <tr className="border-b border-slate-100 bg-slate-50 text-slate-500" data-testid={`row-${admission}`}>
        <th scope="row" className={NAME_CELL}>
          <span className="block">{name}</span>
          <span className="block text-xs">{admission}</span>
        </th>
        {shown.map((i) => (
          <td key={components[i]!.label} className="p-1 sm:p-1.5" />
        ))}
        <td className="p-1 text-xs sm:p-1.5" colSpan={wide ? 4 : 3} data-testid="row-status">
          {ASSESSMENT_MESSAGES.notTaken}
        </td>
      </tr>
    );
  }
  const parsed = parseRow(components, precision, state);
  // A total still missing a component is a running total: no grade yet (its position is left out too).
  const grade =
    parsed.total === null || !parsed.complete
      ? ''
      : bands?.length
        ? bandFor(parsed.total, bands).grade
        : state.base && state.base.score === parsed.total
          ? state.base.grade
          : '';
  const problems = Object.entries(parsed.problems);
  const status = STATUS[state.status];
  const totalOnly = state.base?.total_only && !Object.keys(parsed.values).length;
  const incomplete = parsed.total !== null && !parsed.complete;
  const showDetail = problems.length > 0 || state.status === 'failed' || state.status === 'conflict';
  const leaveRow = (e: FocusEvent<HTMLTableRowElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget)) grid.saveRow(admission);
  };
  return (
    <>
      <tr className="border-b border-slate-100 align-top" data-testid={`row-${admission}`} onBlur={readOnly ? undefined : leaveRow}>
        <th scope="row" className={`${NAME_CELL} font-medium`}>
          <span className="block">{name}</span>
          <span className="block text-xs font-normal text-slate-600">{admission}</span>
        </th>
        {shown.map((i) => {
          const c = components[i]!;
          const bad = parsed.problems[c.label];
          return (
            <td key={c.label} className="p-1">
              {readOnly ? (
                <span className="block px-1 py-1.5 text-right tabular-nums">{state.value[c.label] || '–'}</span>
              ) : (
                <input
                  type="text"
                  // A number pad on a phone (marks with a decimal point); ABS comes from the absent button.
                  inputMode="decimal"
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  enterKeyHint="next"
                  data-r={index}
                  data-c={i}
                  value={state.value[c.label] ?? ''}
                  aria-label={G.cellOf(c.label, name)}
                  aria-invalid={bad ? true : undefined}
                  aria-describedby={bad ? detailId : undefined}
                  onChange={(e) => grid.edit(admission, { [c.label]: e.target.value })}
                  onFocus={() => onCell(admission, c.label)}
                  onPaste={(e: ClipboardEvent<HTMLInputElement>) => {
                    if (onPaste(index, i, e.clipboardData.getData('text/plain'))) e.preventDefault();
                  }}
                  className={`min-h-11 w-12 rounded border px-1 text-right text-base tabular-nums sm:w-16 ${
                    bad ? 'border-red-600 bg-red-50' : 'border-slate-300'
                  }`}
                />
              )}
            </td>
          );
        })}
        <td className="p-1 text-right font-semibold tabular-nums sm:p-1.5">
          <span data-testid="row-total">
            {parsed.total ?? '–'}
            {totalOnly && (
              <>
                <span aria-hidden="true">*</span>
                <span className="sr-only"> ({ASSESSMENT_MESSAGES.totalOnly})</span>
              </>
            )}
            {incomplete && (
              <>
                <span aria-hidden="true" className="font-normal text-slate-600">
                  …
                </span>
                <span className="sr-only"> ({G.incomplete})</span>
              </>
            )}
          </span>
          {/* A phone has no room for a grade column: the grade sits under the total. */}
          {!wide && (
            <span className="block text-xs font-normal" data-testid="row-grade">
              {grade}
            </span>
          )}
        </td>
        {wide && (
          <td className="p-1 text-center sm:p-1.5" data-testid="row-grade">
            {grade}
          </td>
        )}
        <td className="p-1 text-center tabular-nums sm:p-1.5" data-testid="row-position">
          {position ?? ''}
        </td>
        <td className={`p-1 text-center text-xs sm:p-1.5 sm:text-left ${status?.tone ?? ''}`} data-testid="row-status">
          {status && (
            <span className="inline-flex items-start gap-1" title={status.text}>
              <span aria-hidden="true" className="text-base leading-none sm:text-xs">
                {status.icon}
              </span>
              {/* A phone shows the icon (with its words for screen readers); wider screens the words too. */}
              <span className="sr-only sm:not-sr-only">{status.text}</span>
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
                <span>
                  {state.message}
                  {state.autoRetry && <span className="block text-slate-700">{AUTOSAVE_MESSAGES.autoRetry}</span>}
                </span>
                <Button variant="secondary" className="px-3" onClick={() => grid.saveRow(admission)}>
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
                  <Button className="px-3" onClick={() => grid.keepMine(admission)}>
                    {ASSESSMENT_MESSAGES.gridKeepMine}
                  </Button>
                  <Button variant="secondary" className="px-3" onClick={() => grid.takeTheirs(admission)}>
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
  // render), so typing repaints one row, not the forty whose positions shift. Only complete rows
  // are ranked: a CA1 alone is no position.
  const settled = useDeferredValue(grid.rows);
  const { positions, anyIncomplete } = useMemo(() => {
    let incomplete = false;
    const totals = sheet.rows.map((r) => {
      const s = settled[r.admission_number];
      const p = r.takes && s ? parseRow(components, precision, s) : null;
      if (p && p.total !== null && !p.complete) incomplete = true;
      return { admission_number: r.admission_number, total: p?.complete ? p.total : null };
    });
    return { positions: livePositions(totals), anyIncomplete: incomplete };
  }, [settled, sheet.rows, components, precision]);

  const { edit, setAnnouncement } = grid;
  const onPaste = useCallback(
    (row: number, col: number, text: string): boolean => {
      // One value is an ordinary paste into the cell; a block (tabs or lines) fills right and down.
      if (!/[\t\n]/.test(text.replace(/\r?\n$/, ''))) return false;
      const block = parsePasted(text);
      const targets = sheet.rows.slice(row).filter((r) => r.takes);
      let dropped = false;
      const filled = new Set<number>();
      block.forEach((cells, k) => {
        const target = targets[k];
        if (!target) {
          dropped = true;
          return;
        }
        const patch: Record<string, string> = {};
        cells.forEach((v, j) => {
          const c = components[col + j];
          if (c) {
            patch[c.label] = v;
            filled.add(col + j);
          } else dropped = true;
        });
        edit(target.admission_number, patch);
      });
      // Every pasted column is filled, shown or not; the words say which, and which are out of sight on a phone.
      const labels = [...filled].sort((a, b) => a - b).map((i) => components[i]!.label);
      const hidden = [...filled]
        .sort((a, b) => a - b)
        .filter((i) => !shown.includes(i))
        .map((i) => components[i]!.label);
      const rowsPasted = Math.min(block.length, targets.length);
      setAnnouncement(
        [
          dropped
            ? ASSESSMENT_MESSAGES.gridPasteTooBig(block.length, Math.max(...block.map((b) => b.length)))
            : G.pasted(rowsPasted, labels),
          hidden.length ? G.pastedHidden(hidden) : '',
        ]
          .filter(Boolean)
          .join(' '),
      );
      return true;
    },
    [sheet.rows, components, edit, setAnnouncement, shown],
  );

  // The absent button acts on the last score cell that had the focus (a number pad has no letters).
  const [cell, setCell] = useState<{ admission: string; label: string } | null>(null);
  const onCell = useCallback((admission: string, label: string) => setCell({ admission, label }), []);
  const cellShown = cell && shown.some((i) => components[i]!.label === cell.label) ? cell : null;
  const cellName = cellShown ? sheet.rows.find((r) => r.admission_number === cellShown.admission)?.name : undefined;
  const cellValue = cellShown ? (grid.rows[cellShown.admission]?.value[cellShown.label] ?? '') : '';
  const cellAbsent = parseComponentCell(cellValue) === ABSENT_MARK;
  const toggleAbsent = () => {
    if (!cellShown) return;
    edit(cellShown.admission, { [cellShown.label]: cellAbsent ? '' : ABSENT_MARK });
    // Back to the cell (a screen reader's tap moved the focus to the button): the number pad stays.
    const r = sheet.rows.findIndex((x) => x.admission_number === cellShown.admission);
    const c = components.findIndex((x) => x.label === cellShown.label);
    document.querySelector<HTMLInputElement>(`[data-testid="score-grid"] input[data-r="${r}"][data-c="${c}"]`)?.focus();
  };

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
      {!readOnly && <LeaveGuard {...grid.guard} />}
      {anyTotalOnly && <p className="mb-2 text-sm text-slate-700">* {ASSESSMENT_MESSAGES.totalOnly}</p>}
      {anyIncomplete && (
        <p className="mb-2 text-sm text-slate-700" data-testid="incomplete-note">
          {G.incompleteNote}
        </p>
      )}
      {!readOnly && (
        // Stays at the top while the grid scrolls (a phone's keyboard covers the bottom).
        <div className="sticky top-0 z-20 mb-1 flex min-h-12 items-center gap-2 rounded-lg border border-slate-200 bg-white/95 px-2 py-1 text-sm backdrop-blur">
          <Button
            variant="secondary"
            className="shrink-0 px-3"
            aria-pressed={cellShown ? cellAbsent : undefined}
            aria-label={cellShown && cellName ? G.absentLabel(G.cellOf(cellShown.label, cellName)) : G.absentButton}
            disabled={!cellShown}
            // The cell keeps the focus (and the phone its number pad) while the button is pressed.
            onPointerDown={(e) => e.preventDefault()}
            onMouseDown={(e) => e.preventDefault()}
            onClick={toggleAbsent}
            data-testid="absent-button"
          >
            {G.absentButton}
          </Button>
          <span className="min-w-0 text-slate-700" aria-hidden={cellShown ? true : undefined}>
            {cellShown && cellName ? G.cellOf(cellShown.label, cellName) : G.absentNoCell}
          </span>
        </div>
      )}
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
              <th scope="col" className="w-14 p-1 text-right sm:w-16 sm:p-1.5">
                Total
                {!wide && <span className="block font-normal">Grade</span>}
              </th>
              {wide && (
                <th scope="col" className="w-16 p-1.5 text-center">
                  Grade
                </th>
              )}
              <th scope="col" className="w-9 p-1 text-center sm:w-14 sm:p-1.5">
                <abbr title="Position" className="no-underline">
                  Pos.
                </abbr>
              </th>
              <th scope="col" className="w-8 p-1 sm:w-32 sm:p-1.5">
                <span className="sr-only sm:not-sr-only">Status</span>
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
                  wide={wide}
                  onCell={onCell}
                />
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
