import { AUTOSAVE_MESSAGES } from '@portal/domain/autosave-screens';
import { REPORT_SHEET_LABELS as L, REPORT_SHEET_MESSAGES as M } from '@portal/domain/report-sheet-screens';
import { Button } from '../../../components/ui/button';
import { saveStateLook } from '../../../components/ui/sheet-row';
import type { RowState } from '../sheet-model';

/** A row's save state: icon and words (never colour alone). */
export function RowStatusText({ state }: { state: RowState | undefined }) {
  // The sheets' messages name each state by the state's own name.
  const s = state ? saveStateLook(state.status, M) : null;
  if (!s) return null;
  return (
    <span className={`inline-flex items-start gap-1 text-xs ${s.tone}`}>
      <span aria-hidden="true">{s.icon}</span>
      <span>{s.text}</span>
    </span>
  );
}

/** Why a row's save failed, with Retry (failed) or Reload (changed by someone else). */
export function RowProblem({
  state,
  problems,
  onRetry,
  onReload,
  id,
}: {
  state: RowState;
  problems: readonly string[];
  onRetry: () => void;
  onReload: () => void;
  id: string;
}) {
  if (!problems.length && state.status !== 'failed' && state.status !== 'conflict') return null;
  return (
    <div id={id} className="text-sm text-red-700" data-testid="row-problem">
      {[...new Set(problems)].map((p) => (
        <p key={p}>{p}</p>
      ))}
      {(state.status === 'failed' || state.status === 'conflict') && (
        <div className="flex flex-wrap items-center gap-2">
          <span>
            {state.message}
            {state.status === 'failed' && state.autoRetry && <span className="block text-slate-700">{AUTOSAVE_MESSAGES.autoRetry}</span>}
          </span>
          {state.status === 'failed' ? (
            <Button variant="secondary" className="px-3" onClick={onRetry}>
              {L.retry}
            </Button>
          ) : (
            <Button variant="secondary" className="px-3" onClick={onReload}>
              {L.reload}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
