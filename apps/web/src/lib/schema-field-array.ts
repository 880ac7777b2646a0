import { useCallback, useRef, type FormEvent } from 'react';
import {
  get,
  set,
  useForm,
  type DefaultValues,
  type FieldError,
  type FieldValues,
  type Path,
  type PathValue,
  type Resolver,
} from 'react-hook-form';
import { issueErrors, type ParseIssues } from './form-errors';
import type { FieldErrors } from './schema-form';

/**
 * `useSchemaForm`'s sibling for the forms whose values nest: lists of rows (`useFieldArray` on the
 * `control` it returns), groups, checkboxes (docs/decisions/030). react-hook-form holds the values,
 * the domain's schema checks the body the form would send, and its messages are keyed like the
 * server's 400 (`comment_bank.0.min`, by `issueErrors`), so `errorOf(path)` shows a local failure and
 * a server refusal alike. Editing a value clears that value's error only; the rows' actions do not
 * check again before the next submit; the focus stays where it is (these forms never moved it).
 */

/** A domain schema as far as the hook uses it (structural: the hook bundles no zod of its own). */
interface Checks {
  safeParse(input: unknown): { success: true; data: unknown } | { success: false; error: ParseIssues };
}

export interface SchemaFieldFormOptions<T extends FieldValues> {
  defaultValues: T;
  /** The request body's schema (from the domain). */
  schema: Checks;
  /** The body the form would send, from what is typed (numbers still as text). */
  toBody: (values: T) => unknown;
}

const asError = (messages: string[]): FieldError => ({
  type: 'invalid',
  message: messages[0],
  types: Object.fromEntries(messages.map((m, i) => [String(i), m])),
});

/** `{path: messages}` as react-hook-form's nested errors; a list's own error first, its rows' inside it. */
function nested(flat: FieldErrors): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const depth = (path: string) => path.split('.').length;
  for (const [path, list] of Object.entries(flat).sort(([a], [b]) => depth(a) - depth(b))) if (list?.length) set(out, path, asError(list));
  return out;
}

/** The messages of the error at `path` (`criteriaMode: 'all'` keeps each of them). */
function messagesAt(errors: unknown, path: string): string[] | undefined {
  const e: FieldError | undefined = get(errors, path);
  if (!e?.type) return undefined;
  const list = e.types ? Object.values(e.types).flatMap((m) => (typeof m === 'string' ? [m] : [])) : e.message ? [e.message] : [];
  return list.length ? list : undefined;
}

export function useSchemaFieldForm<T extends FieldValues>({ defaultValues, schema, toBody }: SchemaFieldFormOptions<T>) {
  const options = useRef({ schema, toBody });
  options.current = { schema, toBody };
  /** The schema's output at the last check that passed (the body to send), or the messages of the last that failed. */
  const checked = useRef<{ body: unknown; errors: FieldErrors }>({ body: undefined, errors: {} });
  const resolver = useCallback<Resolver<T>>((values) => {
    const result = options.current.schema.safeParse(options.current.toBody(values));
    if (result.success) {
      checked.current = { body: result.data, errors: {} };
      return { values, errors: {} };
    }
    checked.current = { body: undefined, errors: issueErrors(result.error) };
    return { values: {}, errors: nested(checked.current.errors) as never };
  }, []);
  const hook = useForm<T>({
    defaultValues: defaultValues as DefaultValues<T>,
    resolver,
    criteriaMode: 'all',
    shouldFocusError: false,
    reValidateMode: 'onSubmit',
  });
  const { setValue, clearErrors, setError } = hook;

  /** Sets one value (a field, a whole list of checkboxes) and clears its error. */
  const setField = useCallback(
    <P extends Path<T>>(path: P, value: PathValue<T, P>) => {
      setValue(path, value, { shouldDirty: true });
      clearErrors(path);
    },
    [setValue, clearErrors],
  );

  /** Shows these errors (a server 400's, or one field's own check); `keep` leaves the others shown. */
  const fail = useCallback(
    (errs: FieldErrors, { keep = false }: { keep?: boolean } = {}) => {
      if (!keep) clearErrors();
      for (const [path, list] of Object.entries(errs)) if (list?.length) setError(path as Path<T>, asError(list));
    },
    [clearErrors, setError],
  );

  // Read while rendering, so the form renders again when they change (react-hook-form's subscription).
  const { errors } = hook.formState;
  /** The messages shown beside the control of `path`. */
  const errorOf = (path: string) => messagesAt(errors, path);

  /**
   * The form's submit handler: checks the values with the schema; when they pass, calls `onValid` with
   * the schema's output (the body to send), else shows the messages and calls `onInvalid` with them
   * (in the schema's order).
   */
  const submit = (onValid: (body: unknown) => unknown, onInvalid?: (errors: FieldErrors) => void) => (e?: FormEvent) =>
    hook.handleSubmit(
      () => onValid(checked.current.body),
      () => onInvalid?.(checked.current.errors),
    )(e);

  return { ...hook, values: hook.watch(), setField, fail, errorOf, submit };
}

/** The rows of a list in such a form (on its `control`): react-hook-form's, through the one way in. */
export { useFieldArray } from 'react-hook-form';
