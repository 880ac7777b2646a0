import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  armLabelOf,
  defaultArmTarget,
  nextLevelOf,
  planCounts,
  planPromotion,
  promotionMoveSchema,
  promotionRunSchema,
  PROMOTION_MESSAGES as M,
  type PlanStudent,
} from './promotion';
import { CLASS_LEVELS, classLevelOf } from './teaching';

const ARMS = CLASS_LEVELS.flatMap((l) => [`${l}A`, `${l}B`]);

describe('default mapping', () => {
  it('moves each arm to the same label one level up; JSS 3 to SSS 1; SSS 3 graduates', () => {
    expect(defaultArmTarget('JSS 1A', ARMS)).toBe('JSS 2A');
    expect(defaultArmTarget('JSS 2B', ARMS)).toBe('JSS 3B');
    expect(defaultArmTarget('JSS 3A', ARMS)).toBe('SSS 1A');
    expect(defaultArmTarget('SSS 2B', ARMS)).toBe('SSS 3B');
    expect(defaultArmTarget('SSS 3A', ARMS)).toBeNull();
  });
  it('an arm whose label the next level lacks goes to its first arm (a merge); none there: undefined', () => {
    expect(defaultArmTarget('JSS 1 Gold', ['JSS 1 Gold', 'JSS 2B', 'JSS 2A'])).toBe('JSS 2A');
    expect(defaultArmTarget('JSS 1 Gold', ['JSS 1 Gold', 'JSS 2 Gold'])).toBe('JSS 2 Gold');
    expect(defaultArmTarget('JSS 1A', ['JSS 1A'])).toBeUndefined();
  });
  it('labels and levels', () => {
    expect(armLabelOf('SSS 2 Gold')).toBe('GOLD');
    expect(nextLevelOf('SSS 3')).toBeNull();
    expect(nextLevelOf('JSS 3')).toBe('SSS 1');
  });
});

const mappingOf = (arms: readonly string[]) => new Map(arms.map((a) => [a, defaultArmTarget(a, arms)]));

describe('planPromotion: decisions', () => {
  const base = (over: Partial<PlanStudent>): PlanStudent => ({
    student_id: 1,
    arm: 'JSS 1A',
    stream_id: null,
    card_decision: 'promoted',
    card_source: 'rule',
    ...over,
  });
  const plan = (s: PlanStudent, change?: Parameters<typeof planPromotion>[0]['changes']) =>
    planPromotion({ students: [s], arms: ARMS, streamIds: new Set([1, 2]), mapping: mappingOf(ARMS), changes: change });

  it('rule, override and no card', () => {
    expect(plan(base({})).students[0]).toMatchObject({ decision: 'promoted', source: 'rule', target_arm: 'JSS 2A' });
    expect(plan(base({ card_decision: 'trial', card_source: 'override' })).students[0]).toMatchObject({
      decision: 'trial',
      source: 'override',
      target_arm: 'JSS 2A',
    });
    expect(plan(base({ card_decision: 'repeat' })).students[0]).toMatchObject({ decision: 'repeat', target_arm: 'JSS 1A' });
    // No third-term card: promoted by default, listed as `no_card` for the admin to check.
    expect(plan(base({ card_decision: null, card_source: null })).students[0]).toMatchObject({
      decision: 'promoted',
      source: 'no_card',
      target_arm: 'JSS 2A',
    });
  });

  it('SSS 3: promoted, on trial and no card graduate; repeat stays', () => {
    for (const d of ['promoted', 'trial', null] as const)
      expect(plan(base({ arm: 'SSS 3B', card_decision: d, card_source: d ? 'rule' : null })).students[0]).toMatchObject({
        decision: 'graduated',
        target_arm: null,
      });
    expect(plan(base({ arm: 'SSS 3B', card_decision: 'repeat' })).students[0]).toMatchObject({ decision: 'repeat', target_arm: 'SSS 3B' });
  });

  it('streams: kept at senior levels, chosen for JSS 3 -> SSS 1, none in junior arms', () => {
    expect(plan(base({ arm: 'SSS 1A', stream_id: 2 })).students[0]).toMatchObject({ target_arm: 'SSS 2A', stream_id: 2 });
    expect(plan(base({ arm: 'JSS 3A' }), new Map([[1, { index: 0, change: { stream_id: 1 } }]])).students[0]).toMatchObject({
      target_arm: 'SSS 1A',
      stream_id: 1,
    });
    expect(plan(base({ arm: 'JSS 1A' }), new Map([[1, { index: 0, change: { stream_id: 1 } }]])).errors).toEqual({
      'students.0.stream_id': [M.streamSeniorOnly],
    });
    expect(plan(base({ arm: 'JSS 3A' }), new Map([[1, { index: 0, change: { stream_id: 9 } }]])).errors).toEqual({
      'students.0.stream_id': [M.streamUnknown],
    });
  });

  it('the admin’s changes: decision, split to another arm, and their 400s', () => {
    const ch = (change: object, index = 3) => new Map([[1, { index, change }]]);
    expect(plan(base({}), ch({ decision: 'repeat' })).students[0]).toMatchObject({
      decision: 'repeat',
      source: 'override',
      target_arm: 'JSS 1A',
    });
    expect(plan(base({}), ch({ target_arm: 'JSS 2B' })).students[0]).toMatchObject({ target_arm: 'JSS 2B' });
    expect(plan(base({}), ch({ decision: 'repeat', target_arm: 'JSS 1B' })).students[0]).toMatchObject({ target_arm: 'JSS 1B' });
    expect(plan(base({}), ch({ target_arm: 'JSS 3B' })).errors).toEqual({ 'students.3.target_arm': [M.promotedNextLevel('JSS 2')] });
    expect(plan(base({}), ch({ decision: 'repeat', target_arm: 'JSS 2A' })).errors).toEqual({
      'students.3.target_arm': [M.repeatSameLevel('JSS 1')],
    });
    expect(plan(base({}), ch({ decision: 'graduated' })).errors).toEqual({ 'students.3.decision': [M.graduateOnlySss3] });
    expect(plan(base({ arm: 'SSS 3A' }), ch({ decision: 'promoted' })).errors).toEqual({
      'students.3.decision': [M.sss3GraduatesOrRepeats],
    });
    expect(plan(base({}), ch({ target_arm: 'JSS 2Z' })).errors).toEqual({
      'students.3.target_arm': [M.armUnknown('JSS 2Z')],
    });
  });
});

