import { memo, useCallback, useMemo, useState, type FocusEvent } from 'react';
import { ATTENDANCE_LABELS } from '@portal/domain/attendance';
import { PROMOTION_DECISIONS, REPORT_MESSAGES, promotionLabel, type CommentKind } from '@portal/domain/report-card-rules';
import { type CommentSheet, type CommentSheetRow } from '@portal/domain/report-cards';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M, REPORT_SHEET_TITLES } from '@portal/domain/report-sheet-screens';
import { formatAverage } from '@portal/domain/result-messages';
import { classLevelOf, type ClassLevel } from '@portal/domain/teaching';
import { Button } from '../../../components/ui/button';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { LeaveGuard } from '../../../components/ui/leave-guard';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { useSession } from '../../../lib/auth-store';
import { firstServerMessage } from '../../../lib/errors';
import { scopeOf } from '../../../lib/offline';
import { useToast } from '../../../lib/toast';
import { useApplySuggestions, useCommentSheet, useReloadSheets, useSaveCommentRows } from '../api';
import { commentCells, commentProblems, commentSaveRow } from '../comment-model';
import { RowProblem, RowStatusText } from '../components/row-status';
import { LockNote, SheetOfflineBanner, SheetPage, sheetKey } from '../components/sheet-page';
import { COMMENTS_KIND, keepSavedComment } from '../sheet-outbox';
import type { RowState } from '../sheet-model';
import { useSheetRows, type SheetRows, type StoredRow } from '../use-sheet-rows';

/** A field's label as shown, with the student's name for screen readers (every row has the same fields). */
function forName(label: string, name: string) {
  return (
    <>
      {label}
      <span className="sr-only"> for {name}</span>
    </>
  );
}

interface RowProps {
  row: CommentSheetRow;
  state: RowState | undefined;
  mayForm: boolean;
  mayPrincipal: boolean;
  timesOpened: number | null;
  level: ClassLevel | null;
  edit: SheetRows['edit'];
  saveRow: SheetRows['saveRow'];
  onReload: () => void;
}

/** The two comments: the form teacher's and the principal's, each with the bank's suggestion. */
const COMMENTS = [
  { key: 'form_comment', label: L.formComment, suggested: 'suggested_form', byForm: true },
  { key: 'principal_comment', label: L.principalComment, suggested: 'suggested_principal', byForm: false },
] as const;

/** The days present and absent the form teacher enters, each with what the register counted as its placeholder. */
const DAYS = [
  { key: 'days_present', label: L.daysPresent, registered: 'present' },
  { key: 'days_absent', label: L.daysAbsent, registered: 'absent' },
] as const;

