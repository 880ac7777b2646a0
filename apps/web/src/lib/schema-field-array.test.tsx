// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useFieldArray, useSchemaFieldForm } from './schema-field-array';

const schema = z.object({
  labels: z.array(z.string().trim().min(1, 'A label is required')).length(2, 'Two labels'),
  band: z.object({ min: z.number({ error: 'A number' }).min(0, 'At least 0'), max: z.number({ error: 'A number' }) }),
  rows: z.array(z.object({ name: z.string().min(1, 'A name is required').max(3, 'Too long') })).max(2, 'Two rows at most'),
});
interface Values {
  labels: string[];
  band: { min: string; max: string };
  rows: { name: string }[];
}
const initial: Values = { labels: ['A', 'B'], band: { min: '0', max: '10' }, rows: [{ name: 'x' }] };
const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));
const toBody = (v: Values) => ({ ...v, band: { min: num(v.band.min), max: num(v.band.max) } });

function useTestForm() {
  const form = useSchemaFieldForm<Values>({ defaultValues: initial, schema, toBody });
  const rows = useFieldArray({ control: form.control, name: 'rows' });
  return { form, rows };
}

async function submitted(result: { current: ReturnType<typeof useTestForm> }) {
  const calls: { valid?: unknown; invalid?: unknown } = {};
  await act(() =>
    result.current.form.submit(
      (body) => {
        calls.valid = body;
      },
      (errors) => {
        calls.invalid = errors;
      },
    )(),
  );
  return calls;
}

describe('useSchemaFieldForm: nested values and rows checked by the domain schema', () => {
  it('sends the schema output (numbers, trimmed text) when the values pass', async () => {
    const { result } = renderHook(() => useTestForm());
    act(() => result.current.form.setField('labels.1', ' C '));
    const calls = await submitted(result);
    expect(calls).toEqual({ valid: { labels: ['A', 'C'], band: { min: 0, max: 10 }, rows: [{ name: 'x' }] } });
  });

  it('shows every message beside the nested field it names', async () => {
    const { result } = renderHook(() => useTestForm());
    act(() => {
      result.current.form.setField('band.min', '-1');
      result.current.form.setField('labels.0', ' ');
      result.current.rows.append({ name: 'long name' }, { shouldFocus: false });
    });
    const calls = await submitted(result);
    expect(calls.valid).toBeUndefined();
    // In the schema's order, keyed like the server's 400.
    expect(calls.invalid).toEqual({
      'labels.0': ['A label is required'],
      'band.min': ['At least 0'],
      'rows.1.name': ['Too long'],
    });
    const { errorOf } = result.current.form;
    expect(errorOf('labels.0')).toEqual(['A label is required']);
    expect(errorOf('labels.1')).toBeUndefined();
    expect(errorOf('band.min')).toEqual(['At least 0']);
    expect(errorOf('rows.1.name')).toEqual(['Too long']);
    expect(errorOf('rows.0.name')).toBeUndefined();
    // A list's own error (too many rows) beside its rows.
    act(() => {
      result.current.form.setField('band.min', '0');
      result.current.form.setField('labels.0', 'A');
      result.current.form.setField('rows.1.name', 'ab');
      result.current.rows.append({ name: 'z' }, { shouldFocus: false });
    });
    expect(await submitted(result)).toEqual({ invalid: { rows: ['Two rows at most'] } });
    expect(result.current.form.errorOf('rows')).toEqual(['Two rows at most']);
    expect(result.current.form.errorOf('rows.1.name')).toBeUndefined();
  });

  it('clears the error of a value when it is edited, and only that one; rows moving do not check again', async () => {
    const { result } = renderHook(() => useTestForm());
    act(() => {
      result.current.form.setField('band.min', '');
      result.current.form.setField('band.max', '');
    });
    await submitted(result);
    expect(result.current.form.errorOf('band.max')).toEqual(['A number']);
    act(() => result.current.form.setField('band.min', '1'));
    expect(result.current.form.errorOf('band.min')).toBeUndefined();
    expect(result.current.form.errorOf('band.max')).toEqual(['A number']);
    act(() => result.current.rows.append({ name: '' }, { shouldFocus: false }));
    expect(result.current.form.errorOf('rows.1.name')).toBeUndefined();
  });

  it("shows a server's errors with fail, replacing the others unless told to keep them", () => {
    const { result } = renderHook(() => useTestForm());
    act(() => result.current.form.fail({ 'rows.0.name': ['Taken'], rows: ['Refused'] }));
    expect(result.current.form.errorOf('rows')).toEqual(['Refused']);
    expect(result.current.form.errorOf('rows.0.name')).toEqual(['Taken']);
    act(() => result.current.form.fail({ 'band.max': ['Too high'] }, { keep: true }));
    expect(result.current.form.errorOf('rows.0.name')).toEqual(['Taken']);
    act(() => result.current.form.fail({ 'band.max': ['Too high'] }));
    expect(result.current.form.errorOf('rows.0.name')).toBeUndefined();
    expect(result.current.form.errorOf('band.max')).toEqual(['Too high']);
  });
});
