import { useCallback, useDeferredValue, useMemo, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { ABSENT_MARK, ASSESSMENT_MESSAGES, parseComponentCell, type ScoreSheet } from '@portal/domain/assessment';
import type { GradeBand } from '@portal/domain/grading';
import { GRID_SCREEN_MESSAGES as G } from '@portal/domain/score-grid-screens';
import { Button } from '../../../../components/ui/button';
import { LeaveGuard } from '../../../../components/ui/leave-guard';
import { livePositions, parsePasted, parseRow } from './grid-model';
import { type Grid, GridRow } from './grid-row';

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
