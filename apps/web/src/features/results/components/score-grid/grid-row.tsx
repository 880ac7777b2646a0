import { memo, type ClipboardEvent, type FocusEvent } from 'react';
import { ASSESSMENT_MESSAGES, type AssessmentComponent, type ScorePrecision } from '@portal/domain/assessment';
import { AUTOSAVE_MESSAGES } from '@portal/domain/autosave-screens';
import { bandFor, type GradeBand } from '@portal/domain/grading';
import { GRID_SCREEN_MESSAGES as G } from '@portal/domain/score-grid-screens';
import { Button } from '../../../../components/ui/button';
import { saveStateLook, StudentRowHeader, type SaveStateWords } from '../../../../components/ui/sheet-row';
import { describeScores, parseRow, type RowState } from './grid-model';
import type { useGrid } from './use-grid';

export type Grid = ReturnType<typeof useGrid>;

/** Names wrap at spaces (a word breaks only when it cannot fit a line of its own). */
const NAME_CELL = 'p-1 text-left font-normal [overflow-wrap:break-word] sm:p-1.5';

const SAVE_WORDS: SaveStateWords = {
  unsaved: ASSESSMENT_MESSAGES.gridUnsaved,
  saving: ASSESSMENT_MESSAGES.gridSaving,
  saved: ASSESSMENT_MESSAGES.gridSaved,
  failed: ASSESSMENT_MESSAGES.gridFailed,
  conflict: ASSESSMENT_MESSAGES.gridConflict,
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

export const GridRow = memo(function GridRow({
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
  const status = saveStateLook(state.status, SAVE_WORDS);
  const totalOnly = state.base?.total_only && !Object.keys(parsed.values).length;
  const incomplete = parsed.total !== null && !parsed.complete;
  const showDetail = problems.length > 0 || state.status === 'failed' || state.status === 'conflict';
  const leaveRow = (e: FocusEvent<HTMLTableRowElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget)) grid.saveRow(admission);
  };
  return (
    <>
      <tr className="border-b border-slate-100 align-top" data-testid={`row-${admission}`} onBlur={readOnly ? undefined : leaveRow}>
        <StudentRowHeader name={name} admission={admission} className={`${NAME_CELL} font-medium`} />
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
