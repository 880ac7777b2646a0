import type { ArmMapping, Decision, PreviewStudent, PromotionPreview, RunBody, StudentChoice } from './api';
import { CLASS_LEVELS, classLevelOf, type ClassLevel } from '@portal/domain/teaching';

/**
 * The admin's changes to a promotion preview, and what follows from them (pure, so the screen and its
 * tests share one rule): each student's decision, new class and stream; the counts per new class;
 * the run's body (only what differs from the preview).
 */

/** One student's changes; `undefined` = as the preview says. `target_arm: null` = graduates. */
export interface StudentEdit {
  decision?: Decision;
  target_arm?: string | null;
  stream_id?: number | null;
}

export interface Plan {
  /** from arm -> new arm (null: graduates). */
  mapping: Record<string, string | null>;
  edits: Record<number, StudentEdit>;
}

export function initialPlan(preview: PromotionPreview): Plan {
  return { mapping: mappingRecord(preview.mapping), edits: {} };
}

export function mappingRecord(mapping: readonly ArmMapping[]): Record<string, string | null> {
  return Object.fromEntries(mapping.map((m) => [m.from_arm, m.to_arm]));
}

export interface Effective {
  decision: Decision;
  target_arm: string | null;
  stream_id: number | null;
  edited: boolean;
}

/**
 * A student's decision, new class and stream with the plan applied: an edited target wins; else, with
 * neither the decision nor the arm's mapping changed, the preview's target; else the decision's:
 * a repeater stays in the class, a graduate leaves, the others follow their class's mapping.
 */
export function effectiveOf(s: PreviewStudent, plan: Plan, original: Record<string, string | null>): Effective {
  const edit = plan.edits[s.student_id] ?? {};
  const decision = edit.decision ?? s.decision;
  const mapped = s.arm in plan.mapping ? plan.mapping[s.arm]! : s.target_arm;
  let target: string | null;
  if (edit.target_arm !== undefined) target = edit.target_arm;
  else if (edit.decision === undefined && plan.mapping[s.arm] === original[s.arm]) target = s.target_arm;
  else if (decision === 'repeat') target = s.arm;
  else if (decision === 'graduated') target = null;
  else target = mapped;
  const stream = edit.stream_id !== undefined ? edit.stream_id : s.stream_id;
  const edited = edit.decision !== undefined || edit.target_arm !== undefined || edit.stream_id !== undefined;
  return { decision, target_arm: target, stream_id: stream, edited };
}

/** A JSS 3 student going to a senior class chooses a stream there. */
export function choosesStream(s: PreviewStudent, target: string | null): boolean {
  return classLevelOf(s.arm) === 'JSS 3' && target !== null && classLevelOf(target)?.startsWith('SSS') === true;
}

/** Students per new class (null: graduates), in the order the classes first appear, graduates last. */
export function countsOf(students: readonly PreviewStudent[], plan: Plan, original: Record<string, string | null>) {
  const counts = new Map<string | null, number>();
  for (const s of students) {
    const t = effectiveOf(s, plan, original).target_arm;
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const rows = [...counts.entries()].map(([target_arm, count]) => ({ target_arm, count }));
  return rows.sort((a, b) => (a.target_arm === null ? 1 : b.target_arm === null ? -1 : a.target_arm.localeCompare(b.target_arm)));
}

export function totalsOf(students: readonly PreviewStudent[], plan: Plan, original: Record<string, string | null>) {
  const totals = { promoted: 0, trial: 0, repeat: 0, graduated: 0 };
  for (const s of students) {
    const e = effectiveOf(s, plan, original);
    // A class mapped to no class graduates whatever the decision said.
    const d = e.target_arm === null && e.decision !== 'repeat' ? 'graduated' : e.decision;
    totals[d] += 1;
  }
  return totals;
}

/** The run's body: the sessions, the arm, the mapping when changed, and each changed student's choices. */
export function runBody(
  preview: PromotionPreview,
  q: { from_session_id: number; to_session_id: number; arm?: string },
  plan: Plan,
): RunBody {
  const original = mappingRecord(preview.mapping);
  const mappingChanged = Object.entries(plan.mapping).some(([from, to]) => original[from] !== to);
  const students: StudentChoice[] = [];
  for (const s of preview.students) {
    const edit = plan.edits[s.student_id];
    if (!edit) continue;
    const e = effectiveOf(s, plan, original);
    const choice: StudentChoice = { student_id: s.student_id };
    if (edit.decision !== undefined && edit.decision !== s.decision) choice.decision = edit.decision;
    if (edit.target_arm !== undefined) choice.target_arm = e.target_arm;
    if (edit.stream_id !== undefined) choice.stream_id = e.stream_id;
    if (Object.keys(choice).length > 1) students.push(choice);
  }
  return {
    from_session_id: q.from_session_id,
    to_session_id: q.to_session_id,
    ...(q.arm ? { arm: q.arm } : {}),
    ...(mappingChanged ? { mapping: Object.entries(plan.mapping).map(([from_arm, to_arm]) => ({ from_arm, to_arm })) } : {}),
    ...(students.length ? { students } : {}),
  };
}

/** Splits a class: the second half of its moving students (promoted or on trial, in the list's order) go to `second`. */
export function splitArm(
  students: readonly PreviewStudent[],
  plan: Plan,
  original: Record<string, string | null>,
  arm: string,
  second: string,
): Plan {
  const moving = (s: PreviewStudent) => {
    const d = effectiveOf(s, plan, original).decision;
    return d === 'promoted' || d === 'trial';
  };
  const ofArm = students.filter((s) => s.arm === arm && moving(s));
  const half = Math.ceil(ofArm.length / 2);
  const edits = { ...plan.edits };
  for (const s of ofArm.slice(half)) edits[s.student_id] = { ...edits[s.student_id], target_arm: second };
  return { ...plan, edits };
}

/** The level after `level`; null after SSS 3 (its students graduate). */
export function levelAfter(level: ClassLevel | null): ClassLevel | null {
  if (!level) return null;
  const i = CLASS_LEVELS.indexOf(level);
  return i < CLASS_LEVELS.length - 1 ? CLASS_LEVELS[i + 1]! : null;
}

/** The arms a student of `arm` may go to with `decision`: their level's (repeat), the next level's (promoted, on trial), none (graduated). */
export function armsFor(arm: string, decision: Decision, arms: readonly string[]): string[] {
  if (decision === 'graduated') return [];
  const level = decision === 'repeat' ? classLevelOf(arm) : levelAfter(classLevelOf(arm));
  return arms.filter((a) => level !== null && classLevelOf(a) === level);
}

/** The decisions open to a student of `arm`: an SSS 3 student graduates or repeats, the others are promoted, on trial or repeat. */
export function decisionsFor(arm: string): Decision[] {
  return classLevelOf(arm) === 'SSS 3' ? ['graduated', 'repeat'] : ['promoted', 'trial', 'repeat'];
}