/** One student: average and position, both comments (suggestion one tap away), attendance, and in the third term the decision. */
const CommentRow = memo(function CommentRow({ row, state, mayForm, mayPrincipal, timesOpened, level, edit, saveRow, onReload }: RowProps) {
  if (!state) return null;
  const adm = row.admission_number;
  const problems = commentProblems(state.value, timesOpened);
  const set = (k: string) => (e: { target: { value: string } }) => edit(adm, { [k]: e.target.value });
  const leave = (e: FocusEvent<HTMLElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget)) saveRow(adm);
  };
  const p = row.promotion;
  return (
    <li
      className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4"
      data-testid={`row-${adm}`}
      onBlur={mayForm || mayPrincipal ? leave : undefined}
      aria-labelledby={`name-${adm}`}
    >
      <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`name-${adm}`} className="text-base">
          {row.name} <span className="text-xs font-normal text-slate-600">{adm}</span>
        </h2>
        <span className="text-sm text-slate-700" data-testid="row-average">
          {row.average === null
            ? M.noAverage
            : `${L.average} ${formatAverage(row.average)}${row.position ? ` · ${L.position} ${row.position}` : ''}`}
        </span>
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        {COMMENTS.map(({ key, label, suggested, byForm }) => (
          <CommentField
            key={key}
            label={label}
            name={row.name}
            value={state.value[key] ?? ''}
            suggestion={row[suggested]}
            editable={byForm ? mayForm : mayPrincipal}
            error={problems[key]}
            onChange={(v) => edit(adm, { [key]: v })}
          />
        ))}
      </div>
      <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {DAYS.map(({ key, label, registered }) => (
          <TextField
            key={key}
            label={forName(label, row.name)}
            inputMode="numeric"
            autoComplete="off"
            value={state.value[key] ?? ''}
            readOnly={!mayForm}
            onChange={set(key)}
            error={problems[key]}
            placeholder={row.register ? String(row.register[registered]) : undefined}
            hint={row.register ? ATTENDANCE_LABELS.fromRegister : undefined}
          />
        ))}
      </div>
      {/* What the register never marked is said (until the form teacher enters the totals): it is not presence. */}
      {!!row.unmarked && timesOpened !== null && !state.value.days_present && !state.value.days_absent && (
        <p className="mt-2 text-sm text-amber-900" data-testid={`unmarked-${adm}`}>
          {ATTENDANCE_LABELS.notMarkedNote(row.unmarked, timesOpened)}
        </p>
      )}
      {p && (
        <div className="mt-3 grid gap-3 sm:grid-cols-3" data-testid="promotion">
          <p className="text-sm">
            <span className="block font-medium text-slate-800">{L.promotionComputed}</span>
            <span data-testid="promotion-computed">{promotionLabel(p.computed, level)}</span>
            {p.annual_average !== null && (
              <span className="block text-xs text-slate-600">Annual average {formatAverage(p.annual_average)}</span>
            )}
          </p>
          <SelectField
            label={forName(L.promotionOverride, row.name)}
            value={state.value.promotion_override ?? ''}
            disabled={!mayPrincipal}
            onChange={set('promotion_override')}
            options={[
              { value: '', label: L.promotionAsRule },
              ...PROMOTION_DECISIONS.map((d) => ({ value: d, label: promotionLabel(d, level) })),
            ]}
          />
          {(state.value.promotion_override || state.value.override_reason) && (
            <TextField
              label={forName(L.overrideReason, row.name)}
              value={state.value.override_reason ?? ''}
              readOnly={!mayPrincipal}
              onChange={set('override_reason')}
              error={problems.override_reason}
            />
          )}
        </div>
      )}
      <div className="mt-2 flex flex-col gap-1" data-testid="row-status">
        <RowStatusText state={state} />
        <RowProblem id={`comments-detail-${adm}`} state={state} problems={[]} onRetry={() => saveRow(adm)} onReload={onReload} />
      </div>
    </li>
  );
});

function CommentField({
  label,
  name,
  value,
  suggestion,
  editable,
  error,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  suggestion: string;
  editable: boolean;
  error: string | undefined;
  onChange: (v: string) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <TextAreaField
        label={forName(label, name)}
        rows={2}
        value={value}
        readOnly={!editable}
        onChange={(e) => onChange(e.target.value)}
        error={error}
      />
      {editable && suggestion && suggestion !== value.trim() && (
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <span>
            {L.suggestion}: <q>{suggestion}</q>
          </span>
          <Button
            variant="ghost"
            className="min-h-9 px-2"
            onClick={() => onChange(suggestion)}
            aria-label={`${L.useSuggestion}: ${label} for ${name}`}
          >
            {L.useSuggestion}
          </Button>
        </div>
      )}
    </div>
  );
}

/** "Apply suggested comments to the arm", with the confirm and the choice to replace written comments. */
function ApplySuggestions({ sheet, kind, label }: { sheet: CommentSheet; kind: CommentKind; label: string }) {
  const [open, setOpen] = useState(false);
  const [overwrite, setOverwrite] = useState(false);
  const apply = useApplySuggestions();
  const toast = useToast();
  const what = kind === 'form' ? L.formComment.toLowerCase() : L.principalComment.toLowerCase();
  const run = async () => {
    try {
      const out = await apply.mutateAsync({
        session_id: sheet.session_id,
        term: sheet.term,
        student_class: sheet.student_class,
        kind,
        overwrite,
      });
      toast.success(REPORT_MESSAGES.suggestionsApplied(out.applied));
      setOpen(false);
    } catch (err) {
      toast.error(firstServerMessage(err) ?? M.saveFailed);
    }
  };
  if (!open)
    return (
      <Button variant="secondary" onClick={() => setOpen(true)}>
        {label}
      </Button>
    );
  return (
    <ConfirmPanel
      label={label}
      confirm={L.apply}
      loading={apply.isPending}
      onConfirm={() => void run()}
      onCancel={() => setOpen(false)}
      className="w-full"
    >
      <span className="block">{M.applyConfirm(what, overwrite)}</span>
      <label className="mt-2 flex items-center gap-2">
        <input type="checkbox" className="h-5 w-5" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} />
        {L.overwrite}
      </label>
    </ConfirmPanel>
  );
}

