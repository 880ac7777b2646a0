import { describe, expect, it } from 'vitest';
import { ASSESSMENT_MESSAGES, SCHEME_PRESETS } from '@portal/domain/assessment';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { rowOf, rowScoreIssues, type ScoreRow } from './subject-scores';

const scheme = { components: SCHEME_PRESETS[0]!.components, precision: 'whole' as const };

describe("the entry forms' score checks", () => {
  const rows: ScoreRow[] = [
    { subject: 'Mathematics', score: '101', components: { CA1: '21', Exam: '60' } },
    { subject: 'English Language', score: 'e', components: { CA2: '12.5' } },
    { subject: 'Agric. Science', score: '55' },
  ];

  it('checks each listed subject with a row, in the order listed, by the path of its input', () => {
    expect(rowScoreIssues(rows, ['English Language', 'Biology', 'Mathematics', 'Agric. Science'], null)).toEqual([
      [['rows', 1, 'score'], RESULT_MESSAGES.invalidScore('English Language')],
      [['rows', 0, 'score'], RESULT_MESSAGES.scoreMax],
    ]);
    // A subject left out of the list (read-only) is not checked.
    expect(rowScoreIssues(rows, ['Agric. Science'], null)).toEqual([]);
  });

  it("on a scheme with components checks each typed component against its maximum and the scheme's precision", () => {
    expect(rowScoreIssues(rows, ['Mathematics', 'English Language', 'Agric. Science'], scheme)).toEqual([
      [['rows', 0, 'components', 'CA1'], ASSESSMENT_MESSAGES.componentRange('CA1', 20)],
      [['rows', 1, 'components', 'CA2'], ASSESSMENT_MESSAGES.componentWhole('CA2')],
    ]);
  });

  it('finds a row by its subject, whatever the name holds', () => {
    expect(rowOf(rows, 'Agric. Science')).toBe(2);
    expect(rowOf(rows, 'Biology')).toBe(-1);
  });
});
