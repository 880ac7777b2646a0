import { describe, expect, it } from 'vitest';
import { ASSESSMENT_MESSAGES, SCHEME_PRESETS } from '@portal/domain/assessment';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { issueErrors } from '../../../lib/form-errors';
import { resultUploadSchema, type ResultUploadValues } from './result-upload-form';

const base: ResultUploadValues = {
  admission_number: ' stu-0001 ',
  session_id: '3',
  term: 'First Term',
  student_class: 'JSS1A',
  reason: '',
  rows: [],
};
const subjects = ['Mathematics', 'English Language', 'Basic Science'];
const open = { subjects, scheme: null, locked: (s: string) => s === 'Basic Science' };
const errorsOf = (schema: ReturnType<typeof resultUploadSchema>, values: ResultUploadValues) => {
  const parsed = schema.safeParse(values);
  return parsed.success ? {} : issueErrors(parsed.error);
};

describe('the result upload form', () => {
  it('requires the admission number, session, term and class, and checks each open subject typed into', () => {
    const values = {
      ...base,
      admission_number: '',
      session_id: '',
      term: '',
      student_class: '',
      rows: [
        { subject: 'English Language', score: '120', remarks: '' },
        { subject: 'Basic Science', score: 'x', remarks: '' },
      ],
    };
    expect(errorsOf(resultUploadSchema(open), values)).toEqual({
      admission_number: [RESULT_MESSAGES.admissionNumberRequired],
      session_id: [RESULT_MESSAGES.sessionRequired],
      term: [RESULT_MESSAGES.termRequired],
      student_class: [RESULT_MESSAGES.classRequired],
      'rows.0.score': [RESULT_MESSAGES.scoreMax],
    });
  });

  it('asks for one score when nothing else is wrong and no open subject is filled', () => {
    const remarksOnly = { ...base, rows: [{ subject: 'Mathematics', score: ' ', remarks: 'Good' }] };
    expect(errorsOf(resultUploadSchema(open), remarksOnly)).toEqual({ subjects: [RESULT_MESSAGES.subjectsRequired] });
    // A read-only subject's score is neither checked nor counted.
    const lockedOnly = { ...base, rows: [{ subject: 'Basic Science', score: '50', remarks: '' }] };
    expect(errorsOf(resultUploadSchema(open), lockedOnly)).toEqual({ subjects: [RESULT_MESSAGES.subjectsRequired] });
  });

  it('gives the request its body: the filled subjects in page order, with their versions', () => {
    const values = {
      ...base,
      reason: ' Marking error ',
      rows: [
        { subject: 'English Language', score: '70', remarks: 'Fine', version: 2 },
        { subject: 'Mathematics', score: '55.5', remarks: '' },
        { subject: 'Basic Science', score: '50', remarks: '', version: 1 },
      ],
    };
    const parsed = resultUploadSchema(open).safeParse(values);
    expect(parsed.success && parsed.data).toEqual({
      admission_number: 'STU-0001',
      session_id: 3,
      term: 'First Term',
      student_class: 'JSS1A',
      reason: 'Marking error',
      subjects: [
        { name: 'Mathematics', score: 55.5, remarks: '' },
        { name: 'English Language', score: 70, remarks: 'Fine', version: 2 },
      ],
    });
  });

  it('on a scheme with components checks and sends the typed components (the server computes the total)', () => {
    const scheme = { components: SCHEME_PRESETS[0]!.components, precision: 'one_decimal' as const };
    const schema = resultUploadSchema({ ...open, scheme });
    const typed = (CA1: string) => ({ ...base, rows: [{ subject: 'Mathematics', score: '', remarks: '', components: { CA1, Exam: '' } }] });
    expect(errorsOf(schema, typed('25'))).toEqual({ 'rows.0.components.CA1': [ASSESSMENT_MESSAGES.componentRange('CA1', 20)] });
    const parsed = schema.safeParse(typed('abs'));
    expect(parsed.success && parsed.data.subjects).toEqual([{ name: 'Mathematics', components: { CA1: 'ABS' }, remarks: '' }]);
  });
});
