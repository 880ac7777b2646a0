import { describe, expect, it } from 'vitest';
import { DEFAULT_PROMOTION_RULE, promotionDecision, promotionLabel, type PromotionRule } from './report-card-rules';

/** The default rule, written out: promoted from 40.00, on trial from 35.00, pass mark 40 in English and Mathematics. */
const rule: PromotionRule = {
  min_average: 40,
  trial_average: 35,
  pass_mark: 40,
  required_subjects: ['English Language', 'Mathematics'],
};

describe('promotion thresholds include their boundary', () => {
  it('the default rule is 40 / 35 / 40 with English and Mathematics required', () => {
    expect(DEFAULT_PROMOTION_RULE).toEqual(rule);
  });

  it('an annual average of exactly 40.00 with each required subject exactly at the pass mark is promoted', () => {
    expect(
      promotionDecision(rule, { annual_average: 40, subject_averages: { 'English Language': 40, Mathematics: 40, Physics: 12 } }),
    ).toBe('promoted');
  });

  it('an annual average of exactly 35.00 is on trial; just below it is repeat', () => {
    expect(promotionDecision(rule, { annual_average: 35, subject_averages: { 'English Language': 40, Mathematics: 40 } })).toBe('trial');
    expect(promotionDecision(rule, { annual_average: 34.99, subject_averages: { 'English Language': 40, Mathematics: 40 } })).toBe(
      'repeat',
    );
    expect(promotionDecision(rule, { annual_average: 39.99, subject_averages: { 'English Language': 40, Mathematics: 40 } })).toBe('trial');
  });

  it('a required subject just below the pass mark keeps an average of 40 off promotion (trial instead)', () => {
    expect(promotionDecision(rule, { annual_average: 60, subject_averages: { 'English Language': 39.99, Mathematics: 80 } })).toBe('trial');
    expect(promotionDecision({ ...rule, trial_average: null }, { annual_average: 60, subject_averages: { Mathematics: 39.99 } })).toBe(
      'repeat',
    );
  });

  it('a null required-subject average is not counted as 0: the subject is not held against the student', () => {
    expect(promotionDecision(rule, { annual_average: 55, subject_averages: { 'English Language': null, Mathematics: 70 } })).toBe(
      'promoted',
    );
    // Not taken at all: the same.
    expect(promotionDecision(rule, { annual_average: 55, subject_averages: { Mathematics: 70 } })).toBe('promoted');
  });

  it('no annual average is repeat, even with no trial and a zero minimum', () => {
    expect(promotionDecision(rule, { annual_average: null, subject_averages: {} })).toBe('repeat');
    expect(promotionDecision({ ...rule, min_average: 0, trial_average: 0 }, { annual_average: Number.NaN, subject_averages: {} })).toBe(
      'repeat',
    );
  });

  it('reads on the card as the level says', () => {
    expect(promotionLabel('promoted', 'JSS 1')).toBe('Promoted');
    expect(promotionLabel('promoted', 'SSS 3')).toBe('Graduated');
    expect(promotionLabel('trial', 'SSS 3')).toBe('Promoted on trial');
    expect(promotionLabel('repeat', 'SSS 3')).toBe('Not graduated: to repeat');
    expect(promotionLabel('repeat', null)).toBe('To repeat the class');
  });
});
