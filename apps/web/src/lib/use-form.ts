import { useCallback, useEffect, useRef, useState } from 'react';

export type FieldErrors = Record<string, string[] | undefined>;

/**
 * Form state shared by the app's forms: editing a field clears its error, and a failed
 * submit (local or server 400) moves the focus to the first invalid field.
 */
export function useForm<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const [focusTick, setFocusTick] = useState(0);

  useEffect(() => {
    if (!focusTick) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.focus();
  }, [focusTick]);

  const set = useCallback((field: keyof T & string, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  }, []);

  /** Shows these errors and focuses the first invalid field. */
  const fail = useCallback((errs: FieldErrors) => {
    setErrors(errs);
    setFocusTick((t) => t + 1);
  }, []);

  /** Props for a field component: value, change handler, error. */
  const field = (name: string) => ({
    name,
    value: values[name as keyof T] ?? '',
    error: errors[name],
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
  });

  return { values, setValues, errors, setErrors, set, fail, field, formRef };
}

/** Non-empty trimmed values only (blank optional fields are left out of the request). */
export function compact(values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v.trim() !== '') out[k] = v.trim();
  return out;
}
