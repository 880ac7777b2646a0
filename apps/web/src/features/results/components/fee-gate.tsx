import { useState, type FormEvent } from 'react';
import { FEE_GATE_MESSAGES, type FeesOutstandingBody } from '@portal/domain/card-fee-gate';
import { formatNaira } from '@portal/domain/money';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink, SubmitButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { FigureList } from '../../../components/ui/figure-list';
import { ApiError } from '../../../lib/api-client';
import { rememberCardToOpen } from '../../../lib/card-after-payment';
import { useToast } from '../../../lib/toast';
import { useReleaseCardFees } from '../api';

/**
 * A card the fee gate withholds (decision 042), as its student or parent sees it: what is owed for
 * the term, what opens the card, and the way to the payment form. The card's address is remembered,
 * so that the payment form offers the way back once the payment is verified; the card opens then.
 */
export function GatedCardNotice({ gate, payHref, cardHref }: { gate: FeesOutstandingBody; payHref: string; cardHref: string }) {
  return (
    <Alert tone="warning" title={FEE_GATE_MESSAGES.gatedTitle}>
      <span data-testid="fee-gate-detail">{gate.detail}</span>
      <FigureList
        className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-3"
        testId="fee-gate-figures"
        figures={[
          { label: 'Still owed', value: formatNaira(gate.owed), testId: 'fee-gate-owed' },
          { label: 'Needed to open the card', value: formatNaira(gate.required) },
          { label: 'Paid towards the term', value: formatNaira(gate.paid) },
        ]}
      />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <ButtonLink to={payHref} onClick={() => rememberCardToOpen(cardHref)}>
          {FEE_GATE_MESSAGES.payToOpen}
        </ButtonLink>
        <span className="text-slate-700">{FEE_GATE_MESSAGES.afterPay}</span>
      </div>
    </Alert>
  );
}

/**
 * The admin's or the bursar's "open this card regardless of fees", with a reason (audited on the
 * server), on a student's card when the school gates cards by fees.
 */
export function OpenCardPanel({ admission, sessionId, term }: { admission: string; sessionId: string; term: string }) {
  const release = useReleaseCardFees();
  const toast = useToast();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!reason.trim()) {
      setError(FEE_GATE_MESSAGES.reasonRequired);
      return;
    }
    setError(undefined);
    try {
      await release.mutateAsync({ admission_number: admission, session_id: Number(sessionId), term: term as '1st', reason: reason.trim() });
      setDone(true);
      toast.success(FEE_GATE_MESSAGES.released);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        setDone(true);
        return;
      }
      const fields = err instanceof ApiError ? err.fieldErrors : {};
      setError(
        fields.reason?.[0] ?? (err instanceof ApiError ? (err.detail ?? err.nonFieldError) : undefined) ?? FEE_GATE_MESSAGES.reasonRequired,
      );
    }
  }

  return (
    <Card className="no-print mb-5" title={FEE_GATE_MESSAGES.releaseTitle}>
      {done ? (
        <p className="text-sm text-slate-700" data-testid="card-opened">
          {FEE_GATE_MESSAGES.alreadyReleased}
        </p>
      ) : (
        <form className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end" onSubmit={(e) => void onSubmit(e)} noValidate>
          <TextField
            label="Reason"
            name="reason"
            required
            maxLength={300}
            value={reason}
            error={error}
            onChange={(e) => setReason(e.target.value)}
          />
          <SubmitButton busy={release.isPending} busyLabel="Opening...">
            Open this card
          </SubmitButton>
        </form>
      )}
    </Card>
  );
}
