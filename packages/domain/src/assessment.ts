// One file (about 480 lines): the assessment scheme, its rules and the score sheet's shapes (the one
// score rule is in score-resolution.ts). The web imports its names through the
// '@portal/domain/assessment' subpath, so moving a name out needs the web's imports changed first.
import { z } from 'zod';
import { GENERAL_MESSAGES } from './http';
import { ID_MAX } from './ids';
import { competitionRanks, round2 } from './ranking';
import { requiredText, textField } from './text';
import type { ScoreSheetResult, SubjectStatistics } from './result-responses';
export type {
  AssessmentScheme,
  AssessmentSchemePreview,
  ScoreImportError,
  ScoreImportPreview,
  ScoreSheet,
  ScoreSheetResult,
  ScoreSheetRow,
  ScoreSheetSaveResult,
  SubjectStatistics,
} from './result-responses';

/**
 * Assessment schemes: a subject's term score is the sum of its components (CA1 20 + CA2 20 +
 * Exam 60 is the commonest). A scheme belongs to one session and one level (JSS or SSS); with no
 * scheme set, a level has the default scheme, one component of 100, and scores behave exactly as a
 * single score. The total is always computed here, from the components, never taken from a client.
 */

export interface AssessmentComponent {
  /** "Continuous Assessment 1": what the card's key and the scheme screen show. */
  name: string;
  /** "CA1": the column heading, the key of the stored scores, the CSV column. Unique in a scheme. */
  label: string;
  /** Whole marks, at least 1; a scheme's maxima sum to 100. */
  max: number;
}

/** How precise a component score may be: at most one decimal place, or whole marks. */
export const SCORE_PRECISIONS = ['one_decimal', 'whole'] as const;
export type ScorePrecision = (typeof SCORE_PRECISIONS)[number];

/** What a grid cell or a component of the API holds: marks, or "ABS" (absent from that assessment). */
export const ABSENT_MARK = 'ABS';
export type ComponentValue = number | typeof ABSENT_MARK;
/** The stored scores of one result by component label. A label missing = not entered yet. */
export type ComponentScores = Record<string, ComponentValue>;

export const MAX_COMPONENTS = 6;
export const COMPONENT_LABEL_MAX = 8;

export const DEFAULT_COMPONENTS: readonly AssessmentComponent[] = [{ name: 'Score', label: 'Score', max: 100 }];

const ORDINALS = ['First', 'Second', 'Third'];

/** A preset of continuous assessments of these maxima (one is plain "CA", several are numbered) and an exam. */
function caAndExam(cas: readonly number[], exam: number): { name: string; components: readonly AssessmentComponent[] } {
  const components: AssessmentComponent[] = [
    ...cas.map((max, i) =>
      cas.length === 1
        ? { name: 'Continuous Assessment', label: 'CA', max }
        : { name: `${ORDINALS[i]} Continuous Assessment`, label: `CA${i + 1}`, max },
    ),
    { name: 'Examination', label: 'Exam', max: exam },
  ];
  return { name: components.map((c) => `${c.label} ${c.max}`).join(' + '), components };
}

/** The splits schools use most, offered as one-tap presets on the scheme screen. */
export const SCHEME_PRESETS: readonly { name: string; components: readonly AssessmentComponent[] }[] = [
  caAndExam([20, 20], 60),
  caAndExam([10, 10, 10], 70),
  caAndExam([30], 70),
  caAndExam([40], 60),
  { name: 'One score of 100', components: DEFAULT_COMPONENTS },
];

