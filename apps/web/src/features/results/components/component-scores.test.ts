import { describe, expect, it } from 'vitest';
import { ASSESSMENT_MESSAGES, SCHEME_PRESETS } from '@portal/domain/assessment';
import { draftHasWork, draftOf, readComponents, sameScores } from './component-scores';

const scheme = { components: SCHEME_PRESETS[0]!.components, precision: 'one_decimal' as const };

describe('typed component scores', () => {
  it('reads marks, ABS and empty inputs; refuses values over the maximum, garbage and extra decimals', () => {
    expect(readComponents(scheme, { CA1: '15', CA2: ' abs ', Exam: '' })).toEqual({ scores: { CA1: 15, CA2: 'ABS' }, errors: {} });
    expect(readComponents(scheme, { CA1: '12,5', Exam: '60' }).scores).toEqual({ CA1: 12.5, Exam: 60 });
    expect(readComponents(scheme, { CA1: '21', CA2: 'e', Exam: '40.25' }).errors).toEqual({
      CA1: ASSESSMENT_MESSAGES.componentRange('CA1', 20),
      CA2: ASSESSMENT_MESSAGES.componentRange('CA2', 20),
      Exam: ASSESSMENT_MESSAGES.componentOneDecimal('Exam'),
    });
    expect(readComponents({ ...scheme, precision: 'whole' }, { CA1: '12.5' }).errors).toEqual({
      CA1: ASSESSMENT_MESSAGES.componentWhole('CA1'),
    });
  });

  it('compares what is typed with what is stored by value, not by text', () => {
    expect(sameScores(scheme, { CA1: '15.0', CA2: 'ABS', Exam: '' }, { CA1: 15, CA2: 'ABS' })).toBe(true);
    expect(sameScores(scheme, { CA1: '15', CA2: '', Exam: '' }, { CA1: 15, CA2: 'ABS' })).toBe(false);
    expect(sameScores(scheme, {}, null)).toBe(true);
    expect(sameScores(scheme, { CA1: '25' }, { CA1: 25 })).toBe(false);
  });

  it('fills the inputs from stored scores; an all-empty draft is no work', () => {
    expect(draftOf({ CA1: 15, Exam: 'ABS' })).toEqual({ CA1: '15', Exam: 'ABS' });
    expect(draftOf(null)).toEqual({});
    expect(draftHasWork({ CA1: ' ', Exam: '' })).toBe(false);
    expect(draftHasWork({ CA1: '0' })).toBe(true);
  });
});
