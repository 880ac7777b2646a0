/**
 * End-of-session promotion (issue 34, decision record 039): the outcome of each student, where each
 * arm goes in the next session, the request and answer shapes of the promotion API, its messages,
 * and the one pure rule turning decisions and a mapping into each student's target arm.
 */
import { z } from 'zod';
import { ID_MAX } from './ids';
import { requiredText } from './text';
import { admissionNumberField, classField, sessionIdField } from './result-schemas';
import type { PromotionDecision } from './report-card-rules';
import { CLASS_LEVELS, CLASS_NAME_PATTERN, classLevelOf, type ClassLevel } from './teaching';
export type {
  PromotionMoveResult,
  PromotionPreview,
  PromotionPreviewStudent,
  PromotionRun,
  PromotionRunSummary,
} from './promotion-responses';

/** What happens to a student at the end of the session: the rule's three decisions, and graduation for SSS 3. */
export const PROMOTION_OUTCOMES = ['promoted', 'trial', 'repeat', 'graduated'] as const;
export type PromotionOutcome = (typeof PROMOTION_OUTCOMES)[number];
/** Where a student's decision comes from: the promotion rule, an override (card or promotion screen), or no third-term card. */
export const PROMOTION_SOURCES = ['rule', 'override', 'no_card'] as const;
export type PromotionSource = (typeof PROMOTION_SOURCES)[number];
export const PROMOTION_RUN_STATUSES = ['running', 'done', 'failed', 'undone'] as const;
export type PromotionRunStatus = (typeof PROMOTION_RUN_STATUSES)[number];

/** Most students one run takes (a school of several thousand) and the longest reason. */
export const PROMOTION_MAX_STUDENTS = 10_000;
export const PROMOTION_MAX_MAPPING = 200;
export const PROMOTION_REASON_MAX = 300;

export const PROMOTION_MESSAGES = {
  fromSessionUnknown: 'Choose the session that is ending.',
  toSessionUnknown: 'Choose the session the students move into.',
  sameSession: 'The new session must be another session than the one that is ending.',
  toSessionEarlier: 'The new session must come after the session that is ending.',
  armUnknown: (arm: string) => `${arm} is not one of the school's current arms.`,
  armEmpty: (arm: string) => `${arm} has no student to promote in this session.`,
  mappingDuplicate: (arm: string) => `${arm} is mapped more than once.`,
  mappingNotInRun: (arm: string) => `${arm} is not in this promotion.`,
  mappingGraduates: (arm: string) => `${arm} is an SSS 3 arm: its students graduate, they move into no arm.`,
  mappingNeedsArm: (arm: string) => `Choose the arm ${arm}'s promoted students move into.`,
  mappingWrongLevel: (from: string, to: string, level: string) => `${from} moves up to ${level}: ${to} is not an ${level} arm.`,
  noArmAtNextLevel: (arm: string, level: string) => `${level} has no arm yet: add one before promoting ${arm}.`,
  studentUnknown: 'This student is not in this promotion (not in the arm, withdrawn, or already promoted).',
  studentDuplicate: 'This student is listed more than once.',
  graduateOnlySss3: 'Only an SSS 3 student graduates.',
  sss3GraduatesOrRepeats: 'An SSS 3 student graduates or repeats.',
  graduateHasNoArm: 'A graduating student moves into no arm.',
  repeatSameLevel: (level: string) => `A student who repeats stays in ${level}: choose an ${level} arm.`,
  promotedNextLevel: (level: string) => `A promoted student moves up to ${level}: choose an ${level} arm.`,
  streamUnknown: 'Choose one of the school’s streams.',
  streamSeniorOnly: 'Streams are for senior (SSS) arms only.',
  alreadyRunning: 'A promotion is already running. Wait for it to finish.',
  nothingToPromote: 'No student to promote: every student of this selection is withdrawn or already promoted.',
  runNotFound: 'Promotion run not found.',
  notUndoable: (status: string) => `This promotion is ${status}: only a finished promotion can be undone.`,
  undoBlocked: (what: string) =>
    `The new session already has ${what}: the promotion can no longer be undone. Move single students with a reason instead.`,
  undoLaterRun: 'A later promotion moved these students again: undo that one first.',
  undone: 'Promotion undone.',
  applyFailed: 'The promotion failed and nothing was changed. Try again; if it fails again, tell the administrator.',
  reasonRequired: 'Give a reason for moving the student.',
  reasonTooLong: `A reason must be at most ${PROMOTION_REASON_MAX} characters.`,
  studentNotFound: 'Student not found.',
  studentNotActive: 'Only a current student (not withdrawn or graduated) can be moved.',
  sameArm: (arm: string) => `The student is already in ${arm}.`,
  tooManyStudents: `At most ${PROMOTION_MAX_STUDENTS} students in one promotion.`,
  tooManyArms: `At most ${PROMOTION_MAX_MAPPING} arms in one mapping.`,
  studentIdInvalid: 'Choose a student of the list.',
  decisionInvalid: 'Choose promoted, on trial, repeat or graduated.',
  moved: (name: string, arm: string) => `${name} moved to ${arm}.`,
} as const;

