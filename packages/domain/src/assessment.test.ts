import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ABSENT_MARK,
  ASSESSMENT_MESSAGES,
  describeScheme,
  MAX_COMPONENTS,
  schemeProblems,
  subjectStatistics,
  type AssessmentComponent,
  type ComponentScores,
  type ScorePrecision,
} from './assessment';
import { resolveScore } from './score-resolution';

/** A valid scheme: 100 split at random into 1..6 whole parts, labels unique. */
const scheme = fc
  .integer({ min: 1, max: MAX_COMPONENTS })
  .chain((k) => fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { minLength: k - 1, maxLength: k - 1 }))
  .map((cuts): AssessmentComponent[] => {
    const points = [0, ...[...cuts].sort((a, b) => a - b), 100];
    return points
      .slice(1)
      .map((p, i) => ({ name: `Part ${i + 1}`, label: i === points.length - 2 ? 'Exam' : `CA${i + 1}`, max: p - points[i]! }));
  });

/** A valid scheme and a score (in tenths, or absent) for each of its components. */
const schemeAndScores = scheme.chain((components) =>
  fc
    .tuple(
      ...components.map((c) =>
        fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: c.max * 10 }) }, { weight: 1, arbitrary: fc.constant(ABSENT_MARK) }),
      ),
    )
    .map((tenths) => ({ components, tenths })),
);

const rules = (components: readonly AssessmentComponent[], precision: ScorePrecision = 'one_decimal') => ({ components, precision });

describe('resolveScore on random schemes', () => {
  it('adds component scores at one decimal exactly (in tenths), ABS counting 0, total within 0..100', () => {
    fc.assert(
      fc.property(schemeAndScores, ({ components, tenths }) => {
        const scores: ComponentScores = Object.fromEntries(
          components.map((c, i) => [c.label, tenths[i] === ABSENT_MARK ? ABSENT_MARK : tenths[i]! / 10]),
        );
        const r = resolveScore(rules(components), { components: scores });
        if (!r.ok) throw new Error(JSON.stringify(r.errors));
        const expected = tenths.reduce<number>((a, t) => a + (t === ABSENT_MARK ? 0 : t), 0);
        expect(Math.round(r.score * 10)).toBe(expected);
        expect(r.score * 10).toBeCloseTo(expected, 9);
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(100);
        // A score sent beside the components is accepted when it is the total.
        expect(resolveScore(rules(components), { components: scores, score: expected / 10 })).toMatchObject({ ok: true, score: r.score });
      }),
    );
  });

  it('ABS counts no marks: the total is the same as with the component left out', () => {
    fc.assert(
      fc.property(schemeAndScores, fc.nat(), ({ components, tenths }, pick) => {
        const i = pick % components.length;
        const entered: ComponentScores = Object.fromEntries(
          components.map((c, k) => [c.label, tenths[k] === ABSENT_MARK ? 0 : tenths[k]! / 10] as const),
        );
        const absent = { ...entered, [components[i]!.label]: ABSENT_MARK };
        const without = Object.fromEntries(Object.entries(entered).filter(([l]) => l !== components[i]!.label));
        const a = resolveScore(rules(components), { components: absent });
        const b = resolveScore(rules(components), { components: { ...without, [components[i]!.label]: 0 } });
        expect(a.ok && b.ok).toBe(true);
        if (a.ok && b.ok) expect(a.score).toBe(b.score);
        // Shown apart from a zero: the stored components keep ABS.
        if (a.ok) expect(a.components?.[components[i]!.label]).toBe(ABSENT_MARK);
      }),
    );
  });

  it('refuses a value above the maximum, with two decimals, or a fraction on a whole-number scheme, naming the component', () => {
    fc.assert(
      fc.property(
        scheme,
        fc.nat(),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 9 }),
        (components, pick, over, hundredth) => {
          const c = components[pick % components.length]!;
          const key = `components.${c.label}`;
          const above = resolveScore(rules(components), { components: { [c.label]: c.max + over / 10 } });
          expect(above).toEqual({ ok: false, errors: { [key]: ASSESSMENT_MESSAGES.componentRange(c.label, c.max) } });
          // Two decimals, inside the range: 0.01 .. max - 0.09.
          const twoDecimals = (Math.min(c.max - 1, pick % c.max) * 100 + hundredth) / 100;
          const fine = resolveScore(rules(components), { components: { [c.label]: twoDecimals } });
          expect(fine).toEqual({ ok: false, errors: { [key]: ASSESSMENT_MESSAGES.componentOneDecimal(c.label) } });
          const fraction = (Math.min(c.max - 1, pick % c.max) * 10 + (hundredth % 9) + 1) / 10;
          const whole = resolveScore(rules(components, 'whole'), { components: { [c.label]: fraction } });
          expect(whole).toEqual({ ok: false, errors: { [key]: ASSESSMENT_MESSAGES.componentWhole(c.label) } });
          expect(resolveScore(rules(components), { components: { [c.label]: -over / 10 } })).toEqual({
            ok: false,
            errors: { [key]: ASSESSMENT_MESSAGES.componentRange(c.label, c.max) },
          });
          for (const message of [above, fine, whole].flatMap((r) => (r.ok ? [] : Object.values(r.errors))))
            expect(message).toContain(c.label);
        },
      ),
    );
  });

  it('refuses a score alone on a scheme with several components, naming them; a single component takes it as always', () => {
    fc.assert(
      fc.property(scheme, fc.integer({ min: 0, max: 1000 }), (components, tenths) => {
        const r = resolveScore(rules(components), { score: tenths / 10 });
        if (components.length === 1) expect(r).toEqual({ ok: true, score: tenths / 10, components: null });
        else expect(r).toEqual({ ok: false, errors: { score: ASSESSMENT_MESSAGES.scoreNeedsComponents(describeScheme(components)) } });
      }),
    );
  });

  it('refuses an unknown label and a score that is not the total', () => {
    const ca = rules([
      { name: 'CA1', label: 'CA1', max: 20 },
      { name: 'CA2', label: 'CA2', max: 20 },
      { name: 'Exam', label: 'Exam', max: 60 },
    ]);
    expect(resolveScore(ca, { components: { CA3: 5 } })).toEqual({
      ok: false,
      errors: { 'components.CA3': ASSESSMENT_MESSAGES.componentUnknown('CA3', 'CA1, CA2, Exam') },
    });
    expect(resolveScore(ca, { components: { CA1: 10, Exam: 50 }, score: 61 })).toEqual({
      ok: false,
      errors: { score: ASSESSMENT_MESSAGES.scoreNotTotal(60) },
    });
    expect(resolveScore(ca, { components: { CA1: 15.5, CA2: ABSENT_MARK, Exam: 44.7 } })).toEqual({
      ok: true,
      score: 60.2,
      components: { CA1: 15.5, CA2: ABSENT_MARK, Exam: 44.7 },
    });
  });
});

