import { useRef, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/field';
import { useRevealOnOpen } from '../../../components/ui/use-reveal';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';

/**
 * The bursar's "give the reason, then do it" step: reversing a payment, rejecting a reported
 * transfer, revoking a discount. Checks the reason with the domain's schema, focuses it when wrong,
 * shows the server's refusal, and closes with a toast once done.
 */
export function ReasonDialog(props: {
  /** Prefix of the dialog's element ids (unique on the page). */
  idBase: string;
  testId: string;
  title: ReactNode;
  question: ReactNode;
  reasonLabel: string;
  confirmLabel: string;
  cancelLabel: string;
  schema: z.ZodType<{ reason: string }>;
  /** Sends the checked reason; resolves to the toast's text. */
  submit: (reason: string) => Promise<string>;
  pending: boolean;
  failedFallback: string;
  onClose: () => void;
  heading?: 'h2' | 'h3';
  className?: string;
  headingClassName?: string;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string[] | undefined>();
  const [failure, setFailure] = useState('');
  const toast = useToast();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const { idBase } = props;
  // Opens in view with the reason focused (the Reverse tapped far down a phone's ledger).
  useRevealOnOpen(panelRef, reasonRef);

  async function confirm() {
    setFailure('');
    const parsed = props.schema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues.map((i) => i.message));
      reasonRef.current?.focus();
      return;
    }
    try {
      toast.success(await props.submit(parsed.data.reason));
      props.onClose();
    } catch (err) {
      setError(fieldErrorsOf(err).reason);
      setFailure(errorMessage(err, { fallback: props.failedFallback, useDetail: true }));
    }
  }

  const Heading = props.heading ?? 'h3';
  return (
    <section
      ref={panelRef}
      role="dialog"
      aria-labelledby={`${idBase}-title`}
      aria-describedby={`${idBase}-text`}
      className={props.className ?? 'mt-3 rounded-xl border border-amber-500 bg-amber-50 p-4'}
      data-testid={props.testId}
    >
      <Heading id={`${idBase}-title`} className={props.headingClassName ?? 'mb-2 font-semibold'}>
        {props.title}
      </Heading>
      <p id={`${idBase}-text`} className="mb-3 text-sm text-amber-950 [overflow-wrap:anywhere]">
        {props.question}
      </p>
      {failure && (
        <Alert tone="error" className="mb-3">
          {failure}
        </Alert>
      )}
      <TextAreaField
        ref={reasonRef}
        id={`${idBase}-reason`}
        label={props.reasonLabel}
        required
        rows={2}
        value={reason}
        onChange={(e) => {
          setReason(e.target.value);
          setError(undefined);
        }}
        error={error}
      />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="danger" loading={props.pending} onClick={() => void confirm()}>
          {props.confirmLabel}
        </Button>
        <Button variant="secondary" onClick={props.onClose}>
          {props.cancelLabel}
        </Button>
      </div>
    </section>
  );
}