// ---------- the rule ----------

/** The level after `level`; null after SSS 3 (the student graduates). */
export function nextLevelOf(level: ClassLevel): ClassLevel | null {
  const i = CLASS_LEVELS.indexOf(level);
  return i < CLASS_LEVELS.length - 1 ? CLASS_LEVELS[i + 1]! : null;
}

/** The label of an arm's name ("JSS 1A" -> "A", "SSS 2 Gold" -> "GOLD"), upper-cased for matching. */
export function armLabelOf(name: string): string | null {
  const m = CLASS_NAME_PATTERN.exec(name);
  return m ? m[2]!.trim().toUpperCase() : null;
}

/** One arm's destination: an arm of the next level, or null (SSS 3: its students graduate). */
export interface PromotionMappingEntry {
  from_arm: string;
  to_arm: string | null;
}

/**
 * The default destination of each of `fromArms` among the school's current `arms`: the arm of the
 * next level with the same label (JSS 1A -> JSS 2A, JSS 3B -> SSS 1B), else the next level's first
 * arm (the admin changes it); SSS 3 arms graduate (null). An arm whose next level has no arm at all
 * gets `undefined` (the caller refuses it with `noArmAtNextLevel`).
 */
export function defaultArmTarget(fromArm: string, arms: readonly string[]): string | null | undefined {
  const level = classLevelOf(fromArm);
  if (!level) return undefined;
  const next = nextLevelOf(level);
  if (!next) return null;
  const atNext = arms.filter((a) => classLevelOf(a) === next).sort();
  const label = armLabelOf(fromArm);
  return atNext.find((a) => armLabelOf(a) === label) ?? atNext[0];
}

/** A student as the plan reads them: their arm in the ending session and the rule's decision (null: no third-term card). */
export interface PlanStudent {
  student_id: number;
  arm: string;
  stream_id: number | null;
  /** The card's decision (override or rule), or null when the student has no third-term card. */
  card_decision: PromotionDecision | null;
  card_source: 'rule' | 'override' | null;
}

/** The admin's change for one student. `stream_id: null` clears the stream; absent keeps it. */
export interface PlanChange {
  decision?: PromotionOutcome;
  target_arm?: string | null;
  stream_id?: number | null;
}

export interface PlannedStudent {
  student_id: number;
  arm: string;
  decision: PromotionOutcome;
  source: PromotionSource;
  /** The arm in the new session; null when the student graduates. */
  target_arm: string | null;
  stream_id: number | null;
}

export interface PlanInput {
  students: readonly PlanStudent[];
  /** The school's current arms. */
  arms: readonly string[];
  /** The school's stream ids. */
  streamIds: ReadonlySet<number>;
  /** Destination of each arm (defaults filled in by the caller or by `defaultArmTarget`). */
  mapping: ReadonlyMap<string, string | null | undefined>;
  /** The admin's per-student changes, with the index they had in the request (for the 400's field). */
  changes?: ReadonlyMap<number, { index: number; change: PlanChange }>;
}

/**
 * Each student's outcome and arm in the new session. The decision is the admin's change, else the
 * card's (override or rule), else 'promoted' for a student without a third-term card (listed with
 * source `no_card` for the admin to check). SSS 3: promoted or on trial graduates, repeat stays. A
 * repeater stays in their arm (or another arm of the same level the admin chose); a promoted student
 * goes where their arm is mapped (or the arm the admin chose, of the next level); a graduate into no
 * arm. Streams: kept, or the admin's choice; none in a junior arm. Problems are returned as 400 fields.
 */
