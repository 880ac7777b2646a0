import { memo, useCallback, useMemo, useState, type ClipboardEvent, type FocusEvent, type KeyboardEvent } from 'react';
import { RATING_DOMAIN_LABELS, RATING_DOMAINS, RATING_MAX, RATING_MIN, type RatingTrait } from '@portal/domain/report-card-rules';
import { type RatingSheet } from '@portal/domain/report-cards';
import {
  RATING_FILL as F,
  REPORT_SHEET_LABELS as L,
  REPORT_SHEET_MESSAGES as M,
  REPORT_SHEET_TITLES,
} from '@portal/domain/report-sheet-screens';
import { Button } from '../../../components/ui/button';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { SelectField } from '../../../components/ui/field';
import { LeaveGuard } from '../../../components/ui/leave-guard';
import { useSession } from '../../../lib/auth-store';
import { scopeOf } from '../../../lib/offline';
import { useRatingSheet, useReloadSheets, useSaveRatingRows } from '../api';
import { RowProblem, RowStatusText } from '../components/row-status';
import { StudentRowHeader } from '../../../components/ui/sheet-row';
import { LockNote, SheetOfflineBanner, SheetPage, sheetKey } from '../components/sheet-page';
import { keepSavedRating, RATINGS_KIND } from '../sheet-outbox';
import { fillRatings, parsePasted, parseRatingRow, ratingCells, traitColumns, type Cells, type RowState } from '../sheet-model';
import { useSheetRows, type SheetRows, type StoredRow } from '../use-sheet-rows';

interface RowProps {
  index: number;
  admission: string;
  name: string;
  state: RowState | undefined;
  columns: readonly RatingTrait[];
  readOnly: boolean;
  edit: SheetRows['edit'];
  saveRow: SheetRows['saveRow'];
  onReload: () => void;
  onPaste: (row: number, col: number, text: string) => boolean;
}

const RatingRow = memo(function RatingRow({
  index,
  admission,
  name,
  state,
  columns,
  readOnly,
  edit,
  saveRow,
  onReload,
  onPaste,
}: RowProps) {
  if (!state) return null;
  const { problems } = parseRatingRow(columns, state.value);
  const detailId = `ratings-detail-${index}`;
  const leaveRow = (e: FocusEvent<HTMLTableRowElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget)) saveRow(admission);
  };
  const showDetail = Object.keys(problems).length > 0 || state.status === 'failed' || state.status === 'conflict';
  return (
    <>
      <tr className="border-b border-slate-100 align-top" data-testid={`row-${admission}`} onBlur={readOnly ? undefined : leaveRow}>
        <StudentRowHeader
          name={name}
          admission={admission}
          className="sticky left-0 z-10 w-32 min-w-32 bg-white p-1 text-left font-medium [overflow-wrap:anywhere] sm:w-48 sm:p-1.5"
        />
        {columns.map((t, i) => (
          <td key={t.id} className="p-1 text-center">
            {readOnly ? (
              <span className="block py-1.5 tabular-nums">{state.value[t.id] || '–'}</span>
            ) : (
              <input
                type="text"
                inputMode="numeric"
                autoComplete="off"
                spellCheck={false}
                enterKeyHint="next"
                maxLength={2}
                data-r={index}
                data-c={i}
                value={state.value[t.id] ?? ''}
                aria-label={`${t.name} for ${name}`}
                aria-invalid={problems[t.id] ? true : undefined}
                aria-describedby={problems[t.id] ? detailId : undefined}
                onChange={(e) => edit(admission, { [t.id]: e.target.value })}
                onPaste={(e: ClipboardEvent<HTMLInputElement>) => {
                  if (onPaste(index, i, e.clipboardData.getData('text/plain'))) e.preventDefault();
                }}
                className={`w-11 rounded border px-1 py-1.5 text-center text-base tabular-nums ${
                  problems[t.id] ? 'border-red-600 bg-red-50' : 'border-slate-300'
                }`}
              />
            )}
          </td>
        ))}
        <td className="p-1 sm:p-1.5" data-testid="row-status">
          <RowStatusText state={state} />
        </td>
      </tr>
      {showDetail && (
        <tr className="border-b border-slate-100">
          <td colSpan={columns.length + 2} className="sticky left-0 px-1.5 pb-2">
            <RowProblem
              id={detailId}
              state={state}
              problems={Object.values(problems)}
              onRetry={() => saveRow(admission)}
              onReload={onReload}
            />
          </td>
        </tr>
      )}
    </>
  );
});

