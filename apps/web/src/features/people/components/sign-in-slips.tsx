import { AUTH_MESSAGES } from '@portal/domain/auth-constants';
import { PEOPLE_MESSAGES, SIGN_IN_PATH, type ImportedAccount } from '@portal/domain/people-constants';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type SlipKind = 'student' | 'staff';

/** The address a new account signs in at, printed on each slip. */
export function signInAddress(kind: SlipKind): string {
  return `${window.location.origin}${SIGN_IN_PATH[kind]}`;
}

/**
 * Printable sign-in slips (one per account: name, class, id, email, one-time password, where to
 * sign in). Printed from the browser; the passwords exist only in this page's memory.
 */
export function SignInSlips({ accounts, kind }: { accounts: ImportedAccount[]; kind: SlipKind }) {
  // The school's name for the slips (same public call and cache key as the rest of the app).
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.get<{ school_name: string }>('/settings/', { anonymous: true, timeout: 10_000 }),
    staleTime: 5 * 60_000,
  });
  const school = settings.data?.school_name ?? 'School portal';
  const address = signInAddress(kind);
  return (
    <section aria-label="Sign-in slips">
      <div className="no-print mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2>Sign-in slips ({accounts.length.toLocaleString('en-NG')})</h2>
        <Button onClick={() => window.print()}>Print sign-in slips</Button>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 print:grid-cols-2 print:gap-2" data-testid="sign-in-slips">
        {accounts.map((a) => (
          <li
            key={a.public_id}
            className="break-inside-avoid rounded-lg border border-dashed border-slate-400 bg-white p-3 text-sm"
            data-testid="sign-in-slip"
          >
            <p className="font-semibold text-brand-900">{school}</p>
            <dl className="mt-1 grid grid-cols-[7.5rem_1fr] gap-x-2 gap-y-0.5">
              <dt className="text-slate-600">Name</dt>
              <dd className="font-medium">
                {a.first_name} {a.last_name}
              </dd>
              <dt className="text-slate-600">{kind === 'student' ? 'Class' : 'Designation'}</dt>
              <dd>{a.group}</dd>
              <dt className="text-slate-600">{kind === 'student' ? 'Admission number' : 'Staff ID'}</dt>
              <dd className="font-mono">{a.public_id}</dd>
              {/* A pupil registered without an email signs in with the admission number alone. */}
              {a.email && (
                <>
                  <dt className="text-slate-600">Email</dt>
                  <dd className="break-all">{a.email}</dd>
                </>
              )}
              <dt className="text-slate-600">One-time password</dt>
              <dd className="font-mono text-base font-semibold tracking-wide" data-testid="slip-password">
                {a.one_time_password}
              </dd>
              <dt className="text-slate-600">Sign in at</dt>
              <dd className="break-all">{address}</dd>
            </dl>
            {kind === 'student' && (
              <p className="mt-1 text-xs font-medium text-slate-800">
                {a.email ? AUTH_MESSAGES.slipStudentSignIn : AUTH_MESSAGES.slipStudentSignInNoEmail}
              </p>
            )}
            <p className="mt-1 text-xs text-slate-600">You will be asked to choose your own password at first sign-in.</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The one-time password of a single new (or reset) account, with a printable slip. */
export function OneTimePasswordNotice({ account, kind }: { account: ImportedAccount; kind: SlipKind }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert tone="warning" title="One-time password" className="no-print">
        <p>{PEOPLE_MESSAGES.oneTimePasswordNote}</p>
        <p className="mt-2">
          <span className="sr-only">One-time password: </span>
          <code className="rounded bg-white px-2 py-1 font-mono text-lg font-semibold" data-testid="one-time-password">
            {account.one_time_password}
          </code>
        </p>
      </Alert>
      <SignInSlips accounts={[account]} kind={kind} />
    </div>
  );
}