function CommentList({ sheet, fetchedAt }: { sheet: CommentSheet; fetchedAt: number }) {
  const save = useSaveCommentRows();
  const session = useSession();
  const reload = useReloadSheets();
  const onReload = useCallback(() => void reload(), [reload]);
  const stored = useMemo<StoredRow[]>(
    () => sheet.rows.map((r) => ({ admission_number: r.admission_number, name: r.name, cells: commentCells(r), version: r.version })),
    [sheet.rows],
  );
  const rows = useSheetRows({
    rows: stored,
    editable: sheet.may_edit_form || sheet.may_edit_principal,
    problems: (cells) => commentProblems(cells, sheet.times_opened),
    save: async (adm, cells, stored) => {
      const q = { session_id: sheet.session_id, term: sheet.term, student_class: sheet.student_class };
      const out = await save({ ...q, rows: [commentSaveRow(adm, { cells, base: stored.cells, version: stored.version }, sheet)] });
      const row = out.rows.find((x) => x.admission_number === adm);
      // The copy kept on this phone takes the stored row: a reload offline starts from it.
      if (row) void keepSavedComment(q, row);
      return row ? { cells: commentCells(row), version: row.version } : { cells, version: stored.version };
    },
    // Kept on this phone under the sheet's session and term (the offline core, decision 044).
    offline: {
      scope: session ? scopeOf(session, sheet.session_id, sheet.term) : null,
      kind: COMMENTS_KIND,
      sheet: sheet.student_class,
    },
  });
  const level = classLevelOf(sheet.student_class);
  const editable = sheet.may_edit_form || sheet.may_edit_principal;
  return (
    <>
      {editable && <LeaveGuard {...rows.guard} />}
      {editable && <SheetOfflineBanner sheet={sheet} fetchedAt={fetchedAt} />}
      <div className="mb-3 flex flex-wrap items-start gap-2">
        {sheet.may_edit_form && <ApplySuggestions sheet={sheet} kind="form" label={L.applyForm} />}
        {sheet.may_edit_principal && <ApplySuggestions sheet={sheet} kind="principal" label={L.applyPrincipal} />}
        {(sheet.may_edit_form || sheet.may_edit_principal) && (
          <Button variant="secondary" onClick={rows.saveAll} disabled={!rows.unsaved}>
            {rows.unsaved ? `${L.saveAll} (${rows.unsaved})` : L.saveAll}
          </Button>
        )}
      </div>
      <p className="mb-3 min-h-5 text-sm text-slate-700" role="status" aria-live="polite" data-testid="grid-status">
        {rows.announcement}
      </p>
      <ul className="flex flex-col gap-3" aria-label={`Comments: ${sheet.student_class}`} data-testid="comments-list">
        {sheet.rows.map((r) => (
          <CommentRow
            key={r.admission_number}
            row={r}
            state={rows.rows[r.admission_number]}
            mayForm={sheet.may_edit_form}
            mayPrincipal={sheet.may_edit_principal}
            timesOpened={sheet.times_opened}
            level={level}
            edit={rows.edit}
            saveRow={rows.saveRow}
            onReload={onReload}
          />
        ))}
      </ul>
    </>
  );
}

/** /class-comments (form teacher of the arm, admin): comments, attendance and (third term) promotion, one student per block. */
export default function ClassCommentsPage() {
  return (
    <SheetPage title={REPORT_SHEET_TITLES.comments} route="/class-comments" action="Open comments" useSheet={useCommentSheet}>
      {(sheet, fetchedAt) => (
        <>
          <p className="mb-3 text-sm text-slate-700" data-testid="times-opened">
            {M.timesOpenedNote(sheet.times_opened)}
          </p>
          {!sheet.may_edit_form && !sheet.may_edit_principal && <LockNote sheet={sheet} />}
          <CommentList key={sheetKey(sheet)} sheet={sheet} fetchedAt={fetchedAt} />
        </>
      )}
    </SheetPage>
  );
}
