import { describe, expect, it } from 'vitest';
import { ASSESSMENT_MESSAGES, SCHEME_PRESETS } from '@portal/domain/assessment';
import { schemeFormErrors, schemeFormSchema, schemeRowOf, type SchemeFormValues } from './scheme-form';

const preset = (): SchemeFormValues => ({ rows: SCHEME_PRESETS[0]!.components.map(schemeRowOf), precision: 'one_decimal' });

describe('the assessment scheme form', () => {
  it('passes a preset and gives the request its components (trimmed, maxima as numbers) and precision', () => {
    const values = preset();
    values.rows[0] = { name: ' First test ', label: ' CA1 ', max: '20' };
    const parsed = schemeFormSchema.safeParse(values);
    expect(parsed.success && parsed.data).toEqual({
      components: [{ name: 'First test', label: 'CA1', max: 20 }, ...SCHEME_PRESETS[0]!.components.slice(1)],
      precision: 'one_decimal',
    });
    expect(schemeFormErrors(values)).toEqual({});
  });

  it("keys the scheme's problems under components, first, then each row's first message per field", () => {
    const values: SchemeFormValues = {
      rows: [
        { name: '', label: 'CA1', max: '20' },
        { name: 'Test', label: 'ca1', max: '' },
        { name: 'Exam', label: '1x', max: '50.5' },
      ],
      precision: 'whole',
    };
    const errors = schemeFormErrors(values);
    expect(errors).toEqual({
      components: [ASSESSMENT_MESSAGES.labelTaken('ca1'), ASSESSMENT_MESSAGES.sumNot100(70.5)],
      'rows.0.name': [ASSESSMENT_MESSAGES.nameRequired],
      'rows.1.max': [ASSESSMENT_MESSAGES.maxInvalid],
      'rows.2.label': [ASSESSMENT_MESSAGES.labelInvalid],
      'rows.2.max': [ASSESSMENT_MESSAGES.maxInvalid],
    });
    expect(Object.keys(errors)[0]).toBe('components');
  });

  it('refuses an empty scheme and more than six components', () => {
    expect(schemeFormErrors({ rows: [], precision: 'whole' })).toEqual({ components: [ASSESSMENT_MESSAGES.componentsRequired] });
    const seven = Array.from({ length: 7 }, (_, i) => ({ name: `C${i}`, label: `C${i}`, max: i ? '15' : '10' }));
    expect(schemeFormErrors({ rows: seven, precision: 'whole' }).components).toEqual([ASSESSMENT_MESSAGES.tooManyComponents]);
  });
});
