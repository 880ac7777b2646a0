import { z } from 'zod';
import { admissionNumberField } from '@portal/domain/result-schemas';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import type { BulkSave } from '../api';
import { draftHasWork, readComponents, type ComponentDraft } from '../components/component-scores';
import { rowScoreIssues, type RowIssue, type ScoreRow, type ScoreScheme } from './subject-scores';

/** A subject's entry on the result upload page. */
export interface EntryRow extends ScoreRow {
  remarks: string;
  /** On a scheme with several components: what is typed per component (the total is computed). */
  components?: ComponentDraft;
  /** The loaded result was entered as one total (no components stored). */
  totalOnly?: boolean;
  /** The version loaded by the lookup (0 = none existed); undefined before any lookup. */
  version?: number;
}

/** The result upload page's values, named as the request names them (a server 400 lands on its field). */
export interface ResultUploadValues {
  admission_number: string;
  session_id: string;
  term: string;
  student_class: string;
  reason: string;
  /** The subjects with a stored result or typed work, in the order they were first loaded or typed. */
  rows: EntryRow[];
}

/** Where the "enter at least one score" message is keyed. */
export const SUBJECTS_REQUIRED = 'subjects';

export const normalizeAdmission = (v: string) => v.trim().toUpperCase();

export interface ResultUploadContext {
  /** The subjects shown, in page order. */
  subjects: readonly string[];
  scheme: ScoreScheme;
  /** A subject the user may not write (read-only: never checked, never sent). */
  locked: (subject: string) => boolean;
}

/**
 * The result upload page's check (decision 030): the admission number (the domain's field), the
 * session, term and class required, each open subject's score (`rowScoreIssues`), and when all of
 * that holds at least one subject filled. Its output is the request's body: the filled subjects in
 * page order, their components (the server computes the total) or score, remarks and loaded version.
 */
export function resultUploadSchema({ subjects, scheme, locked }: ResultUploadContext) {
  const open = subjects.filter((s) => !locked(s));
  const filled = (rows: readonly EntryRow[]) =>
    open.flatMap((s) => rows.filter((r) => r.subject === s && (scheme ? draftHasWork(r.components) : r.score.trim() !== '')));
  return z
    .object({
      admission_number: z.string(),
      session_id: z.string(),
      term: z.string(),
      student_class: z.string(),
      reason: z.string(),
      rows: z.array(z.custom<EntryRow>()),
    })
    .superRefine((v, ctx) => {
      const issues: RowIssue[] = [];
      const adm = admissionNumberField.safeParse(v.admission_number);
      if (!adm.success) issues.push([['admission_number'], adm.error.issues[0]!.message]);
      if (!v.session_id) issues.push([['session_id'], RESULT_MESSAGES.sessionRequired]);
      if (!v.term) issues.push([['term'], RESULT_MESSAGES.termRequired]);
      if (!v.student_class) issues.push([['student_class'], RESULT_MESSAGES.classRequired]);
      issues.push(...rowScoreIssues(v.rows, open, scheme));
      if (!issues.length && !filled(v.rows).length) issues.push([[SUBJECTS_REQUIRED], RESULT_MESSAGES.subjectsRequired]);
      for (const [path, message] of issues) ctx.addIssue({ code: 'custom', path, message });
    })
    .transform((v): BulkSave => ({
      admission_number: normalizeAdmission(v.admission_number),
      session_id: Number(v.session_id),
      term: v.term,
      student_class: v.student_class,
      ...(v.reason.trim() ? { reason: v.reason.trim() } : {}),
      subjects: filled(v.rows).map((r) => ({
        name: r.subject,
        // The total of components is the server's to compute.
        ...(scheme ? { components: readComponents(scheme, r.components).scores } : { score: Number(r.score) }),
        remarks: r.remarks,
        ...(r.version !== undefined ? { version: r.version } : {}),
      })),
    }));
}