export function planPromotion(input: PlanInput): { students: PlannedStudent[]; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const armSet = new Set(input.arms);
  const out: PlannedStudent[] = [];
  for (const s of input.students) {
    const level = classLevelOf(s.arm);
    const isFinal = level === 'SSS 3';
    const ch = input.changes?.get(s.student_id);
    const field = (name: string) => `students.${ch?.index ?? 0}.${name}`;
    const fail = (name: string, message: string) => {
      (errors[field(name)] ??= []).push(message);
    };
    let decision: PromotionOutcome;
    let source: PromotionSource;
    if (ch?.change.decision) {
      decision = ch.change.decision;
      source = 'override';
      if (decision === 'graduated' && !isFinal) fail('decision', PROMOTION_MESSAGES.graduateOnlySss3);
      if ((decision === 'promoted' || decision === 'trial') && isFinal) fail('decision', PROMOTION_MESSAGES.sss3GraduatesOrRepeats);
    } else {
      const d = s.card_decision ?? 'promoted';
      source = s.card_source ?? 'no_card';
      decision = isFinal ? (d === 'repeat' ? 'repeat' : 'graduated') : d;
    }
    let target: string | null;
    const chosen = ch?.change.target_arm;
    if (decision === 'graduated') {
      if (chosen) fail('target_arm', PROMOTION_MESSAGES.graduateHasNoArm);
      target = null;
    } else if (decision === 'repeat') {
      target = chosen ?? s.arm;
      if (chosen && level && classLevelOf(chosen) !== level) fail('target_arm', PROMOTION_MESSAGES.repeatSameLevel(level));
    } else {
      const next = level ? nextLevelOf(level) : null;
      const mapped = input.mapping.get(s.arm);
      target = chosen ?? mapped ?? null;
      if (chosen && next && classLevelOf(chosen) !== next) fail('target_arm', PROMOTION_MESSAGES.promotedNextLevel(next));
    }
    if (target !== null && !armSet.has(target)) {
      if (chosen) fail('target_arm', PROMOTION_MESSAGES.armUnknown(target));
    }
    let stream = ch && ch.change.stream_id !== undefined ? ch.change.stream_id : s.stream_id;
    const senior = target !== null ? classLevelOf(target)?.startsWith('SSS') : classLevelOf(s.arm)?.startsWith('SSS');
    if (ch?.change.stream_id !== undefined && ch.change.stream_id !== null) {
      if (!input.streamIds.has(ch.change.stream_id)) fail('stream_id', PROMOTION_MESSAGES.streamUnknown);
      else if (!senior) fail('stream_id', PROMOTION_MESSAGES.streamSeniorOnly);
    }
    if (!senior) stream = null;
    out.push({ student_id: s.student_id, arm: s.arm, decision, source, target_arm: target, stream_id: stream });
  }
  return { students: out, errors };
}

/** Counts of a plan: per target arm (graduates not counted there) and per outcome. */
export function planCounts(students: readonly PlannedStudent[]): {
  counts: { target_arm: string; count: number }[];
  totals: Record<PromotionOutcome, number>;
} {
  const byArm = new Map<string, number>();
  const totals: Record<PromotionOutcome, number> = { promoted: 0, trial: 0, repeat: 0, graduated: 0 };
  for (const s of students) {
    totals[s.decision] += 1;
    if (s.target_arm !== null) byArm.set(s.target_arm, (byArm.get(s.target_arm) ?? 0) + 1);
  }
  const counts = [...byArm].sort(([a], [b]) => compareArms(a, b)).map(([target_arm, count]) => ({ target_arm, count }));
  return { counts, totals };
}

/** Arms in level order, then by name. */
export function compareArms(a: string, b: string): number {
  const la = CLASS_LEVELS.indexOf(classLevelOf(a) ?? 'JSS 1');
  const lb = CLASS_LEVELS.indexOf(classLevelOf(b) ?? 'JSS 1');
  return la - lb || a.localeCompare(b);
}

// ---------- request schemas ----------

const studentIdField = z.coerce
  .number({ error: PROMOTION_MESSAGES.studentIdInvalid })
  .int(PROMOTION_MESSAGES.studentIdInvalid)
  .positive(PROMOTION_MESSAGES.studentIdInvalid)
  .max(ID_MAX, PROMOTION_MESSAGES.studentIdInvalid);
const streamIdField = z
  .number({ error: PROMOTION_MESSAGES.streamUnknown })
  .int(PROMOTION_MESSAGES.streamUnknown)
  .positive(PROMOTION_MESSAGES.streamUnknown)
  .max(ID_MAX, PROMOTION_MESSAGES.streamUnknown);

export const promotionPreviewQuerySchema = z.object({
  from_session_id: sessionIdField,
  to_session_id: sessionIdField,
  arm: z.preprocess((v) => (v === '' ? undefined : v), classField.optional()),
});
export type PromotionPreviewQuery = z.infer<typeof promotionPreviewQuerySchema>;

export const promotionRunSchema = z.object({
  from_session_id: sessionIdField,
  to_session_id: sessionIdField,
  arm: classField.optional(),
  mapping: z
    .array(z.object({ from_arm: classField, to_arm: classField.nullable() }))
    .max(PROMOTION_MAX_MAPPING, PROMOTION_MESSAGES.tooManyArms)
    .optional(),
  students: z
    .array(
      z.object({
        student_id: studentIdField,
        decision: z.enum(PROMOTION_OUTCOMES, { error: PROMOTION_MESSAGES.decisionInvalid }).optional(),
        target_arm: classField.nullable().optional(),
        stream_id: streamIdField.nullable().optional(),
      }),
    )
    .max(PROMOTION_MAX_STUDENTS, PROMOTION_MESSAGES.tooManyStudents)
    .optional(),
});
export type PromotionRunRequest = z.infer<typeof promotionRunSchema>;

export const promotionMoveSchema = z.object({
  admission_number: admissionNumberField,
  to_arm: classField,
  stream_id: streamIdField.nullable().optional(),
  reason: requiredText('Reason', PROMOTION_MESSAGES.reasonRequired).max(PROMOTION_REASON_MAX, PROMOTION_MESSAGES.reasonTooLong),
});
export type PromotionMoveRequest = z.infer<typeof promotionMoveSchema>;