// ---------- properties ----------

const armsArb = fc.array(fc.constantFrom('A', 'B', 'C', 'D', 'Gold'), { minLength: 1, maxLength: 4 }).map((labels) => {
  const uniq = [...new Set(labels)];
  return CLASS_LEVELS.flatMap((l) => uniq.map((x) => (x.length === 1 ? `${l}${x}` : `${l} ${x}`)));
});

const schoolArb = armsArb.chain((arms) =>
  fc.record({
    arms: fc.constant(arms),
    students: fc.array(
      fc.record({
        arm: fc.constantFrom(...arms),
        card_decision: fc.constantFrom('promoted', 'trial', 'repeat', null),
        stream_id: fc.constantFrom(null, 1, 2),
      }),
      { maxLength: 80 },
    ),
    // Merges: some arms re-mapped to another arm of the next level.
    remap: fc.array(fc.tuple(fc.constantFrom(...arms), fc.nat()), { maxLength: 6 }),
  }),
);

describe('planPromotion: properties', () => {
  it('every student lands in exactly one arm of the right level or graduates; repeaters stay at their level', () => {
    fc.assert(
      fc.property(schoolArb, ({ arms, students, remap }) => {
        const mapping = mappingOf(arms);
        for (const [from, n] of remap) {
          const next = nextLevelOf(classLevelOf(from)!);
          if (!next) continue;
          const atNext = arms.filter((a) => classLevelOf(a) === next);
          mapping.set(from, atNext[n % atNext.length]);
        }
        const input: PlanStudent[] = students.map((s, i) => ({
          student_id: i + 1,
          arm: s.arm,
          stream_id: s.stream_id,
          card_decision: s.card_decision,
          card_source: s.card_decision ? 'rule' : null,
        }));
        const { students: out, errors } = planPromotion({ students: input, arms, streamIds: new Set([1, 2]), mapping });
        expect(errors).toEqual({});
        expect(out).toHaveLength(input.length);
        expect(new Set(out.map((s) => s.student_id)).size).toBe(input.length);
        for (const s of out) {
          const level = classLevelOf(s.arm)!;
          if (s.decision === 'graduated') {
            expect(level).toBe('SSS 3');
            expect(s.target_arm).toBeNull();
            continue;
          }
          expect(arms).toContain(s.target_arm);
          const to = classLevelOf(s.target_arm!)!;
          if (s.decision === 'repeat') expect(s.target_arm).toBe(s.arm);
          else expect(to).toBe(nextLevelOf(level));
          if (to.startsWith('JSS')) expect(s.stream_id).toBeNull();
        }
        const { counts, totals } = planCounts(out);
        expect(counts.reduce((a, c) => a + c.count, 0) + totals.graduated).toBe(out.length);
        expect(totals.promoted + totals.trial + totals.repeat + totals.graduated).toBe(out.length);
      }),
      { numRuns: 300 },
    );
  });

  it('a split never sends a student anywhere but the chosen arm', () => {
    fc.assert(
      fc.property(schoolArb, fc.nat(), ({ arms, students }, pick) => {
        const input: PlanStudent[] = students
          .filter((s) => classLevelOf(s.arm) !== 'SSS 3')
          .map((s, i) => ({ student_id: i + 1, arm: s.arm, stream_id: null, card_decision: 'promoted', card_source: 'rule' }));
        const changes = new Map(
          input.map((s, index) => {
            const next = nextLevelOf(classLevelOf(s.arm)!)!;
            const atNext = arms.filter((a) => classLevelOf(a) === next);
            return [s.student_id, { index, change: { target_arm: atNext[(pick + index) % atNext.length]! } }];
          }),
        );
        const { students: out, errors } = planPromotion({ students: input, arms, streamIds: new Set(), mapping: mappingOf(arms), changes });
        expect(errors).toEqual({});
        for (const s of out) expect(s.target_arm).toBe(changes.get(s.student_id)!.change.target_arm);
      }),
      { numRuns: 200 },
    );
  });
});

describe('schemas', () => {
  it('a run needs both sessions; a move needs a reason', () => {
    expect(promotionRunSchema.safeParse({ from_session_id: 1, to_session_id: 2 }).success).toBe(true);
    expect(promotionRunSchema.safeParse({ from_session_id: 1 }).success).toBe(false);
    expect(
      promotionRunSchema.safeParse({ from_session_id: 1, to_session_id: 2, students: [{ student_id: 1, decision: 'x' }] }).success,
    ).toBe(false);
    const move = promotionMoveSchema.safeParse({ admission_number: 'STU-0001', to_arm: 'JSS 2A', reason: '  ' });
    expect(move.success).toBe(false);
    expect(move.error?.issues[0]?.message).toBe(M.reasonRequired);
  });
});
