import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { BURSARY_SCREEN_MESSAGES as BM } from '@portal/domain/bursary-screens';
import { TRANSFER_REPORT_SCREEN_LABELS as L, TRANSFER_REPORT_SCREEN_MESSAGES as M } from '@portal/domain/transfer-report-screens';
import {
  TRANSFER_REPORT_MESSAGES,
  TRANSFER_REPORT_METHODS,
  TRANSFER_REPORT_SCREENS,
  transferReportSchema,
} from '@portal/domain/transfer-reports';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { Card } from '../../../components/ui/card';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { childQuery, useChild } from '../../../lib/parent-child';
import { slipFields } from '../components/slip-fields';
import { slipInput, useSlipForm, useSlipStart } from '../slip-form';
import { TransferReportCard } from '../components/transfer-report-card';
import { CardList } from '../components/card-list';
import { emptyTransferForm, transferBody, transferErrors, TRANSFER_FIELDS, type TransferForm } from '../transfer-model';
import { useMyTransferReports, useReportTransfer } from '../transfers-api';

/** The fields' ids in the order the focus looks for the first one in error. */
const FOCUS_ORDER = TRANSFER_FIELDS.map((k) => `trf-${k}`);

/**
 * /my-transfers (student): report a bank transfer or teller with a photo of the slip; what became of
 * earlier reports. A parent reports for a child (`?child=`): the form starts afresh for each child.
 */
export default function MyTransfersPage() {
  const { child } = useChild();
  return <TransfersOf key={child ?? ''} />;
}

function TransfersOf() {
  const { isParent, child } = useChild();
  const { today, currentSession } = useSlipStart();
  const form = useSlipForm<TransferForm>({
    currentSession,
    defaultValues: emptyTransferForm('', today),
    schema: transferReportSchema,
    toBody: transferBody,
    // The date against the school's today, when the schema takes it.
    check: (values) => ({ paid_on: transferErrors(values, today).paid_on }),
    focusOrder: FOCUS_ORDER,
  });
  const { values, errors, set: setField } = form;
  const [failure, setFailure] = useState('');
  const [sent, setSent] = useState(false);
  // A new key clears the slip field after a report is sent.
  const [formKey, setFormKey] = useState(0);
  const send = useReportTransfer();
  const reports = useMyTransferReports(child, !isParent || !!child);
  const sentRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (sent) sentRef.current?.focus();
  }, [sent]);

  const setValue = (key: keyof TransferForm, value: string) => {
    setField(key, value);
    setSent(false);
  };
  const set = (key: keyof TransferForm) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    setValue(key, slipInput(key, e.target.value));

  async function onValid(typed: TransferForm) {
    try {
      await send.mutateAsync({ ...transferBody(typed), ...childQuery(child) });
      form.setValues(emptyTransferForm(typed.session_id || currentSession, today));
      setFormKey((k) => k + 1);
      setSent(true);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) form.fail(err.fieldErrors);
      setFailure(errorMessage(err, { fallback: M.sendFailed, useDetail: true }));
    }
  }

  function onSubmit() {
    setFailure('');
    setSent(false);
    return form.submit(onValid, () => setFailure(BM.correctErrors));
  }

  const slip = slipFields({
    prefix: 'trf',
    values,
    errors,
    set,
    setScan: (scan) => setValue('scan', scan),
    scanProblem: (message) => form.fail({ scan: [message] }, { keep: true, focus: false }),
    methods: TRANSFER_REPORT_METHODS,
    methodPlaceholder: 'Select',
    labels: { method: L.method, bankReferenceHint: L.bankReferenceHint, term: L.term, note: L.noteOptional },
    dates: { max: today },
    scan: { label: L.slip, hint: L.slipHint, accept: 'image/*,application/pdf', required: true },
  });

  return (
    <PageLayout title={TRANSFER_REPORT_SCREENS.mine.title}>
      <Card title={L.newReport} className="mb-6">
        {sent && (
          <div ref={sentRef} tabIndex={-1} className="mb-4 outline-none">
            <Alert tone="success">
              <span data-testid="report-sent">{TRANSFER_REPORT_MESSAGES.reported}</span>
            </Alert>
          </div>
        )}
        <form
          key={formKey}
          ref={form.formRef}
          onSubmit={(e) => void onSubmit()(e)}
          noValidate
          className="flex flex-col gap-4"
          aria-label={TRANSFER_REPORT_SCREENS.mine.title}
        >
          {failure && (
            <Alert tone="error">
              <span data-testid="report-error">{failure}</span>
            </Alert>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            {slip.amount}
            {slip.method}
            {slip.bank}
            {slip.bank_reference}
            {slip.paid_on}
            {slip.session_id}
            {slip.term}
          </div>
          {slip.note}
          {slip.scan}
          <div>
            <SaveCancel label={L.send} busy={send.isPending} />
          </div>
        </form>
      </Card>
      <h2 className="mb-3">{L.myReports}</h2>
      <CardList query={reports} fallback={M.listFailed} empty={M.noReports} testId="my-reports">
        {(r) => <TransferReportCard key={r.id} r={r} />}
      </CardList>
    </PageLayout>
  );
}
