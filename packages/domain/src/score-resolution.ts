// One rule for every way a score arrives (the spec's API, the class grid, the CSV import): a score
// and its components resolved against the class level's scheme, and components as stored.
import {
  ASSESSMENT_MESSAGES,
  componentScoreProblems,
  componentTotal,
  describeScheme,
  isSingleComponent,
  type AssessmentComponent,
  type ComponentScores,
  type ScorePrecision,
} from './assessment';

export interface SchemeRules {
  components: readonly AssessmentComponent[];
  precision: ScorePrecision;
}

export type ResolvedScore =
  | { ok: true; score: number; components: ComponentScores | null }
  /** Messages by field path relative to the entry: `score`, `components`, `components.CA1`. */
  | { ok: false; errors: Record<string, string> };

/**
 * Turns what a client sent into what is stored: the total computed from the components (a `score`
 * sent beside them must equal it), or, on a single-component scheme, the one score as it always
 * was. `score` alone on a scheme with several components is refused, naming the components.
 */
export function resolveScore(
  scheme: SchemeRules,
  input: { score?: number; components?: Readonly<Record<string, unknown>> },
): ResolvedScore {
  if (input.components !== undefined) {
    const problems = componentScoreProblems(scheme.components, scheme.precision, input.components);
    const errors: Record<string, string> = {};
    for (const [label, message] of Object.entries(problems)) errors[`components.${label}`] = message;
    if (!Object.keys(input.components).length) errors.components = ASSESSMENT_MESSAGES.componentsNeedOne;
    if (Object.keys(errors).length) return { ok: false, errors };
    const components = input.components as ComponentScores;
    const total = componentTotal(components);
    if (input.score !== undefined && Math.abs(input.score - total) > 1e-9) {
      return { ok: false, errors: { score: ASSESSMENT_MESSAGES.scoreNotTotal(total) } };
    }
    // On a single-component scheme a plain score is stored as one always was: no component JSON.
    const plain = isSingleComponent(scheme.components) && typeof components[scheme.components[0]!.label] === 'number';
    return { ok: true, score: total, components: plain ? null : { ...components } };
  }
  if (!isSingleComponent(scheme.components)) {
    return { ok: false, errors: { score: ASSESSMENT_MESSAGES.scoreNeedsComponents(describeScheme(scheme.components)) } };
  }
  if (input.score === undefined) return { ok: false, errors: { score: ASSESSMENT_MESSAGES.componentsNeedOne } };
  return { ok: true, score: input.score, components: null };
}

/** Stored JSON → component scores (null for a one-score result or unreadable text). */
export function parseStoredComponents(text: string | null | undefined): ComponentScores | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as ComponentScores) : null;
  } catch {
    return null;
  }
}
