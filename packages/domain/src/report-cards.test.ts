import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_STATUSES,
  COMMENT_KINDS,
  DEFAULT_COMMENT_BANK,
  nextCardStatus,
  nextTermOf,
  PROMOTION_DECISIONS,
  promotionDecision,
  promotionLabel,
  suggestComment,
  type ArmActionName,
  type BankComment,
  type CardStatus,
  type PromotionRule,
} from './report-card-rules';
import { CLASS_LEVELS } from './teaching';

const ACTIONS: ArmActionName[] = ['submit', 'approve', 'return', 'release'];
const mark = fc.double({ min: 0, max: 100, noNaN: true });
const SUBJECTS = ['English Language', 'Mathematics', 'Physics', 'French'];

const rule: fc.Arbitrary<PromotionRule> = fc
  .record({
    min_average: mark,
    trial: fc.option(mark, { nil: null }),
    pass_mark: mark,
    required_subjects: fc.subarray(SUBJECTS),
  })
  .map(({ min_average, trial, pass_mark, required_subjects }) => ({
    min_average,
    // A trial average is below the promotion average.
    trial_average: trial === null ? null : Math.min(trial, min_average),
    pass_mark,
    required_subjects,
  }));
const averages = fc.dictionary(fc.constantFrom(...SUBJECTS), fc.option(mark, { nil: null }));

describe('promotionDecision', () => {
  it('promotes exactly when the average reaches the minimum and no required subject taken is failed', () => {
    fc.assert(
      fc.property(rule, fc.option(mark, { nil: null }), averages, (r, avg, subject_averages) => {
        const d = promotionDecision(r, { annual_average: avg, subject_averages });
        const failed = r.required_subjects.some((s) => typeof subject_averages[s] === 'number' && subject_averages[s] < r.pass_mark);
        expect(PROMOTION_DECISIONS).toContain(d);
        expect(d === 'promoted').toBe(avg !== null && avg >= r.min_average && !failed);
        if (avg === null) expect(d).toBe('repeat');
        if (d === 'trial') expect(r.trial_average !== null && avg! >= r.trial_average).toBe(true);
        if (avg !== null && r.trial_average !== null && avg >= r.trial_average) expect(d).not.toBe('repeat');
      }),
    );
  });

  it('never gets worse as the annual average rises', () => {
    const rank = { repeat: 0, trial: 1, promoted: 2 } as const;
    fc.assert(
      fc.property(rule, mark, mark, averages, (r, a, b, subject_averages) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(rank[promotionDecision(r, { annual_average: hi, subject_averages })]).toBeGreaterThanOrEqual(
          rank[promotionDecision(r, { annual_average: lo, subject_averages })],
        );
      }),
    );
  });

  it('does not hold a student to a required subject they do not take', () => {
    fc.assert(
      fc.property(rule, mark, (r, avg) => {
        expect(promotionDecision(r, { annual_average: avg, subject_averages: {} })).toBe(
          avg >= r.min_average ? 'promoted' : r.trial_average !== null && avg >= r.trial_average ? 'trial' : 'repeat',
        );
      }),
    );
  });

  it('labels SSS 3 students who pass as graduated', () => {
    for (const level of [...CLASS_LEVELS, null]) {
      for (const d of PROMOTION_DECISIONS) {
        const label = promotionLabel(d, level);
        expect(label.length).toBeGreaterThan(0);
        if (d === 'promoted') expect(label).toBe(level === 'SSS 3' ? 'Graduated' : 'Promoted');
      }
    }
  });
});

describe('nextCardStatus', () => {
  const status = fc.constantFrom<CardStatus>(...CARD_STATUSES);
  const action = fc.constantFrom(...ACTIONS);

  it('allows only the documented steps, each to the documented status', () => {
    fc.assert(
      fc.property(status, action, (s, a) => {
        const next = nextCardStatus(s, a);
        const expected: Record<ArmActionName, CardStatus | null> = {
          submit: s === 'draft' ? 'submitted' : null,
          approve: s === 'draft' || s === 'submitted' ? 'approved' : null,
          return: s === 'submitted' || s === 'approved' ? 'draft' : null,
          release: s === 'released' ? null : 'released',
        };
        expect(next).toBe(expected[a]);
      }),
    );
  });

  it('keeps every sequence of actions among the four statuses; released stays released', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        let s: CardStatus = 'draft';
        for (const a of actions) {
          const next = nextCardStatus(s, a);
          if (s === 'released') expect(next).toBeNull();
          if (next !== null) s = next;
          expect(CARD_STATUSES).toContain(s);
        }
      }),
    );
  });
});

describe('suggestComment', () => {
  const bank: fc.Arbitrary<BankComment[]> = fc.array(
    fc
      .record({ kind: fc.constantFrom(...COMMENT_KINDS), min: mark, max: mark, text: fc.string({ minLength: 1, maxLength: 20 }) })
      .map((c) => ({
        ...c,
        min: Math.min(c.min, c.max),
        max: Math.max(c.min, c.max),
      })),
    { maxLength: 10 },
  );

  it('returns the first band of the kind that holds the average, or nothing', () => {
    fc.assert(
      fc.property(bank, fc.constantFrom(...COMMENT_KINDS), fc.option(mark, { nil: null }), (b, kind, avg) => {
        const text = suggestComment(b, kind, avg);
        const first = avg === null ? undefined : b.find((c) => c.kind === kind && avg >= c.min && avg <= c.max);
        expect(text).toBe(first?.text ?? '');
      }),
    );
  });

  it('gives every average from 0 to 100 (two decimals) a comment of each kind with the default bank', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10000 }), fc.constantFrom(...COMMENT_KINDS), (n, kind) => {
        expect(suggestComment(DEFAULT_COMMENT_BANK, kind, n / 100)).not.toBe('');
      }),
    );
    expect(suggestComment(DEFAULT_COMMENT_BANK, 'form', Number.NaN)).toBe('');
  });
});

describe('nextTermOf', () => {
  it('moves through the three terms, the third to the next session', () => {
    expect(nextTermOf('1st')).toEqual({ term: '2nd', nextSession: false });
    expect(nextTermOf('2nd')).toEqual({ term: '3rd', nextSession: false });
    expect(nextTermOf('3rd')).toEqual({ term: '1st', nextSession: true });
  });
});
