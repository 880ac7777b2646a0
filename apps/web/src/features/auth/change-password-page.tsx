import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { AUTH_MESSAGES, PASSWORD_MIN } from '@portal/domain/auth-constants';
import { PageLayout } from '../../components/layout/app-layout';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PasswordField } from '../../components/ui/field';
import { ApiError, api } from '../../lib/api-client';
import { HOME_OF_ROLE, setMustChangePassword, tokens, useSession } from '../../lib/auth-store';

/** Sets a new password: required after a one-time password, available to every signed-in user. */
export function ChangePasswordPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (!session) return <Navigate to="/login" replace />;
  const role = session.role;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setBanner(null);
    const local: Record<string, string[]> = {};
    if (!oldPassword) local.old_password = [AUTH_MESSAGES.passwordRequired];
    if (newPassword.length < PASSWORD_MIN) local.new_password = [AUTH_MESSAGES.passwordTooShort];
    if (newPassword !== confirm) local.confirm_password = [AUTH_MESSAGES.passwordsDoNotMatch];
    setErrors(local);
    if (Object.keys(local).length) return;
    setSaving(true);
    try {
      const res = await api.post<{ detail: string; access: string; refresh: string }>('/password/change/', {
        old_password: oldPassword,
        new_password: newPassword,
      });
      tokens.set(res.access, res.refresh);
      setMustChangePassword(false);
      navigate(HOME_OF_ROLE[role], { replace: true, state: { welcomeMessage: AUTH_MESSAGES.passwordChanged } });
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setErrors(err.fieldErrors);
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
        <form className="flex flex-col gap-4" onSubmit={(e) => void onSubmit(e)} noValidate>
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            value={oldPassword}
            onChange={(e) => setOld(e.target.value)}
            error={errors.old_password}
            required
          />
          <PasswordField
            label="New password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNew(e.target.value)}
            error={errors.new_password}
            required
            hint={`At least ${PASSWORD_MIN} characters; avoid common passwords.`}
          />
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            error={errors.confirm_password}
            required
          />
          <Button type="submit" loading={saving}>
            {saving ? 'Saving...' : 'Change password'}
          </Button>
        </form>
      </Card>
    </PageLayout>
  );
}
