import { useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { Alert } from '../../../components/ui/alert';
import { SubmitButton } from '../../../components/ui/button';
import { fieldErrorsOf } from '../../../lib/errors';
import type { FieldErrors } from '../../../lib/schema-form';

/**
 * The people forms' frame (registration, edit, update): the save's error banner over the fields,
 * then the submit button with what else the screen offers beside it (Cancel, a list).
 */
export function PersonForm({
  formRef,
  onSubmit,
  banner,
  submit,
  actions,
  children,
}: {
  formRef: Ref<HTMLFormElement>;
  onSubmit: (e: FormEvent) => void;
  banner: string | null;
  /** The submit button; none while there is nothing to submit yet (a record still to load). */
  submit?: { label: string; busyLabel: string; busy: boolean; disabled?: boolean };
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
      {banner && <Alert tone="error">{banner}</Alert>}
      {children}
      {submit && (
        <div className="flex flex-wrap gap-2">
          <SubmitButton busy={submit.busy} busyLabel={submit.busyLabel} disabled={submit.disabled}>
            {submit.label}
          </SubmitButton>
          {actions}
        </div>
      )}
    </form>
  );
}

/** What useSaveFailure needs of a schema form (lib/schema-form's useSchemaForm). */
type SaveForm<T> = {
  fail: (errs: FieldErrors) => void;
  formRef: Ref<HTMLFormElement>;
  submit: (onValid: (values: T, body: unknown) => unknown) => (e: FormEvent) => Promise<void>;
};

/**
 * A people form's banner and how a failed save reads: a 400 that names fields marks them (through
 * the form's `fail`), anything else becomes the banner (`bannerOf`). `failed` returns the field errors.
 */
export function useSaveFailure<T>({ fail, formRef, submit }: SaveForm<T>) {
  const [banner, setBanner] = useState<string | null>(null);
  const failed = (err: unknown, bannerOf: (err: unknown) => string) => {
    const fields = fieldErrorsOf(err, { leaf: true });
    if (Object.keys(fields).length) fail(fields);
    else setBanner(bannerOf(err));
    return fields;
  };
  /**
   * PersonForm's form, banner and submit handler (the schema check, then `onValid`), which first
   * clears the last save's banner.
   */
  const frame = (onValid: (values: T) => unknown) => ({
    formRef,
    banner,
    onSubmit: (e: FormEvent) => {
      setBanner(null);
      void submit(onValid)(e);
    },
  });
  return { banner, setBanner, failed, frame };
}