describe('subject statistics', () => {
  const scores = fc
    .array(fc.integer({ min: 0, max: 1000 }), { maxLength: 60 })
    .map((tenths) => tenths.map((t, i) => ({ student_id: i + 1, score: t / 10 })));

  it('highest ≥ average ≥ lowest, count = n, positions are competition ranks (ties equal, 1, 1, 3)', () => {
    fc.assert(
      fc.property(scores, (list) => {
        const { stats, positions } = subjectStatistics(list);
        if (!list.length) {
          expect(stats).toBeNull();
          expect(positions.size).toBe(0);
          return;
        }
        expect(stats!.count).toBe(list.length);
        expect(stats!.highest).toBe(Math.max(...list.map((s) => s.score)));
        expect(stats!.lowest).toBe(Math.min(...list.map((s) => s.score)));
        expect(stats!.highest).toBeGreaterThanOrEqual(stats!.average);
        expect(stats!.average).toBeGreaterThanOrEqual(stats!.lowest);
        expect(positions.size).toBe(list.length);
        for (const s of list) {
          expect(positions.get(s.student_id)).toBe(1 + list.filter((o) => o.score > s.score).length);
          for (const o of list) if (o.score === s.score) expect(positions.get(o.student_id)).toBe(positions.get(s.student_id));
        }
      }),
    );
    expect([
      ...subjectStatistics([
        { student_id: 1, score: 70 },
        { student_id: 2, score: 70 },
        { student_id: 3, score: 55.5 },
      ]).positions.values(),
    ]).toEqual([1, 1, 3]);
  });
});

describe('schemeProblems', () => {
  const label = fc.constantFrom('CA1', 'ca1', 'CA2', 'Exam', 'Test', 'Project');
  const components = fc.array(fc.record({ name: fc.constant('Part'), label, max: fc.integer({ min: 1, max: 100 }) }), {
    minLength: 0,
    maxLength: MAX_COMPONENTS + 2,
  });

  it('accepts exactly the schemes of 1..6 components whose maxima sum to 100 with unique labels', () => {
    fc.assert(
      fc.property(components, (list) => {
        const sum = list.reduce((a, c) => a + c.max, 0);
        const unique = new Set(list.map((c) => c.label.toLowerCase())).size === list.length;
        const valid = list.length >= 1 && list.length <= MAX_COMPONENTS && sum === 100 && unique;
        const problems = schemeProblems(list);
        expect(problems.length === 0).toBe(valid);
        if (list.length && sum !== 100) expect(problems).toContain(ASSESSMENT_MESSAGES.sumNot100(sum));
      }),
    );
    fc.assert(
      fc.property(scheme, (list) => {
        expect(schemeProblems(list)).toEqual([]);
      }),
    );
    expect(
      schemeProblems([
        { name: 'A', label: 'CA1', max: 20 },
        { name: 'B', label: 'CA1', max: 20 },
        { name: 'C', label: 'Exam', max: 60 },
      ]),
    ).toEqual([ASSESSMENT_MESSAGES.labelTaken('CA1')]);
  });
});
