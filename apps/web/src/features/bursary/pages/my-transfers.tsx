import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { PAYMENT_METHOD_LABELS } from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as BL, BURSARY_SCREEN_MESSAGES as BM } from '@portal/domain/bursary-screens';
import { TERMS } from '@portal/domain/constants';
import { DEFAULT_TIME_ZONE } from '@portal/domain/datetime';
import { todayIn } from '@portal/domain/attendance-rules';
import { sanitizeAmountInput } from '@portal/domain/payments';
import { TRANSFER_REPORT_SCREEN_LABELS as L, TRANSFER_REPORT_SCREEN_MESSAGES as M } from '@portal/domain/transfer-report-screens';
import {
  TRANSFER_REPORT_MESSAGES,
  TRANSFER_REPORT_METHODS,
  TRANSFER_REPORT_SCREENS,
  transferReportSchema,
} from '@portal/domain/transfer-reports';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { useSchoolSettings } from '../../../lib/school-settings';
import { useSessions } from '../../../lib/school-calendar';
import { useSchemaForm } from '../../../lib/schema-form';
import { ScanField } from '../components/scan-field';
import { TransferReportCard } from '../components/transfer-report-card';
import { emptyTransferForm, transferBody, transferErrors, TRANSFER_FIELDS, type TransferForm } from '../transfer-model';
import { useMyTransferReports, useReportTransfer } from '../transfers-api';
import { BankField } from '../components/bank-field';
import { SessionSelect } from '../../../components/school/session-select';

/** The fields' ids in the order the focus looks for the first one in error. */
const FOCUS_ORDER = TRANSFER_FIELDS.map((k) => `trf-${k}`);

/** /my-transfers (student): report a bank transfer or teller with a photo of the slip; what became of earlier reports. */
export default function MyTransfersPage() {
  const zone = useSchoolSettings().data?.time_zone ?? DEFAULT_TIME_ZONE;
  const today = todayIn(zone);
  const sessions = useSessions();
  const currentSession = String(sessions.data?.find((s) => s.is_current)?.id ?? '');
  const form = useSchemaForm<TransferForm>({
    defaultValues: emptyTransferForm('', today),
    schema: transferReportSchema,
    toBody: transferBody,
    fieldOf: (path) => path.split('.')[0]!,
    // The date against the school's today, when the schema takes it.
    check: (values) => ({ paid_on: transferErrors(values, today).paid_on }),
    focusOrder: FOCUS_ORDER,
  });
  const { values, errors, getValues, set: setField } = form;
  const [failure, setFailure] = useState('');
  const [sent, setSent] = useState(false);
  // A new key clears the slip field after a report is sent.
  const [formKey, setFormKey] = useState(0);
  const send = useReportTransfer();
  const reports = useMyTransferReports();
  const sentRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (currentSession && !getValues('session_id')) setField('session_id', currentSession);
  }, [currentSession, getValues, setField]);
  useEffect(() => {
    if (sent) sentRef.current?.focus();
  }, [sent]);

  const setValue = (key: keyof TransferForm, value: string) => {
    setField(key, value);
    setSent(false);
  };
  const set = (key: keyof TransferForm) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    setValue(key, key === 'amount' ? sanitizeAmountInput(e.target.value) : e.target.value);

  async function onValid(typed: TransferForm) {
    try {
      await send.mutateAsync(transferBody(typed));
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
            <TextField
              id="trf-amount"
              label={BL.amount}
              required
              inputMode="decimal"
              autoComplete="off"
              value={values.amount}
              onChange={set('amount')}
              hint={BL.amountHint}
              error={errors.amount}
            />
            <SelectField
              id="trf-method"
              label={L.method}
              required
              value={values.method}
              onChange={set('method')}
              placeholder="Select"
              options={TRANSFER_REPORT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
              error={errors.method}
            />
            <BankField id="trf-bank" label={BL.bank} value={values.bank} onChange={set('bank')} error={errors.bank} />
            <TextField
              id="trf-bank_reference"
              label={L.bankReference}
              required
              autoComplete="off"
              hint={L.bankReferenceHint}
              value={values.bank_reference}
              onChange={set('bank_reference')}
              error={errors.bank_reference}
            />
            <TextField
              id="trf-paid_on"
              label={L.paidOn}
              type="date"
              required
              max={today}
              value={values.paid_on}
              onChange={set('paid_on')}
              error={errors.paid_on}
            />
            <SessionSelect
              id="trf-session_id"
              label={BL.session}
              required
              value={values.session_id}
              onChange={set('session_id')}
              error={errors.session_id}
            />
            <SelectField
              id="trf-term"
              label={L.term}
              value={values.term}
              onChange={set('term')}
              options={TERMS}
              placeholder={BL.general}
              error={errors.term}
            />
          </div>
          <TextAreaField id="trf-note" label={L.noteOptional} rows={2} value={values.note} onChange={set('note')} error={errors.note} />
          <ScanField
            id="trf-scan"
            label={L.slip}
            hint={L.slipHint}
            required
            accept="image/*,application/pdf"
            value={values.scan}
            onChange={(scan) => setValue('scan', scan)}
            onProblem={(message) => form.fail({ scan: [message] }, { keep: true, focus: false })}
            error={errors.scan}
          />
          <div>
            <Button type="submit" loading={send.isPending}>
              {L.send}
            </Button>
          </div>
        </form>
      </Card>
      <h2 className="mb-3">{L.myReports}</h2>
      <QueryView query={reports} messages={{ fallback: M.listFailed, useDetail: true }} isEmpty={(d) => d.length === 0} empty={M.noReports}>
        {(list) => (
          <ul className="flex flex-col gap-3" data-testid="my-reports">
            {list.map((r) => (
              <TransferReportCard key={r.id} r={r} />
            ))}
          </ul>
        )}
      </QueryView>
    </PageLayout>
  );
}
