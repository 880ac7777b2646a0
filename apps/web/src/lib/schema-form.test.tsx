// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TextField } from '../components/ui/field';
import { compact, useSchemaForm, type FieldErrors } from './schema-form';

afterEach(cleanup);

const schema = z.object({
  first_name: z.string({ error: 'First name is required' }).min(1, 'First name is required'),
  last_name: z.string({ error: 'Last name is required' }).min(1, 'Last name is required'),
  email: z.email('Enter a valid email address').optional(),
  profile_data: z.object({ tax_id: z.string().regex(/^\d+$/, 'Digits only').max(4, 'Too long') }).optional(),
});
type Values = { first_name: string; last_name: string; email: string; tax_id: string };
const initial: Values = { first_name: 'Ada', last_name: '', email: '', tax_id: '' };
const toBody = (v: Values) => {
  const { tax_id, ...rest } = compact(v);
  return { ...rest, ...(tax_id ? { profile_data: { tax_id } } : {}) };
};

function useTestForm(check?: (v: Values) => FieldErrors) {
  return useSchemaForm({ defaultValues: initial, schema, toBody, fieldOf: (p) => p.split('.').pop()!, check });
}

describe('useSchemaForm: the form hook (values, errors, focus)', () => {
  it('gives each field its value, error and a change handler that updates the value', () => {
    const { result } = renderHook(() => useTestForm());
    expect(result.current.field('first_name')).toMatchObject({ name: 'first_name', value: 'Ada', error: undefined });
    expect(result.current.field('unknown').value).toBe('');
    act(() => result.current.field('last_name').onChange({ target: { value: 'Eze' } }));
    expect(result.current.values).toEqual({ first_name: 'Ada', last_name: 'Eze', email: '', tax_id: '' });
    expect(result.current.field('last_name').value).toBe('Eze');
  });

  it('clears the error of a field when it is edited, and only that one', () => {
    const { result } = renderHook(() => useTestForm());
    act(() => result.current.fail({ last_name: ['Last name is required'], email: ['Enter a valid email address'] }));
    act(() => result.current.set('last_name', 'E'));
    expect(result.current.errors.last_name).toBeUndefined();
    expect(result.current.field('last_name').error).toBeUndefined();
    expect(result.current.field('email').error).toEqual(['Enter a valid email address']);
    act(() => result.current.set('first_name', 'Adaeze'));
    expect(result.current.field('email').error).toEqual(['Enter a valid email address']);
  });

  it('keeps set and fail the same functions across renders (safe in effect dependencies)', () => {
    const { result } = renderHook(() => useTestForm());
    const { set, fail } = result.current;
    act(() => result.current.set('email', 'a@b.c'));
    act(() => result.current.fail({ email: ['x'] }));
    expect(result.current.set).toBe(set);
    expect(result.current.fail).toBe(fail);
  });

  it('replaces all values at once with setValues (a record loaded for editing)', () => {
    const { result } = renderHook(() => useTestForm());
    act(() => result.current.setValues({ first_name: 'Bola', last_name: 'Ade', email: 'bola@school.ng', tax_id: '' }));
    expect(result.current.field('email').value).toBe('bola@school.ng');
  });

  it('keeps a server error without a field of its own (non_field_errors)', () => {
    const { result } = renderHook(() => useTestForm());
    act(() => result.current.fail({ non_field_errors: ['Something went wrong'] }));
    expect(result.current.errors).toEqual({ non_field_errors: ['Something went wrong'] });
  });
});

/** A form on the page: the hook with the app's field components. */
function Form({ onValid, check }: { onValid: (v: Values, body: unknown) => void; check?: (v: Values) => FieldErrors }) {
  const form = useTestForm(check);
  return (
    <form ref={form.formRef} onSubmit={(e) => void form.submit(onValid)(e)} noValidate>
      <TextField label="First name" {...form.field('first_name')} />
      <TextField label="Last name" {...form.field('last_name')} />
      <TextField label="Email" {...form.field('email')} />
      <TextField label="Tax ID" {...form.field('tax_id')} />
      <button type="submit">Save</button>
      <button type="button" onClick={() => form.fail({ email: ['Taken'] })}>
        Server says
      </button>
    </form>
  );
}

/** Clicks a button and lets the form's checks settle (the resolver answers in a promise). */
const click = (name: string) =>
  act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
    await new Promise((r) => setTimeout(r, 0));
  });
const submit = () => click('Save');
const errorsOf = (label: string) => {
  const input = screen.getByLabelText(label);
  const id = input.getAttribute('aria-describedby');
  return id ? [...document.querySelectorAll(`[id="${id}"]`)].map((e) => e.textContent) : [];
};

describe('useSchemaForm: the domain schema through the zod resolver', () => {
  it('checks the body the form would send with the schema and shows its messages by field, nested paths by their field', async () => {
    const sent: Values[] = [];
    render(<Form onValid={(v) => sent.push(v)} />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nope' } });
    fireEvent.change(screen.getByLabelText('Tax ID'), { target: { value: 'abcdef' } });
    await submit();
    expect(sent).toEqual([]);
    expect(errorsOf('Last name')).toEqual(['Last name is required']);
    expect(errorsOf('Email')).toEqual(['Enter a valid email address']);
    // Every message of a field, each once.
    expect(errorsOf('Tax ID')).toEqual(['Digits only', 'Too long']);
    expect(errorsOf('First name')).toEqual([]);
    // The focus goes to the first invalid field on the page.
    expect(document.activeElement).toBe(screen.getByLabelText('Last name'));
  });

  it('calls onValid with the values and the schema output of the body once the schema passes (blank optional fields left out)', async () => {
    const sent: Values[] = [];
    const bodies: unknown[] = [];
    render(
      <Form
        onValid={(v, body) => {
          sent.push(v);
          bodies.push(body);
        }}
      />,
    );
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: ' Eze ' } });
    fireEvent.change(screen.getByLabelText('Tax ID'), { target: { value: '12' } });
    await submit();
    expect(sent).toEqual([{ first_name: 'Ada', last_name: ' Eze ', email: '', tax_id: '12' }]);
    expect(bodies).toEqual([{ first_name: 'Ada', last_name: 'Eze', profile_data: { tax_id: '12' } }]);
  });

  it('adds the checks across fields, whose words win over the schema for the same field', async () => {
    const sent: Values[] = [];
    render(<Form onValid={(v) => sent.push(v)} check={(v) => (v.last_name ? {} : { last_name: ['Type the last name'] })} />);
    await submit();
    expect(sent).toEqual([]);
    expect(errorsOf('Last name')).toEqual(['Type the last name']);
  });

  it('moves the focus to the first invalid field on every failed submit and on a server 400, not before', async () => {
    render(<Form onValid={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Eze' } });
    screen.getByRole('button', { name: 'Save' }).focus();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
    await click('Server says');
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    expect(errorsOf('Email')).toEqual(['Taken']);
    // Editing the field clears its error at once.
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@school.ng' } });
    expect(errorsOf('Email')).toEqual([]);
    // The same errors again (a second failed submit): focused again.
    screen.getByLabelText('First name').focus();
    await click('Server says');
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });
});

describe('compact', () => {
  it('trims values and leaves blank ones out of the request', () => {
    expect(compact({ first_name: '  Ada ', middle_name: '   ', phone: '', email: 'a@b.c' })).toEqual({ first_name: 'Ada', email: 'a@b.c' });
  });
});
