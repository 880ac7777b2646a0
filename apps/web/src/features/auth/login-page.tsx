import { useState, type FormEvent } from 'react';
import { welcomeMessage as welcomeFor } from '@portal/domain/datetime';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AUTH_MESSAGES } from '@portal/domain/auth-constants';
import type { Role } from '@portal/domain/constants';
import { PARENT_SCREEN_LABELS } from '@portal/domain/parent-screens';
import { RESULT_PIN_LABELS, RESULT_PIN_SCREENS } from '@portal/domain/result-pin-screens';
import { SiteHeader } from '../../components/layout/site-header';
import { Alert } from '../../components/ui/alert';
import { SubmitButton } from '../../components/ui/button';
import { PasswordField, TextField } from '../../components/ui/field';
import { ApiError, api } from '../../lib/api-client';
import { getSession, HOME_OF_ROLE, saveLogin, type LoginResult } from '../../lib/auth-store';
import { offlineSignedIn } from '../../lib/offline-session';
import { useToast, type ToastApi } from '../../lib/toast';
import { OFFLINE_SAFETY_MESSAGES } from '@portal/domain/offline-safety-screens';
import { useCheckResultOffered } from '../../lib/check-result';
import { safeNext } from '../../lib/safe-next';

const TITLES: Record<Role, string> = {
  admin: 'Admin Login',
  staff: 'Staff Login',
  student: 'Student Login',
  parent: PARENT_SCREEN_LABELS.loginTitle,
};
const HINTS: Record<Role, string> = {
  admin: AUTH_MESSAGES.signInHint,
  staff: AUTH_MESSAGES.signInHint,
  student: AUTH_MESSAGES.studentSignInHint,
  parent: PARENT_SCREEN_LABELS.loginHint,
};
/** "Not a …?" under the form. */
const NOT_ROLE: Record<Role, string> = {
  admin: 'Not an admin?',
  staff: 'Not a staff member?',
  student: 'Not a student?',
  parent: PARENT_SCREEN_LABELS.notParent,
};

interface Envelope {
  status: string;
  data: LoginResult | null;
  message?: string;
  errors?: { non_field_errors?: string[] };
}

/**
 * The offline data at sign-in (issue 35.4): another account's kept copies are cleared (its queue
 * stays, unsent); the same account again (its session had expired) sends what waited, said in a toast.
 */
async function offlineAfterSignIn(toast: ToastApi): Promise<void> {
  const session = getSession();
  if (!session) return;
  const outcome = await offlineSignedIn(session);
  if (!outcome.flush) return;
  toast.info(OFFLINE_SAFETY_MESSAGES.resending(outcome.waiting));
  void outcome.flush.then((r) => {
    if (r.failed.length) toast.error(OFFLINE_SAFETY_MESSAGES.sendFailed(r.failed.length));
  });
}

/** The banner text: first non_field_errors entry, else the message, else the fallback. */
export function loginErrorMessage(body: unknown): string {
  const b = body as Partial<Envelope> | null;
  return b?.errors?.non_field_errors?.[0] ?? (typeof b?.message === 'string' && b.message ? b.message : AUTH_MESSAGES.loginFailedFallback);
}

export function LoginPage({ role }: { role: Role }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toast = useToast();
  // A parent without an account (or a student) can check a result with a scratch card's PIN.
  const pins = useCheckResultOffered() && (role === 'parent' || role === 'student');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setSubmitting(true);
    try {
      const body = await api.post<Envelope>(`/${role}/login/`, { email, password }, { anonymous: true, timeout: 15_000 });
      if (body.status !== 'success' || !body.data) {
        setError(loginErrorMessage(body));
        return;
      }
      const data = body.data;
      saveLogin(role, data);
      await offlineAfterSignIn(toast);
      if (data.must_change_password) {
        navigate('/change-password', { replace: true });
        return;
      }
      const welcomeMessage = welcomeFor(data.first_name || data.name);
      const from = safeNext(params.get('next')) ?? safeNext((location.state as { from?: string } | null)?.from);
      const state =
        role === 'admin'
          ? { userName: data.username, welcomeMessage }
          : role === 'staff'
            ? { welcomeMessage, staffId: data.staff_id }
            : role === 'student'
              ? { welcomeMessage, admissionNumber: data.admission_number }
              : { welcomeMessage };
      navigate(from ?? HOME_OF_ROLE[role], { replace: true, state });
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'http') setError(loginErrorMessage(err.data));
      else setError(AUTH_MESSAGES.loginFailedFallback);
    } finally {
      setSubmitting(false);
    }
  }

  const busyLabel = role === 'admin' ? AUTH_MESSAGES.authenticating : AUTH_MESSAGES.loggingIn;
  return (
    <div className="min-h-dvh">
      <SiteHeader />
      <main className="mx-auto flex max-w-md flex-col px-4 py-10">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="mb-1 text-center">{TITLES[role]}</h1>
          <p className="mb-6 text-center text-sm text-slate-600">{HINTS[role]}</p>
          {params.get('expired') && !error && (
            <Alert tone="info" className="mb-4">
              Your session has ended. Please sign in again.
            </Alert>
          )}
          {error && (
            <Alert tone="error" className="mb-4">
              {error}
            </Alert>
          )}
          <form onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4" noValidate={false}>
            {role === 'parent' ? (
              // The phone number the school has (any spelling: 0803…, +234 803…) or the email, sent as `email`.
              <TextField
                label={PARENT_SCREEN_LABELS.loginField}
                type="text"
                name="email"
                inputMode="text"
                autoComplete="username"
                autoCapitalize="none"
                autoCorrect="off"
                spellCheck={false}
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            ) : role === 'student' ? (
              // The admission number printed on the sign-in slip, or the email: a text field (an email
              // field refuses the number), sent as the spec's `email` (docs/spec-deviations.md).
              <TextField
                label="Email or admission number"
                type="text"
                name="email"
                autoComplete="username"
                autoCapitalize="none"
                autoCorrect="off"
                spellCheck={false}
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            ) : (
              <TextField
                label="Email"
                type="email"
                name="email"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            )}
            <PasswordField
              label="Password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <SubmitButton busy={submitting} busyLabel={busyLabel} className="mt-2 w-full">
              Login
            </SubmitButton>
          </form>
        </div>
        <p className="mt-6 text-center text-sm text-slate-600">
          {NOT_ROLE[role]}{' '}
          <Link to="/login" className="font-medium text-brand-800 underline">
            Choose another sign-in
          </Link>
        </p>
        {pins && (
          <p className="mt-3 text-center text-sm">
            <Link to={RESULT_PIN_SCREENS.check.to} className="font-medium text-brand-800 underline" data-testid="check-result-link">
              {RESULT_PIN_LABELS.linkFromLogin}
            </Link>
          </p>
        )}
      </main>
    </div>
  );
}