/** The next input in a direction. */
function moveFrom(table: HTMLElement, r: number, c: number, dr: number, dc: number): HTMLInputElement | null {
  return table.querySelector<HTMLInputElement>(`input[data-r="${r + dr}"][data-c="${c + dc}"]`);
}

/** The grid: students down (name column sticky), every trait of both domains across, each row's save state. */
function RatingGrid({ sheet, fetchedAt }: { sheet: RatingSheet; fetchedAt: number }) {
  const columns = useMemo(() => traitColumns(sheet.traits), [sheet.traits]);
  const session = useSession();
  const readOnly = !sheet.may_edit_form;
  const save = useSaveRatingRows();
  const reload = useReloadSheets();
  const stored = useMemo<StoredRow[]>(
    () =>
      sheet.rows.map((r) => ({
        admission_number: r.admission_number,
        name: r.name,
        cells: ratingCells(columns, r.ratings),
        version: r.version,
      })),
    [sheet.rows, columns],
  );
  const grid = useSheetRows({
    rows: stored,
    editable: !readOnly,
    problems: (cells) => parseRatingRow(columns, cells).problems,
    save: async (adm, cells, stored) => {
      const q = { session_id: sheet.session_id, term: sheet.term, student_class: sheet.student_class };
      const out = await save({
        ...q,
        rows: [{ admission_number: adm, ratings: parseRatingRow(columns, cells).ratings, version: stored.version }],
      });
      const row = out.rows.find((x) => x.admission_number === adm);
      // The copy kept on this phone takes the stored row: a reload offline starts from it.
      if (row) void keepSavedRating(q, row);
      return { cells: ratingCells(columns, row?.ratings ?? {}), version: row?.version ?? stored.version };
    },
    // Kept on this phone under the sheet's session and term (the offline core, decision 044).
    offline: {
      scope: session ? scopeOf(session, sheet.session_id, sheet.term) : null,
      kind: RATINGS_KIND,
      sheet: sheet.student_class,
    },
  });
  const { edit, setAnnouncement } = grid;
  const onReload = useCallback(() => void reload(), [reload]);

  const onPaste = useCallback(
    (row: number, col: number, text: string): boolean => {
      // One value is an ordinary paste into the cell; a block (tabs or lines) fills right and down.
      if (!/[\t\n]/.test(text.replace(/\r?\n$/, ''))) return false;
      const block = parsePasted(text);
      let dropped = false;
      block.forEach((cells, k) => {
        const target = sheet.rows[row + k];
        if (!target) {
          dropped = true;
          return;
        }
        const patch: Record<string, string> = {};
        cells.forEach((v, j) => {
          const t = columns[col + j];
          if (t) patch[t.id] = v;
          else dropped = true;
        });
        edit(target.admission_number, patch);
      });
      if (dropped) setAnnouncement(M.pasteTooBig(block.length, Math.max(...block.map((b) => b.length))));
      return true;
    },
    [sheet.rows, columns, edit, setAnnouncement],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const el = e.target as HTMLInputElement;
    if (el.tagName !== 'INPUT' || el.dataset.r === undefined) return;
    const r = Number(el.dataset.r);
    const c = Number(el.dataset.c);
    const atStart = () => el.selectionStart === 0 && el.selectionEnd === 0;
    const atEnd = () => el.selectionStart === el.value.length && el.selectionEnd === el.value.length;
    let next: HTMLInputElement | null = null;
    if (e.key === 'Enter' || e.key === 'ArrowDown') next = moveFrom(e.currentTarget, r, c, 1, 0);
    else if (e.key === 'ArrowUp') next = moveFrom(e.currentTarget, r, c, -1, 0);
    else if (e.key === 'ArrowLeft' && atStart()) next = moveFrom(e.currentTarget, r, c, 0, -1);
    else if (e.key === 'ArrowRight' && atEnd()) next = moveFrom(e.currentTarget, r, c, 0, 1);
    else return;
    if (e.key === 'Enter') e.preventDefault();
    if (!next) return;
    e.preventDefault();
    next.focus();
    next.select();
  };

  return (
    <>
      {!readOnly && <LeaveGuard {...grid.guard} />}
      {!readOnly && <SheetOfflineBanner sheet={sheet} fetchedAt={fetchedAt} />}
      {!readOnly && <RatingFill columns={columns} labels={sheet.rating_labels} grid={grid} />}
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <p className="min-h-5 text-sm text-slate-700" role="status" aria-live="polite" data-testid="grid-status">
          {grid.announcement}
        </p>
        {!readOnly && (
          <Button variant="secondary" onClick={grid.saveAll} disabled={!grid.unsaved}>
            {grid.unsaved ? `${L.saveAll} (${grid.unsaved})` : L.saveAll}
          </Button>
        )}
      </div>
      <div
        className="max-w-full overflow-x-auto rounded-xl border border-slate-200 bg-white"
        tabIndex={0}
        role="region"
        aria-label="Ratings grid"
      >
        <table
          className="w-max min-w-full border-collapse text-sm"
          aria-label={`Ratings: ${sheet.student_class}`}
          data-testid="ratings-grid"
        >
          <thead>
            <tr className="text-xs text-slate-700">
              <td className="sticky left-0 z-10 bg-white" />
              {RATING_DOMAINS.map((d) =>
                sheet.traits[d].length ? (
                  <th key={d} scope="colgroup" colSpan={sheet.traits[d].length} className="border-b border-slate-200 p-1 text-center">
                    {RATING_DOMAIN_LABELS[d]}
                  </th>
                ) : null,
              )}
              <td />
            </tr>
            <tr className="border-b-2 border-slate-300 text-left text-xs">
              <th scope="col" className="sticky left-0 z-10 bg-white p-1 sm:p-1.5">
                {L.student}
              </th>
              {columns.map((t) => (
                <th key={t.id} scope="col" className="w-16 max-w-20 p-1 text-center align-bottom font-semibold">
                  {t.name}
                </th>
              ))}
              <th scope="col" className="w-24 p-1 sm:p-1.5">
                {L.status}
              </th>
            </tr>
          </thead>
          <tbody onKeyDown={onKeyDown}>
            {sheet.rows.map((r, index) => (
              <RatingRow
                key={r.admission_number}
                index={index}
                admission={r.admission_number}
                name={r.name}
                state={grid.rows[r.admission_number]}
                columns={columns}
                readOnly={readOnly}
                edit={grid.edit}
                saveRow={grid.saveRow}
                onReload={onReload}
                onPaste={onPaste}
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * "Fill with one rating": a trait's column, or the whole sheet, takes one rating in its empty cells;
 * the cells already rated otherwise are kept and counted, and replaced only after a confirmation.
 * The teacher then changes the few students who differ (an arm's 1,000 keystrokes become a few taps).
 */
function RatingFill({ columns, labels, grid }: { columns: readonly RatingTrait[]; labels: readonly string[]; grid: SheetRows }) {
  const [trait, setTrait] = useState('');
  const [rating, setRating] = useState(String(RATING_MAX - 1));
  const [result, setResult] = useState<{ text: string; kept: number; traits: string[]; rating: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ratings = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => String(RATING_MIN + i));
  const ratingName = (r: string) => `${r} ${labels[Number(r) - 1] ?? ''}`.trim();

  const fill = (traits: string[], value: string, overwrite: boolean) => {
    const cells: Record<string, Cells> = {};
    for (const [adm, row] of Object.entries(grid.rows)) cells[adm] = row.value;
    const out = fillRatings(cells, traits, value, overwrite);
    for (const [adm, patch] of Object.entries(out.patches)) grid.edit(adm, patch);
    return out;
  };
  const run = () => {
    const traits = trait ? [trait] : columns.map((c) => c.id);
    const out = fill(traits, rating, false);
    const text = [out.filled ? F.filled(out.filled, ratingName(rating)) : F.nothingEmpty, out.kept ? F.kept(out.kept) : '']
      .filter(Boolean)
      .join(' ');
    setResult({ text, kept: out.kept, traits, rating });
    setConfirming(false);
  };
  const replace = () => {
    if (!result) return;
    const out = fill(result.traits, result.rating, true);
    setResult({ text: F.replaced(out.filled, ratingName(result.rating)), kept: 0, traits: result.traits, rating: result.rating });
    setConfirming(false);
  };

  return (
    <section className="mb-3 rounded-xl border border-slate-200 bg-white p-3" aria-labelledby="rating-fill-title" data-testid="rating-fill">
      <h2 id="rating-fill-title" className="text-base font-semibold">
        {F.title}
      </h2>
      <p className="mb-2 text-sm text-slate-700">{F.intro}</p>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-end">
        <SelectField
          label={F.trait}
          value={trait}
          onChange={(e) => setTrait(e.target.value)}
          options={[{ value: '', label: F.allTraits }, ...columns.map((c) => ({ value: c.id, label: c.name }))]}
        />
        <SelectField
          label={F.rating}
          value={rating}
          onChange={(e) => setRating(e.target.value)}
          options={ratings.map((r) => ({ value: r, label: ratingName(r) }))}
        />
        <Button variant="secondary" className="col-span-2" onClick={run}>
          {F.fill}
        </Button>
      </div>
      {result && (
        <div className="mt-2 text-sm" data-testid="rating-fill-result">
          <p role="status">{result.text}</p>
          {result.kept > 0 && !confirming && (
            <Button variant="ghost" className="mt-1 px-2" onClick={() => setConfirming(true)}>
              {F.replace(result.kept)}
            </Button>
          )}
          {result.kept > 0 && confirming && (
            <ConfirmPanel
              label={F.replaceTitle}
              confirm={F.replaceButton}
              loading={false}
              onConfirm={replace}
              onCancel={() => setConfirming(false)}
            >
              {F.replaceConfirm(result.kept, ratingName(result.rating))}
            </ConfirmPanel>
          )}
        </div>
      )}
    </section>
  );
}

/** The rating key: "1 Poor · 2 Fair · …". */
export function RatingKey({ labels }: { labels: readonly string[] }) {
  return (
    <div className="mb-3 text-sm" data-testid="rating-key">
      <h2 className="sr-only">Rating key</h2>
      <ul className="flex flex-wrap gap-x-4 gap-y-1">
        {labels.map((l, i) => (
          <li key={i}>
            <span className="font-semibold">{i + 1}</span> {l}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** /class-ratings (form teacher of the arm, admin): the arm's affective and psychomotor ratings on one grid. */
export default function ClassRatingsPage() {
  return (
    <SheetPage title={REPORT_SHEET_TITLES.ratings} route="/class-ratings" action="Open ratings" useSheet={useRatingSheet}>
      {(sheet, fetchedAt) => (
        <>
          <RatingKey labels={sheet.rating_labels} />
          {sheet.may_edit_form ? <p className="mb-3 text-sm text-slate-700">{M.ratingKeyIntro}</p> : <LockNote sheet={sheet} />}
          <RatingGrid key={sheetKey(sheet)} sheet={sheet} fetchedAt={fetchedAt} />
        </>
      )}
    </SheetPage>
  );
}
