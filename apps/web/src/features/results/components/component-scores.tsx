import {
  ABSENT_MARK,
  ASSESSMENT_MESSAGES,
  componentProblem,
  componentTotal,
  parseComponentCell,
  type AssessmentComponent,
  type ComponentScores,
  type ScorePrecision,
} from '@portal/domain/assessment';
import { TextField } from '../../../components/ui/field';

/** Component scores as typed, by label ('' or missing = not entered). */
export type ComponentDraft = Record<string, string>;

interface SchemeLike {
  components: readonly AssessmentComponent[];
  precision: ScorePrecision;
}

/** What a stored result's components look like in the inputs. */
export function draftOf(scores: ComponentScores | null | undefined): ComponentDraft {
  const out: ComponentDraft = {};
  for (const [label, v] of Object.entries(scores ?? {})) out[label] = String(v);
  return out;
}

export const draftHasWork = (d: ComponentDraft | undefined) => !!d && Object.values(d).some((v) => v.trim() !== '');

/** The typed components read against the scheme: the scores to send and each input's problem. */
export function readComponents(scheme: SchemeLike, draft: ComponentDraft | undefined) {
  const scores: ComponentScores = {};
  const errors: Record<string, string> = {};
  for (const c of scheme.components) {
    const value = parseComponentCell(draft?.[c.label] ?? '');
    if (value === undefined) continue;
    const problem = componentProblem(c, value, scheme.precision);
    if (problem) errors[c.label] = problem;
    else scores[c.label] = value;
  }
  return { scores, errors };
}

/** Whether the typed components say the same as the stored ones. */
export function sameScores(scheme: SchemeLike, draft: ComponentDraft | undefined, stored: ComponentScores | null | undefined): boolean {
  const { scores, errors } = readComponents(scheme, draft);
  if (Object.keys(errors).length) return false;
  return scheme.components.every((c) => scores[c.label] === (stored ?? {})[c.label]);
}

/**
 * One input per component of a subject ("Mathematics CA1 (max 20)"), each checked as typed, and the
 * total computed from them (read-only: the server computes it too). A result entered as one total
 * before components were set shows that total until a component is typed.
 */
export function ComponentScoreFields({
  subject,
  scheme,
  draft,
  onChange,
  errors,
  totalError,
  storedTotal,
}: {
  subject: string;
  scheme: SchemeLike;
  draft: ComponentDraft | undefined;
  onChange: (label: string, value: string) => void;
  /** A save's messages by label (the server's or the last attempt's); the live check shows otherwise. */
  errors: (label: string) => string | string[] | undefined;
  totalError?: string | string[];
  /** The total of a stored result without components, or null. */
  storedTotal: number | null;
}) {
  const { scores, errors: live } = readComponents(scheme, draft);
  const typed = draftHasWork(draft);
  const totalOnly = !typed && storedTotal !== null;
  const total = typed ? String(componentTotal(scores)) : totalOnly ? String(storedTotal) : '';
  const absent = scheme.components.filter((c) => scores[c.label] === ABSENT_MARK);
  return (
    <div className="flex flex-col gap-2">
      <div className="grid grid-cols-[repeat(auto-fill,minmax(5.5rem,1fr))] gap-2">
        {scheme.components.map((c) => (
          <TextField
            key={c.label}
            label={
              <>
                <span className="sr-only">{subject} </span>
                {ASSESSMENT_MESSAGES.componentInput(c.label, c.max)}
              </>
            }
            title={c.name}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={draft?.[c.label] ?? ''}
            onChange={(e) => onChange(c.label, e.target.value)}
            error={errors(c.label) ?? live[c.label]}
          />
        ))}
      </div>
      <TextField
        label={
          <>
            <span className="sr-only">{subject} </span>
            {ASSESSMENT_MESSAGES.totalLabel}
          </>
        }
        readOnly
        className="font-semibold tabular-nums read-only:bg-slate-100"
        value={total}
        error={totalError}
        hint={
          totalOnly
            ? ASSESSMENT_MESSAGES.totalOnly
            : absent.length
              ? absent.map((c) => ASSESSMENT_MESSAGES.absentFromExam(c.label)).join(', ')
              : undefined
        }
      />
    </div>
  );
}
