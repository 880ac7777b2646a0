import { useState } from 'react';
import { Link } from 'react-router';
import { formatNigerianPhone, PARENT_MESSAGES, type ParentInvitationBody, type ParentInvitationResult } from '@portal/domain/parents';
import { PARENT_SCREEN_LABELS as L, PARENT_SCREEN_MESSAGES as M, PARENT_SCREENS } from '@portal/domain/parent-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, RequestButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { RowTable } from '../../../components/ui/row-table';
import { ClassSelect } from '../../../components/school/class-select';
import { downloadBlob } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { downloadSlipsPdf, useInvite } from '../api';

/**
 * /parents/invitations (admin): invite an arm's parents or the school's (those not invited yet, or
 * everyone again). Each gets a one-time password: shown here once, with a Print button, or as the
 * A4 slips PDF (the same invitation, answered as a PDF instead).
 */
export default function ParentInvitationsPage() {
  const toast = useToast();
  const invite = useInvite();
  const [arm, setArm] = useState('');
  const [again, setAgain] = useState(false);
  const [failure, setFailure] = useState('');
  const [result, setResult] = useState<ParentInvitationResult | null>(null);
  const body: ParentInvitationBody = { ...(arm ? { arm } : {}), ...(again ? { again: true } : {}) };

  async function run() {
    setFailure('');
    setResult(null);
    try {
      setResult(await invite.mutateAsync(body));
    } catch (err) {
      setFailure(errorMessage(err, { fallback: M.inviteFailed, useDetail: true }));
    }
  }

  async function pdf() {
    setFailure('');
    setResult(null);
    try {
      const blob = await downloadSlipsPdf(body);
      downloadBlob(blob, `parent-slips-${arm ? arm.replace(/\s+/g, '-') : 'school'}.pdf`);
      toast.success(L.slipsPdf);
    } catch (err) {
      setFailure(errorMessage(err, { fallback: M.slipsFailed, useDetail: true }));
    }
  }

  return (
    <PageLayout title={PARENT_SCREENS.invitations.title} width="max-w-5xl">
      <Link to={PARENT_SCREENS.list.to} className="no-print mb-3 inline-block text-sm font-medium text-brand-800 hover:underline">
        ← {PARENT_SCREENS.list.title}
      </Link>
      <Card className="no-print mb-4">
        <p className="mb-3 text-sm text-slate-700">{M.invitationsHint}</p>
        <div className="grid gap-3 sm:grid-cols-2 sm:items-end">
          <ClassSelect label={L.arm} placeholder={L.wholeSchool} value={arm} onChange={(e) => setArm(e.target.value)} />
          <CheckboxField className="min-h-11 items-center" label={L.inviteAgain} checked={again} onChange={setAgain} />
        </div>
        <div className="mt-4 flex flex-wrap gap-2">
          <Button loading={invite.isPending} onClick={() => void run()}>
            {L.invite}
          </Button>
          <RequestButton variant="secondary" run={pdf}>
            {L.slipsPdf}
          </RequestButton>
        </div>
      </Card>
      {failure && (
        <Alert tone="error" className="mb-4">
          <span data-testid="invite-error">{failure}</span>
        </Alert>
      )}
      {result && result.invited === 0 && (
        <Alert tone="info" className="mb-4">
          <span data-testid="invite-none">{PARENT_MESSAGES.noneToInvite}</span>
        </Alert>
      )}
      {result && result.invited > 0 && (
        <Card
          title={PARENT_MESSAGES.invited(result.invited)}
          actions={
            <Button variant="secondary" onClick={() => window.print()}>
              Print slips
            </Button>
          }
        >
          <Alert tone="warning" className="no-print mb-3">
            {M.shownOnce}
          </Alert>
          <RowTable
            testId="invitation-slips"
            rows={result.slips}
            rowKey={(s) => s.phone}
            columns={[
              { label: L.name, cell: (s) => s.name },
              { label: L.phone, cell: (s) => formatNigerianPhone(s.phone) },
              { label: L.password, cell: (s) => <code className="font-mono text-base">{s.password}</code>, testId: 'slip-password' },
              { label: L.children, cell: (s) => s.children.join(', ') },
            ]}
          />
        </Card>
      )}
    </PageLayout>
  );
}
