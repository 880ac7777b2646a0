import { describe, expect, it } from 'vitest';
import { ASSESSMENT_MESSAGES, SCHEME_PRESETS } from '@portal/domain/assessment';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { issueErrors } from '../../../lib/form-errors';
import { updateResultSchema, type UpdateResultValues } from './update-result-form';

const values: UpdateResultValues = {
  admission: 'STU-0001',
  sessionId: '3',
  term: 'First Term',
  pickedClass: 'JSS1A',
  reason: '',
  rows: [
    { subject: 'Mathematics', score: '', remarks: '' },
    { subject: 'English Language', score: '1e2', remarks: '', components: { CA1: '30' } },
    { subject: 'Basic Science', score: '101', remarks: '' },
  ],
};
const errorsOf = (schema: ReturnType<typeof updateResultSchema>, v: UpdateResultValues) => {
  const parsed = schema.safeParse(v);
  return parsed.success ? {} : issueErrors(parsed.error);
};

describe('the update result form', () => {
  it('checks the scores of the subjects the user may write; a cleared score (a deletion) passes', () => {
    expect(errorsOf(updateResultSchema({ subjects: ['Mathematics', 'English Language'], scheme: null }), values)).toEqual({
      'rows.1.score': [RESULT_MESSAGES.invalidScore('English Language')],
    });
    expect(updateResultSchema({ subjects: ['Mathematics'], scheme: null }).safeParse(values).success).toBe(true);
  });

  it("on a scheme with components checks each component typed, by its input's path", () => {
    const scheme = { components: SCHEME_PRESETS[0]!.components, precision: 'one_decimal' as const };
    expect(errorsOf(updateResultSchema({ subjects: ['English Language', 'Basic Science'], scheme }), values)).toEqual({
      'rows.1.components.CA1': [ASSESSMENT_MESSAGES.componentRange('CA1', 20)],
    });
  });

  it('passes before a search (no rows)', () => {
    expect(updateResultSchema({ subjects: [], scheme: null }).safeParse({ ...values, rows: null }).success).toBe(true);
  });
});