export const ASSESSMENT_MESSAGES = {
  componentsRequired: 'Add at least one component.',
  tooManyComponents: `A scheme has at most ${MAX_COMPONENTS} components.`,
  nameRequired: 'Component name is required',
  nameTooLong: 'Component name must be at most 40 characters',
  labelInvalid: `Short label must be 1 to ${COMPONENT_LABEL_MAX} letters, digits or spaces, starting with a letter`,
  labelTaken: (label: string) => `Each short label may appear only once (${label}).`,
  maxInvalid: 'Maximum must be a whole number from 1 to 100',
  sumNot100: (sum: number) => `The maxima must add up to 100 (they add up to ${sum}).`,
  precisionInvalid: 'Choose one decimal place or whole numbers',
  /** Component scores exist: the structure (labels, maxima, count) is fixed for the session. */
  schemeLocked: (n: number, level: string, session: string) =>
    `${n} ${level} result${n === 1 ? '' : 's'} of ${session} already ${n === 1 ? 'has' : 'have'} component scores, ` +
    'so the components, their short labels and maxima cannot change this session. Component names can.',
  schemeNeedsConfirm: (n: number, level: string, session: string) =>
    `${n} ${level} result${n === 1 ? ' was' : 's were'} entered in ${session} as one score. ` +
    'They keep their totals and grades; their components stay empty until a teacher enters them. Confirm to apply the scheme.',
  schemeSaved: (level: string, session: string) => `Assessment scheme saved for ${level} classes in ${session}.`,
  schemesFailed: 'Failed to load the assessment schemes.',
  schemeSaveFailed: 'Failed to save the assessment scheme.',
  // scores
  componentUnknown: (label: string, labels: string) => `${label} is not a component of this class's scheme (${labels}).`,
  componentRange: (label: string, max: number) => `${label} must be a number from 0 to ${max}, or ${ABSENT_MARK} for absent.`,
  componentWhole: (label: string) => `${label} must be a whole number.`,
  componentOneDecimal: (label: string) => `${label} may have at most one decimal place.`,
  componentsNeedOne: 'Enter at least one component score.',
  /** A component value that is neither marks nor ABS (the field names the component). */
  componentValueInvalid: `Enter marks as a number, or ${ABSENT_MARK} for absent.`,
  /** `score` alone on a class whose scheme has several components. */
  scoreNeedsComponents: (scheme: string) =>
    `Scores for this class are entered by component: ${scheme}. Send "components" instead of "score".`,
  scoreNotTotal: (total: number) => `Score must be the total of the components (${total}), or left out.`,
  totalOnly: 'Entered as one total before components were set.',
  absentFromExam: (label: string) => `Absent (${label})`,
  absentNote: `${ABSENT_MARK}: absent from that assessment (counts as no marks, shown apart from a zero).`,
  notTaken: 'Does not take this subject',
  // grid
  gridSaved: 'Saved',
  gridSaving: 'Saving…',
  gridFailed: 'Not saved',
  gridUnsaved: 'Unsaved',
  gridConflict: 'Changed by someone else',
  gridKeepMine: 'Keep mine',
  gridUseTheirs: 'Use theirs',
  gridPasteTooBig: (rows: number, cols: number) => `Pasted ${rows} × ${cols} cells; the extra cells outside the sheet were left out.`,
  gridReadOnly: 'You can see these scores but not change them.',
  gridLoadFailed: 'Failed to load the score sheet.',
  sheetChoose: 'Choose the session, term, class and subject.',
  rowConflict: (name: string) => `${name}'s scores were changed by someone else since you loaded them.`,
  sheetNoStudents: 'No students in this class.',
  // CSV
  csvEmpty: 'The file is empty.',
  csvTooBig: 'The file is too large (at most 1 MB, 500 rows).',
  csvNoHeader: (labels: string) => `The first row must be the header: admission_number, name, ${labels}.`,
  csvMissingColumn: (label: string) => `Column ${label} is missing from the header.`,
  csvUnknownStudent: (n: string) => `${n} is not a student of this class.`,
  csvDuplicateStudent: (n: string) => `${n} appears more than once.`,
  csvNotTaken: (n: string) => `${n} does not take this subject.`,
  csvHasErrors: (n: number) => `Fix the ${n} error${n === 1 ? '' : 's'} in the file and upload it again; nothing was saved.`,
  csvApplied: (n: number) => `${n} row${n === 1 ? '' : 's'} saved.`,
  csvNothingToApply: 'No changes in the file.',
  // the spec's entry screens, the scheme screen, report cards and the broadsheet
  /** The heading of one component's input: "CA1 (max 20)". */
  componentInput: (label: string, max: number) => `${label} (max ${max})`,
  totalLabel: 'Total',
  /** A subject cell's components on the broadsheet's tooltip: "CA1 15 · CA2 12 · Exam 50". */
  componentsTitle: (parts: string) => `Components: ${parts}`,
  schemeSessionHint: (session: string) => `These schemes apply to ${session}; other sessions keep their own.`,
  schemeDefault: 'Default: one score of 100.',
  schemeSum: (sum: number) => `Maxima add up to ${sum} of 100.`,
  schemeCounts: (components: number, totalOnly: number) =>
    `${components} result${components === 1 ? '' : 's'} entered by component, ${totalOnly} entered as one total.`,
  schemePresets: 'Presets',
  schemePrecisionLabel: 'Component scores',
  precisionOneDecimal: 'One decimal place (e.g. 12.5)',
  precisionWhole: 'Whole numbers only',
  schemeUnchanged: 'No changes to save.',
  csvUnreadable: 'The file could not be read as CSV: check its quotes and separators.',
} as const;

export const SCHEME_LOCKED_CODE = 'scheme_locked';
export const SCHEME_CONFIRM_CODE = 'scheme_confirmation_required';
export const SCORE_CONFLICT_CODE = 'score_conflict';

// ---------- pure rules ----------

const LABEL = /^[A-Za-z][A-Za-z0-9 ]{0,7}$/;

