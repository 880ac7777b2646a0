import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useForm as useHookForm, type FieldError, type FieldErrors as HookFieldErrors, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';

/**
 * The app's forms (docs/decisions/030): react-hook-form holds the values and errors, the domain's zod
 * schema (the server's own rule) checks what the form would send through the zod resolver. The fields
 * stay the app's controlled field components (`field(name)` gives value, change handler and
 * messages), so a select keeps a value its options load after; editing a field clears its error
 * (and only its own); a failed submit, local or a server 400, moves the focus to the first invalid
 * field on the page.
 */

export type FieldErrors = Record<string, string[] | undefined>;
type Values = Record<string, string>;
type Schema = Parameters<typeof zodResolver>[0];

export interface SchemaFormOptions<T extends Values> {
  defaultValues: T;
  /** The request body's schema (from the domain). */
  schema: Schema;
  /** The body the form would send, from its strings (default: `compact`). */
  toBody?: (values: T) => unknown;
  /** The form field an issue's path names (default: the path itself, nested parts joined with dots). */
  fieldOf?: (path: string) => string;
  /** Checks across fields the schema does not hold (a password and its confirmation). */
  check?: (values: T) => FieldErrors;
}

/** Every message of a field's error, once each, in the schema's order (`criteriaMode: 'all'`). */
function messagesOf(e: FieldError | undefined): string[] | undefined {
  if (!e) return undefined;
  const all = e.types ? Object.values(e.types).flatMap((m) => (Array.isArray(m) ? m : typeof m === 'string' ? [m] : [])) : [];
  const list = [...new Set(all.length ? all : e.message ? [e.message] : [])];
  return list.length ? list : undefined;
}

const isFieldError = (x: unknown): x is FieldError => typeof x === 'object' && x !== null && 'type' in x;

/** The resolver's nested errors as `{path: messages}`. */
function flatten(errors: HookFieldErrors, prefix = '', out: Record<string, string[]> = {}): Record<string, string[]> {
  for (const [k, v] of Object.entries(errors)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isFieldError(v)) out[path] = messagesOf(v) ?? [];
    else if (v && typeof v === 'object') flatten(v as HookFieldErrors, path, out);
  }
  return out;
}

const asError = (messages: string[]): FieldError => ({
  type: 'invalid',
  message: messages[0],
  types: Object.fromEntries(messages.map((m, i) => [String(i), m])),
});

export function useSchemaForm<T extends Values>({ defaultValues, schema, toBody = compact, fieldOf, check }: SchemaFormOptions<T>) {
  const options = useRef({ schema, toBody, fieldOf, check });
  options.current = { schema, toBody, fieldOf, check };
  /** What the schema made of the body at the last check that passed (its output: trimmed, coerced). */
  const parsed = useRef<unknown>(undefined);
  const resolver = useCallback<Resolver<T>>(async (values, context, opts) => {
    const o = options.current;
    const checked = await zodResolver(o.schema, undefined, { mode: 'sync' })(o.toBody(values) as Values, context, {
      ...opts,
      criteriaMode: 'all',
      shouldUseNativeValidation: false,
      fields: {},
      names: [],
    } as never);
    const errors: Record<string, string[]> = {};
    for (const [path, list] of Object.entries(flatten(checked.errors as HookFieldErrors))) {
      const name = (o.fieldOf ?? ((p: string) => p))(path);
      errors[name] = [...new Set([...(errors[name] ?? []), ...list])];
    }
    for (const [name, list] of Object.entries(o.check?.(values) ?? {})) if (list?.length) errors[name] = list;
    if (!Object.keys(errors).length) {
      parsed.current = checked.values;
      return { values, errors: {} };
    }
    return { values: {}, errors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, asError(v)])) as HookFieldErrors<T> };
  }, []);
  const hook = useHookForm<T>({ defaultValues: defaultValues as never, resolver, criteriaMode: 'all', shouldFocusError: false });
  const { setValue, clearErrors, setError, reset, getValues } = hook;
  const values = hook.watch();
  const formRef = useRef<HTMLFormElement>(null);
  const [focusTick, setFocusTick] = useState(0);

  useEffect(() => {
    if (!focusTick) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusTick]);

  const set = useCallback(
    (name: keyof T & string, value: string) => {
      setValue(name as never, value as never, { shouldDirty: true });
      clearErrors(name as never);
    },
    [setValue, clearErrors],
  );

  /**
   * Shows these errors (a server 400's) and focuses the first invalid field; `keep` leaves the other
   * fields' errors, `focus: false` leaves the focus where it is (a check made while the user edits).
   */
  const fail = useCallback(
    (errs: FieldErrors, { keep = false, focus = true }: { keep?: boolean; focus?: boolean } = {}) => {
      if (!keep) clearErrors();
      for (const [name, list] of Object.entries(errs)) if (list?.length) setError(name as never, asError(list));
      if (focus) setFocusTick((t) => t + 1);
    },
    [clearErrors, setError],
  );

  /** Replaces every value (a record loaded for editing). */
  const setValues = useCallback((next: T) => reset(next), [reset]);

  const errors: FieldErrors = {};
  for (const [name, e] of Object.entries(hook.formState.errors)) errors[name] = messagesOf(e as FieldError);

  /** Props for a field component: value, change handler, error. */
  const field = (name: string) => ({
    name,
    value: values[name] ?? '',
    error: errors[name],
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
  });

  /**
   * The form's submit handler: checks the values with the schema; when they pass, calls `onValid` with
   * them and the schema's output for the body, else shows the messages and focuses the first invalid field.
   */
  const submit = (onValid: (values: T, body: unknown) => unknown) => async (e?: FormEvent) => {
    e?.preventDefault();
    let failed = false;
    await hook.handleSubmit(
      async () => {
        await onValid(getValues(), parsed.current);
      },
      () => {
        failed = true;
      },
    )();
    // After the hook has published its errors, so the render that focuses already shows them.
    if (failed) setFocusTick((t) => t + 1);
  };

  return { values, setValues, errors, set, fail, field, formRef, submit, isSubmitting: hook.formState.isSubmitting };
}

/** Non-empty trimmed values only (blank optional fields are left out of the request). */
export function compact(values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v.trim() !== '') out[k] = v.trim();
  return out;
}
