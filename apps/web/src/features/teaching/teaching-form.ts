import { useSchemaForm, type SchemaFormOptions } from '../../lib/schema-form';

type Values = Record<string, string>;

/**
 * The classes and subjects forms on the schema form. A refusal there is one message shown at one
 * place, `at` (a field's error, or an alert under the form): the schema's first message, or a refused
 * save's message in the server's words (`teachingError`). Typing in a text field clears it, and the
 * focus stays where it is, as these forms always did.
 */
export function useTeachingForm<T extends Values>({
  at,
  ...options
}: Omit<SchemaFormOptions<T>, 'fieldOf' | 'keepFocus'> & { at: string }) {
  // Every issue of the schema is shown at the one place.
  const form = useSchemaForm<T>({ ...options, fieldOf: () => at, keepFocus: true });
  return {
    ...form,
    /** The message shown, if any. */
    message: form.errors[at]?.[0],
    /** Types into a text field: its new value, and no message (`fail` with no errors clears them all). */
    type: (name: keyof T & string, value: string) => {
      form.set(name, value);
      form.fail({}, { focus: false });
    },
    /** Shows a refused save's message. */
    refuse: (message: string) => form.fail({ [at]: [message] }, { focus: false }),
  };
}
