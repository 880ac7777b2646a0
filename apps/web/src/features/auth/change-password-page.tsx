import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { AUTH_MESSAGES, PASSWORD_MIN } from '@portal/domain/auth-constants';
import { passwordChangeFormSchema } from '@portal/domain/password-change-form';
import { PageLayout } from '../../components/layout/app-layout';
import { Alert } from '../../components/ui/alert';
import { SubmitButton } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PasswordField } from '../../components/ui/field';
import { ApiError, api } from '../../lib/api-client';
import { HOME_OF_ROLE, setMustChangePassword, tokens, useSession } from '../../lib/auth-store';
import { useSchemaForm, type FieldErrors } from '../../lib/schema-form';

const EMPTY = { old_password: '', new_password: '', confirm_password: '' };

/** The body as typed (passwords are never trimmed); the confirmation is the form's own. */
const changeBody = ({ old_password, new_password }: typeof EMPTY) => ({ old_password, new_password });

const confirmationMatches = (v: typeof EMPTY): FieldErrors =>
  v.new_password === v.confirm_password ? {} : { confirm_password: [AUTH_MESSAGES.passwordsDoNotMatch] };

/** The three password fields: label, browser autofill hint, hint under the field. */
const FIELDS = [
  { name: 'old_password', label: 'Current password', autoComplete: 'current-password' },
  {
    name: 'new_password',
    label: 'New password',
    autoComplete: 'new-password',
    hint: `At least ${PASSWORD_MIN} characters; avoid common passwords.`,
  },
  { name: 'confirm_password', label: 'Confirm new password', autoComplete: 'new-password' },
] as const;

/**
 * Sets a new password: required after a one-time password, available to every signed-in user.
 * The form checks what it can without the common-passwords list (docs/decisions/034); the server's
 * 400 shows the rest under its field. The focus stays where it is on a failed check, as it always has.
 */
export function ChangePasswordPage() {
  const session = useSession();
  const navigate = useNavigate();
  const form = useSchemaForm({
    defaultValues: EMPTY,
    schema: passwordChangeFormSchema,
    toBody: changeBody,
    check: confirmationMatches,
    keepFocus: true,
  });
  const [banner, setBanner] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (!session) return <Navigate to="/login" replace />;
  const role = session.role;

  async function save(values: typeof EMPTY) {
    setSaving(true);
    try {
      const res = await api.post<{ detail: string; access: string; refresh: string }>('/password/change/', changeBody(values));
      tokens.set(res.access, res.refresh);
      setMustChangePassword(false);
      navigate(HOME_OF_ROLE[role], { replace: true, state: { welcomeMessage: AUTH_MESSAGES.passwordChanged } });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) form.fail(err.fieldErrors, { focus: false });
      else
        setBanner(
          err instanceof ApiError
            ? (err.detail ?? 'Could not change the password. Please try again.')
            : 'Network error. Please check your connection.',
        );
    } finally {
      setSaving(false);
    }
  }

  return (
    <PageLayout title="Change password" back={!session.mustChangePassword} width="max-w-lg">
      <Card>
        {session.mustChangePassword && (
          <Alert tone="warning" className="mb-4">
            {AUTH_MESSAGES.passwordChangeRequired} Choose a password only you know: at least {PASSWORD_MIN} characters.
          </Alert>
        )}
        {banner && (
          <Alert tone="error" className="mb-4">
            {banner}
          </Alert>
        )}
        <form
          ref={form.formRef}
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            setBanner(null);
            void form.submit(save)(e);
          }}
          noValidate
        >
          {FIELDS.map(({ name, ...props }) => (
            <PasswordField key={name} {...props} {...form.field(name)} required />
          ))}
          <SubmitButton busy={saving} busyLabel="Saving...">
            Change password
          </SubmitButton>
        </form>
      </Card>
    </PageLayout>
  );
}