/** Everything wrong with a scheme's components, as messages (empty when it is valid). */
export function schemeProblems(components: readonly AssessmentComponent[]): string[] {
  const out: string[] = [];
  if (!components.length) return [ASSESSMENT_MESSAGES.componentsRequired];
  if (components.length > MAX_COMPONENTS) out.push(ASSESSMENT_MESSAGES.tooManyComponents);
  const seen = new Set<string>();
  for (const c of components) {
    const key = c.label.trim().toLowerCase();
    if (seen.has(key)) out.push(ASSESSMENT_MESSAGES.labelTaken(c.label));
    seen.add(key);
  }
  const sum = components.reduce((a, c) => a + c.max, 0);
  if (sum !== 100) out.push(ASSESSMENT_MESSAGES.sumNot100(sum));
  return out;
}

/** Whether going from `before` to `after` changes labels, maxima or the number of components. */
export function isStructuralChange(before: readonly AssessmentComponent[], after: readonly AssessmentComponent[]): boolean {
  return before.length !== after.length || before.some((c, i) => c.label !== after[i]!.label || c.max !== after[i]!.max);
}

export function isSingleComponent(components: readonly AssessmentComponent[]): boolean {
  return components.length === 1;
}

/** "CA1 (20), CA2 (20), Exam (60)" */
export function describeScheme(components: readonly AssessmentComponent[]): string {
  return components.map((c) => `${c.label} (${c.max})`).join(', ');
}

/** Marks in tenths: sums stay exact (0.1 + 0.2 is 0.3). */
const tenths = (v: number) => Math.round(v * 10);

/** One component value's problem, or null. `raw` is what the API or a cell holds. */
export function componentProblem(component: AssessmentComponent, value: unknown, precision: ScorePrecision): string | null {
  if (value === ABSENT_MARK) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > component.max) {
    return ASSESSMENT_MESSAGES.componentRange(component.label, component.max);
  }
  if (precision === 'whole' && !Number.isInteger(value)) return ASSESSMENT_MESSAGES.componentWhole(component.label);
  if (precision === 'one_decimal' && Math.abs(value * 10 - Math.round(value * 10)) > 1e-6) {
    return ASSESSMENT_MESSAGES.componentOneDecimal(component.label);
  }
  return null;
}

/**
 * Problems of a set of component scores under a scheme, by label (an unknown label is keyed by
 * itself). Empty when every value is allowed. Missing labels are fine: not entered yet.
 */
export function componentScoreProblems(
  components: readonly AssessmentComponent[],
  precision: ScorePrecision,
  scores: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const byLabel = new Map(components.map((c) => [c.label, c]));
  const labels = components.map((c) => c.label).join(', ');
  for (const [label, value] of Object.entries(scores)) {
    const c = byLabel.get(label);
    if (!c) {
      out[label] = ASSESSMENT_MESSAGES.componentUnknown(label, labels);
      continue;
    }
    const p = componentProblem(c, value, precision);
    if (p) out[label] = p;
  }
  return out;
}

/** The total of a result's components: marks summed exactly, ABS counting no marks. */
export function componentTotal(scores: Readonly<ComponentScores>): number {
  let t = 0;
  for (const v of Object.values(scores)) if (v !== ABSENT_MARK) t += tenths(v);
  return t / 10;
}

/** The labels marked absent, in scheme order. */
export function absentComponents(components: readonly AssessmentComponent[], scores: Readonly<ComponentScores>): string[] {
  return components.filter((c) => scores[c.label] === ABSENT_MARK).map((c) => c.label);
}

/** Whether any component has a value (an all-empty grid row means "no result"). */
export function hasAnyComponent(scores: Readonly<ComponentScores>): boolean {
  return Object.keys(scores).length > 0;
}

/**
 * Reads one typed or pasted cell: '' → undefined (not entered), 'abs'/'ABS'/'a' → ABS, a number
 * (comma decimal separators accepted) → number, anything else → NaN (the cell shows the range
 * message).
 */
export function parseComponentCell(raw: string): ComponentValue | undefined {
  const s = raw.trim();
  if (!s) return undefined;
  if (/^(abs|a|absent)$/i.test(s)) return ABSENT_MARK;
  const n = Number(s.replace(',', '.'));
  return /^[+]?\d*[.,]?\d+$|^\d+[.,]$/.test(s) ? n : Number.NaN;
}

// ---------- subject statistics ----------

/**
 * The statistics of one arm–subject–term and each student's subject position (competition ranking:
 * ties share a position and the next skips, 1, 1, 3). Students without a score are not counted.
 */
export function subjectStatistics(scores: readonly { student_id: number; score: number }[]): {
  stats: SubjectStatistics | null;
  positions: Map<number, number>;
} {
  if (!scores.length) return { stats: null, positions: new Map() };
  const values = scores.map((s) => s.score);
  const ranks = competitionRanks(values);
  const positions = new Map<number, number>();
  scores.forEach((s, i) => positions.set(s.student_id, ranks[i]!));
  let sum = 0;
  for (const v of values) sum += v;
  return {
    stats: { count: values.length, highest: Math.max(...values), lowest: Math.min(...values), average: round2(sum / values.length) },
    positions,
  };
}

