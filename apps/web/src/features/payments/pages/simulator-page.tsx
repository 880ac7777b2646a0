import { useState } from 'react';
import { useParams } from 'react-router';
import type { SimulatorOutcome } from '@portal/domain/payments';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, DetailRow } from '../../../components/ui/card';
import { LoadingBlock } from '../../../components/ui/spinner';
import { completeSimulatorCheckout, useSimulatorCheckout } from '../api';
import { errorText } from '../components/payment-history';
import { formatNaira } from '../format';

const DONE: Record<string, string> = { success: 'paid', failed: 'declined', abandoned: 'abandoned' };

/**
 * The built-in payment simulator's checkout (used when no Paystack key is configured): the payer
 * chooses what the provider reports. A screen of the app, so only the signed-in payer (or an admin)
 * reaches it; the server checks the same.
 */
export default function SimulatorPage() {
  const { code = '' } = useParams();
  const { data, isPending, isError, error } = useSimulatorCheckout(code);
  const [busy, setBusy] = useState<SimulatorOutcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function choose(outcome: SimulatorOutcome) {
    setBusy(outcome);
    setFailure(null);
    try {
      const res = await completeSimulatorCheckout(code, outcome);
      window.location.assign(res.return_url);
    } catch (err) {
      setFailure(errorText(err));
      setBusy(null);
    }
  }

  return (
    <PageLayout title="Payment simulator" width="max-w-md" back={false}>
      {isPending ? (
        <LoadingBlock />
      ) : isError ? (
        <Alert tone="error">{errorText(error)}</Alert>
      ) : (
        <Card>
          <p className="text-sm text-slate-600">Secure checkout</p>
          <p className="my-4 text-3xl font-bold text-brand-900" data-testid="simulator-amount">
            {formatNaira(data.amount)}
          </p>
          <dl>
            <DetailRow label="Merchant" value={data.merchant} />
            <DetailRow label="Email" value={data.email} />
            <DetailRow label="Reference" value={data.reference} />
          </dl>
          {failure && (
            <Alert tone="error" className="mt-4">
              {failure}
            </Alert>
          )}
          {data.status === 'pending' ? (
            <>
              <Alert tone="warning" className="mt-4">
                Test mode: no card is charged. Choose what the payment provider should report.
              </Alert>
              <div className="mt-4 flex flex-col gap-2">
                <Button onClick={() => void choose('pay')} loading={busy === 'pay'} disabled={busy !== null}>
                  Pay {formatNaira(data.amount)}
                </Button>
                <Button variant="danger" onClick={() => void choose('decline')} loading={busy === 'decline'} disabled={busy !== null}>
                  Decline
                </Button>
                <Button variant="secondary" onClick={() => void choose('abandon')} loading={busy === 'abandon'} disabled={busy !== null}>
                  Abandon
                </Button>
              </div>
            </>
          ) : (
            <div className="mt-4 flex flex-col gap-2">
              <p>This payment was already {DONE[data.status] ?? data.status}.</p>
              <a className="font-semibold text-brand-800 underline" href={data.return_url}>
                Return to the school portal
              </a>
            </div>
          )}
        </Card>
      )}
    </PageLayout>
  );
}
