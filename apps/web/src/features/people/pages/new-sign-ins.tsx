import { useState } from 'react';
import { PEOPLE_SCREEN_MESSAGES, type ImportedAccount, type NewAccount } from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { LoadingBlock } from '../../../components/ui/spinner';
import { useNewAccounts } from '../api';
import { SignInSlips } from '../components/sign-in-slips';
import { storedPasswords } from '../new-sign-ins-store';

/**
 * /new-sign-ins (staff and admin): the day's new accounts together, so their
 * sign-in slips print at once instead of replacing each other. The list comes from the server; the
 * one-time passwords only from this tab's session (shown once, never stored on the server), so an
 * account registered elsewhere is listed without a slip: reset its password to print one.
 */
export default function NewSignInsPage() {
  const q = useNewAccounts();
  const [passwords] = useState(storedPasswords);

  if (q.isPending) {
    return (
      <PageLayout title="Today's New Sign-ins">
        <LoadingBlock />
      </PageLayout>
    );
  }
  if (q.isError) {
    return (
      <PageLayout title="Today's New Sign-ins">
        <Alert tone="error">{PEOPLE_SCREEN_MESSAGES.newAccountsLoadFailed}</Alert>
      </PageLayout>
    );
  }

  const pending = q.data.accounts.filter((a) => a.must_change_password);
  const slip = (a: NewAccount): ImportedAccount | null =>
    passwords[a.public_id] ? { ...a, one_time_password: passwords[a.public_id]! } : null;
  const slips = (kind: 'student' | 'staff') => pending.filter((a) => a.kind === kind).flatMap((a) => (slip(a) ? [slip(a)!] : []));
  const withoutSlip = pending.filter((a) => !passwords[a.public_id]);
  const students = slips('student');
  const staff = slips('staff');

  return (
    <PageLayout title="Today's New Sign-ins" width="max-w-4xl">
      <div className="flex flex-col gap-4">
        <Alert tone="info" className="no-print">
          <p data-testid="new-sign-ins-summary">
            {PEOPLE_SCREEN_MESSAGES.newAccountsSummary(q.data.accounts.length, q.data.date, students.length + staff.length)}
          </p>
          <p className="mt-1">{PEOPLE_SCREEN_MESSAGES.oneTimePasswordsKeptHere}</p>
        </Alert>
        {students.length > 0 && <SignInSlips accounts={students} kind="student" />}
        {staff.length > 0 && <SignInSlips accounts={staff} kind="staff" />}
        {withoutSlip.length > 0 && (
          <Card title="Registered without a password on this device" className="no-print">
            <p className="mb-2 text-sm text-slate-700">{PEOPLE_SCREEN_MESSAGES.accountsWithoutSlip}</p>
            <ul className="divide-y divide-slate-100 text-sm" data-testid="accounts-without-slip">
              {withoutSlip.map((a) => (
                <li key={`${a.kind}-${a.public_id}`} className="flex flex-wrap justify-between gap-2 py-1.5">
                  <span className="font-medium break-words">
                    {a.first_name} {a.last_name}
                  </span>
                  <span className="font-mono text-slate-600">{a.public_id}</span>
                </li>
              ))}
            </ul>
          </Card>
        )}
        {q.data.accounts.length === 0 && <p className="text-slate-700">{PEOPLE_SCREEN_MESSAGES.noNewAccounts}</p>}
      </div>
    </PageLayout>
  );
}
