import type { AssessmentComponent, ScorePrecision } from '@portal/domain/assessment';
import { checkScore } from '../api';
import { readComponents, type ComponentDraft } from '../components/component-scores';

/** The class's scheme as the score checks read it (null: one score per subject). */
export type ScoreScheme = { components: readonly AssessmentComponent[]; precision: ScorePrecision } | null;

/** A subject's row as the entry forms hold it: the score typed, or on a scheme with components one input each. */
export interface ScoreRow {
  subject: string;
  score: string;
  components?: ComponentDraft;
}

/** An issue of a form's rows: the path of the input it names (`rows.2.score`, `rows.2.components.CA1`) and its message. */
export type RowIssue = [path: (string | number)[], message: string];

/**
 * The score checks of the subjects in `subjects`, in that order, on the form's `rows` (a subject
 * without a row has nothing typed): on a scheme with components each typed component within its
 * maximum and precision (`readComponents`), else the score a number from 0 to 100 (`checkScore`).
 */
export function rowScoreIssues(rows: readonly ScoreRow[], subjects: readonly string[], scheme: ScoreScheme): RowIssue[] {
  const out: RowIssue[] = [];
  for (const subject of subjects) {
    const i = rows.findIndex((r) => r.subject === subject);
    if (i < 0) continue;
    const row = rows[i]!;
    if (scheme) {
      for (const [label, message] of Object.entries(readComponents(scheme, row.components).errors))
        out.push([['rows', i, 'components', label], message]);
      continue;
    }
    const checked = checkScore(row.score, subject);
    if (!checked.ok) out.push([['rows', i, 'score'], checked.message]);
  }
  return out;
}

/** The index of a subject's row (-1 when it has none). */
export const rowOf = (rows: readonly ScoreRow[], subject: string) => rows.findIndex((r) => r.subject === subject);
