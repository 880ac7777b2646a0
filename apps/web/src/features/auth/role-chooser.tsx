import { Link, useLocation } from 'react-router';
import { PARENT_SCREEN_LABELS } from '@portal/domain/parent-screens';
import { RESULT_PIN_LABELS, RESULT_PIN_SCREENS } from '@portal/domain/result-pin-screens';
import { SiteHeader } from '../../components/layout/site-header';
import { useCheckResultOffered } from '../../lib/check-result';
import { safeNext } from '../../lib/safe-next';

const CHOICES = [
  { to: '/StudentLogin', title: 'Student', text: 'Check results, view your profile and pay fees.' },
  { to: '/StaffLogin', title: 'Staff', text: 'Enter and correct scores, manage students.' },
  { to: '/Admin', title: 'Admin', text: 'Run the school: people, sessions, results and fees.' },
  { to: '/ParentLogin', title: 'Parent', text: PARENT_SCREEN_LABELS.loginChoice },
] as const;

/** /login: where the spec's screens sent users on 401. Lets the user pick their sign-in. */
export function RoleChooser() {
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  // An expired session sends users here with the page to come back to: pass it on to the sign-in.
  const next = safeNext(new URLSearchParams(location.search).get('next'));
  const pins = useCheckResultOffered();
  return (
    <div className="min-h-dvh">
      <SiteHeader />
      <main className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="mb-2 text-center">Sign in</h1>
        <p className="mb-8 text-center text-slate-600">Who are you signing in as?</p>
        <ul className="grid gap-4 sm:grid-cols-2">
          {CHOICES.map((c) => (
            <li key={c.to}>
              <Link
                to={next ? `${c.to}?next=${encodeURIComponent(next)}` : c.to}
                state={from ? { from } : undefined}
                className="block h-full rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-brand-700 hover:shadow-md"
              >
                <span className="block text-lg font-semibold text-brand-900">{c.title}</span>
                <span className="mt-1 block text-sm text-slate-600">{c.text}</span>
              </Link>
            </li>
          ))}
        </ul>
        {pins && (
          <p className="mt-8 text-center">
            <Link to={RESULT_PIN_SCREENS.check.to} className="font-medium text-brand-800 underline" data-testid="check-result-link">
              {RESULT_PIN_LABELS.linkFromLogin}
            </Link>
          </p>
        )}
      </main>
    </div>
  );
}