// ---------- schemas ----------

export const componentLabelField = z
  .string({ error: ASSESSMENT_MESSAGES.labelInvalid })
  .trim()
  .regex(LABEL, ASSESSMENT_MESSAGES.labelInvalid);

export const assessmentComponentSchema = z.object({
  name: requiredText('Component name', ASSESSMENT_MESSAGES.nameRequired).max(40, ASSESSMENT_MESSAGES.nameTooLong),
  label: componentLabelField,
  max: z
    .number({ error: ASSESSMENT_MESSAGES.maxInvalid })
    .int(ASSESSMENT_MESSAGES.maxInvalid)
    .min(1, ASSESSMENT_MESSAGES.maxInvalid)
    .max(100, ASSESSMENT_MESSAGES.maxInvalid),
});

/** PUT /api/assessment-schemes/{level}/ and its preview. */
export const assessmentSchemeInputSchema = z
  .object({
    /** The session it applies to; the current session when left out. */
    session_id: z.number().int().positive().max(ID_MAX).optional(),
    components: z
      .array(assessmentComponentSchema)
      .min(1, ASSESSMENT_MESSAGES.componentsRequired)
      .max(MAX_COMPONENTS, ASSESSMENT_MESSAGES.tooManyComponents),
    precision: z.enum(SCORE_PRECISIONS, { error: ASSESSMENT_MESSAGES.precisionInvalid }).default('one_decimal'),
    /** Required (true) when results entered as one total exist (see the preview). */
    confirm: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    for (const message of schemeProblems(v.components)) ctx.addIssue({ code: 'custom', path: ['components'], message });
  });
export type AssessmentSchemeInput = z.infer<typeof assessmentSchemeInputSchema>;

/**
 * Component scores as the API takes them: label → marks or "ABS". The values' ranges are checked
 * against the class's scheme on the server (componentScoreProblems); here only the shape.
 */
export const componentScoresSchema = z
  .record(
    z.string().max(COMPONENT_LABEL_MAX + 8),
    z.union([z.number(), z.literal(ABSENT_MARK)], { error: ASSESSMENT_MESSAGES.componentValueInvalid }),
  )
  .refine((v) => Object.keys(v).length <= MAX_COMPONENTS, ASSESSMENT_MESSAGES.tooManyComponents);

// ---------- score sheet (the class grid) ----------

/** Ids and versions stay within PostgreSQL's `integer`: a larger one names no row and must not reach a query. */
const sessionIdOf = (n: z.ZodNumber) =>
  n.int(GENERAL_MESSAGES.invalidId).positive(GENERAL_MESSAGES.invalidId).max(ID_MAX, GENERAL_MESSAGES.invalidId);

export const scoreSheetQuerySchema = z.object({
  session_id: sessionIdOf(z.coerce.number()),
  term: z.enum(['1st', '2nd', '3rd']),
  student_class: z.string().trim().min(1).max(40),
  subject: z.string().trim().min(1).max(60),
});
export type ScoreSheetQuery = z.infer<typeof scoreSheetQuerySchema>;

/** One changed grid row. `version` is what the client saw: 0 for "no result yet". */
export const scoreSheetRowInputSchema = z.object({
  admission_number: z.string().trim().min(1).max(20),
  /** Every component the row holds now; an empty object clears (deletes) the result. */
  components: componentScoresSchema,
  remarks: textField('Remarks').trim().max(300).optional(),
  version: z.number().int().min(0).max(ID_MAX),
});

/** PUT /api/score-sheet/: one row (autosave) or the whole sheet, in one transaction. */
export const scoreSheetSaveSchema = scoreSheetQuerySchema.extend({
  session_id: sessionIdOf(z.number()),
  rows: z.array(scoreSheetRowInputSchema).min(1).max(500),
  reason: z.string().trim().max(300).optional(),
});
export type ScoreSheetSave = z.infer<typeof scoreSheetSaveSchema>;

/** The body of a 409 from the grid: the row as stored now, so the client can show both values. */
export interface ScoreConflict {
  detail: string;
  code: typeof SCORE_CONFLICT_CODE;
  admission_number: string;
  current: ScoreSheetResult | null;
}

/** CSV import: POST /api/score-sheet/import/ with `dry_run` for the preview. */
export const scoreSheetImportSchema = scoreSheetQuerySchema.extend({
  session_id: sessionIdOf(z.number()),
  csv: z.string().max(1_000_000, ASSESSMENT_MESSAGES.csvTooBig),
  dry_run: z.boolean().default(true),
  reason: z.string().trim().max(300).optional(),
});
