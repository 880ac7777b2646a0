import { z } from 'zod';
import {
  assessmentComponentSchema,
  schemeProblems,
  SCORE_PRECISIONS,
  type AssessmentComponent,
  type ScorePrecision,
} from '@portal/domain/assessment';
import { firstIssueErrors, issueErrors } from '../../../lib/form-errors';

/** A component's row as typed (the maximum still as text). */
export interface SchemeRow {
  name: string;
  label: string;
  max: string;
}

/** The assessment scheme editor's values: the components in order and the precision of their marks. */
export interface SchemeFormValues {
  rows: SchemeRow[];
  precision: ScorePrecision;
}

export const schemeRowOf = (c: AssessmentComponent): SchemeRow => ({ name: c.name, label: c.label, max: String(c.max) });
export const componentOf = (r: SchemeRow): AssessmentComponent => ({ name: r.name.trim(), label: r.label.trim(), max: Number(r.max) });

/** One row's problems by field (`name`, `label`, `max`): the first message of each, from the domain's component schema. */
function rowProblems(r: SchemeRow): Record<string, string> {
  const parsed = assessmentComponentSchema.safeParse({ ...componentOf(r), max: r.max.trim() === '' ? Number.NaN : Number(r.max) });
  return parsed.success ? {} : firstIssueErrors(parsed.error, { depth: 1 });
}

/** Where the scheme's own problems (sum, repeated labels, count) are keyed: the request body's list. */
export const SCHEME_PROBLEMS = 'components';

/**
 * The editor's check (decision 030): the scheme's problems (`schemeProblems`: the maxima sum to 100,
 * labels once each, at most six components) under `components`, then each row's field problems
 * under `rows.<i>.<field>` (`assessmentComponentSchema`); its output is the request's components
 * (trimmed, maxima as numbers) and precision.
 */
export const schemeFormSchema = z
  .object({
    rows: z.array(z.object({ name: z.string(), label: z.string(), max: z.string() })),
    precision: z.enum(SCORE_PRECISIONS),
  })
  .superRefine((v, ctx) => {
    for (const message of schemeProblems(v.rows.map(componentOf))) ctx.addIssue({ code: 'custom', path: [SCHEME_PROBLEMS], message });
    v.rows.forEach((r, i) => {
      for (const [field, message] of Object.entries(rowProblems(r))) ctx.addIssue({ code: 'custom', path: ['rows', i, field], message });
    });
  })
  .transform((v) => ({ components: v.rows.map(componentOf), precision: v.precision }));

/** The editor's problems as it is typed, keyed like the schema's issues (`components`, `rows.0.max`). */
export function schemeFormErrors(values: SchemeFormValues): Record<string, string[]> {
  const parsed = schemeFormSchema.safeParse(values);
  return parsed.success ? {} : issueErrors(parsed.error);
}
