import { z } from 'zod';
import type { Result } from '@portal/domain/results';
import type { ComponentDraft } from '../components/component-scores';
import { rowScoreIssues, type ScoreRow, type ScoreScheme } from './subject-scores';

/** A subject's row on the update result page: what is typed, and the stored result it edits. */
export interface EditRow extends ScoreRow {
  remarks: string;
  /** On a scheme with several components: what is typed per component. */
  components?: ComponentDraft;
  existing?: Result;
}

/** The update result page's values: the search (its class as picked) and, once searched, the rows. */
export interface UpdateResultValues {
  admission: string;
  sessionId: string;
  term: string;
  /** The class picked ('' until a search or the user picks one: the school's first class shows). */
  pickedClass: string;
  reason: string;
  /** The searched student's rows (stored results, then subjects typed into); null before a search. */
  rows: EditRow[] | null;
}

/**
 * The update result page's check before a save (decision 030): each subject of `subjects` (the rows
 * the user may write, in page order) scored as the class's scheme says (`rowScoreIssues`); a cleared
 * score is allowed (it deletes the stored result, asked first). Its output is the values.
 */
export function updateResultSchema({ subjects, scheme }: { subjects: readonly string[]; scheme: ScoreScheme }) {
  return z
    .object({ rows: z.array(z.custom<EditRow>()).nullable() })
    .loose()
    .superRefine((v, ctx) => {
      for (const [path, message] of rowScoreIssues(v.rows ?? [], subjects, scheme)) ctx.addIssue({ code: 'custom', path, message });
    });
}
