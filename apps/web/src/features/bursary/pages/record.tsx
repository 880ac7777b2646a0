import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Link } from 'react-router';
import {
  BURSARY_MESSAGES,
  BURSARY_SCREENS,
  OFFLINE_METHODS,
  PAYMENT_METHOD_LABELS,
  offlinePaymentSchema,
  type LedgerEntry,
} from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M } from '@portal/domain/bursary-screens';
import { ARREARS_MESSAGES, PAYMENT_ALLOCATIONS, PAYMENT_ALLOCATION_LABELS } from '@portal/domain/arrears';
import { TIMINGS } from '@portal/domain/constants';
import { formatNaira } from '@portal/domain/money';
import { DUPLICATE_CASH_CODE, DUPLICATE_CASH_MESSAGES, paymentDateWindow } from '@portal/domain/money-guards';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { Card } from '../../../components/ui/card';
import { FigureList } from '../../../components/ui/figure-list';
import { SelectField, TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/errors';
import { useDebounced } from '../../../lib/use-debounced';
import { useFirstTermStart, useRecordPayment, useStatement } from '../api';
import { slipFields } from '../components/slip-fields';
import { slipInput, useSlipForm, useSlipStart } from '../slip-form';
import { clashingReceipt, emptyRecordForm, needsBank, recordBody, recordErrors, RECORD_FIELDS, type RecordForm } from '../record-model';

/** The fields' ids in the order the focus looks for the first one in error. */
const FOCUS_ORDER = RECORD_FIELDS.map((k) => `rec-${k}`);

const receiptPath = (reference: string) => `/payments/receipt/${encodeURIComponent(reference)}`;

/** The student behind the admission number typed: name, class and what they owe in the session. */
function StudentPanel({ admissionNumber, sessionId }: { admissionNumber: string; sessionId: string }) {
  const adm = useDebounced(admissionNumber.trim().toUpperCase(), TIMINGS.paymentLookupDebounce);
  const q = /^[A-Z]+-\d+/.test(adm) && sessionId ? { admission_number: adm, session_id: Number(sessionId) } : null;
  const statement = useStatement(q);
  if (!q) return null;
  if (statement.isPending) return <p className="text-sm text-slate-600">…</p>;
  if (statement.isError)
    return (
      <p className="text-sm text-red-700" data-testid="student-lookup">
        {errorMessage(statement.error, { fallback: M.lookupFailed, notFound: M.studentNotFound })}
      </p>
    );
  const s = statement.data;
  return (
    <FigureList
      className="grid grid-cols-[repeat(auto-fit,minmax(8rem,1fr))] gap-2 rounded-lg bg-slate-50 p-3 text-sm"
      testId="student-lookup"
      figures={[
        { label: L.student, value: s.full_name },
        { label: L.class, value: s.student_class },
        { label: L.outstanding, value: formatNaira(s.balance), testId: 'student-balance' },
        s.brought_forward !== 0 && {
          label: s.brought_forward > 0 ? ARREARS_MESSAGES.broughtForwardLabel : ARREARS_MESSAGES.creditLabel,
          value: formatNaira(Math.abs(s.brought_forward)),
          testId: 'student-brought-forward',
        },
      ]}
    />
  );
}

/** /bursary/record (bursar, admin): a bank, teller, cash or POS payment, phone first. */
export default function RecordPaymentPage() {
  const { today, currentSession } = useSlipStart();
  // The days the server accepts: from a year before the current session's first term to today.
  const dates = paymentDateWindow(today, useFirstTermStart(currentSession ? Number(currentSession) : null));
  const form = useSlipForm<RecordForm>({
    currentSession,
    defaultValues: emptyRecordForm('', today),
    schema: offlinePaymentSchema,
    toBody: recordBody,
    // The date against the window the server allows, when the schema takes it.
    check: (values) => ({ paid_on: recordErrors(values, dates).paid_on }),
    focusOrder: FOCUS_ORDER,
  });
  const { values, errors, set: setField } = form;
  const [failure, setFailure] = useState<{ text: string; clash: string | null; clashReference: string | null } | null>(null);
  const [recorded, setRecorded] = useState<LedgerEntry | null>(null);
  // "A second cash payment of this amount today?": the server's question, until answered or the form changes.
  const [secondCash, setSecondCash] = useState<string | null>(null);
  const record = useRecordPayment();
  const successRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (recorded) successRef.current?.focus();
  }, [recorded]);

  const setValue = (key: keyof RecordForm, value: string) => {
    setSecondCash(null);
    setField(key, value);
  };
  const set = (key: keyof RecordForm) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    setValue(key, key === 'admission_number' ? e.target.value.toUpperCase() : slipInput(key, e.target.value));

  async function send(typed: RecordForm, confirm: boolean) {
    try {
      setRecorded(await record.mutateAsync(confirm ? { ...recordBody(typed), confirm: true } : recordBody(typed)));
    } catch (err) {
      if (err instanceof ApiError && err.status === 409 && (err.data as { code?: unknown } | null)?.code === DUPLICATE_CASH_CODE) {
        setSecondCash(err.detail ?? '');
        return;
      }
      if (err instanceof ApiError && err.status === 400) form.fail(err.fieldErrors);
      const clashReference = err instanceof ApiError ? ((err.data as { reference?: unknown } | null)?.reference ?? null) : null;
      setFailure({
        text: errorMessage(err, { fallback: M.recordFailed, useDetail: true }),
        clash: err instanceof ApiError && err.status === 409 ? clashingReceipt(err.detail) : null,
        clashReference: typeof clashReference === 'string' ? clashReference : null,
      });
    }
  }

  function onSubmit(confirm = false) {
    setFailure(null);
    // The question stays while its confirmation is retried (a lost answer): the retry reuses its key.
    if (!confirm) setSecondCash(null);
    return form.submit(
      (typed) => send(typed, confirm),
      () => setFailure({ text: M.correctErrors, clash: null, clashReference: null }),
    );
  }

  function recordAnother() {
    setRecorded(null);
    setFailure(null);
    form.setValues(emptyRecordForm(values.session_id || currentSession, today));
    setTimeout(() => document.getElementById('rec-admission_number')?.focus(), 0);
  }

  if (recorded)
    return (
      <PageLayout title={BURSARY_SCREENS.record.title}>
        <div ref={successRef} tabIndex={-1} className="outline-none">
          <Alert tone="success">
            <span data-testid="record-message">{BURSARY_MESSAGES.recorded(recorded.receipt_number)}</span>
            <span className="mt-1 block">
              {recorded.full_name} · {formatNaira(recorded.amount)} · {PAYMENT_METHOD_LABELS[recorded.method]}
            </span>
          </Alert>
          <div className="mt-4 flex flex-wrap gap-3">
            <Link className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline" to={receiptPath(recorded.reference)}>
              {L.viewReceipt}
            </Link>
            <Button onClick={recordAnother}>{L.recordAnother}</Button>
          </div>
        </div>
      </PageLayout>
    );

  const banked = needsBank(values.method);
  const slip = slipFields({
    prefix: 'rec',
    values,
    errors,
    set,
    setScan: (scan) => setValue('scan', scan),
    scanProblem: (message) => form.fail({ scan: [message] }, { keep: true, focus: false }),
    methods: OFFLINE_METHODS,
    methodPlaceholder: 'Select method',
    labels: { method: L.method, bankReferenceHint: L.bankReferenceHint, term: L.term, note: L.note },
    dates,
  });
  return (
    <PageLayout title={BURSARY_SCREENS.record.title}>
      <Card>
        <form
          ref={form.formRef}
          onSubmit={(e) => void onSubmit()(e)}
          noValidate
          className="flex flex-col gap-4"
          aria-label={BURSARY_SCREENS.record.title}
        >
          {failure && (
            <Alert tone="error">
              <span data-testid="record-error">{failure.text}</span>
              {failure.clash && (
                <span className="mt-1 block">
                  {M.clashWith}{' '}
                  {failure.clashReference ? (
                    <Link className="font-semibold underline" to={receiptPath(failure.clashReference)} data-testid="clash-receipt">
                      {failure.clash}
                    </Link>
                  ) : (
                    <span className="font-semibold" data-testid="clash-receipt">
                      {failure.clash}
                    </span>
                  )}
                </span>
              )}
            </Alert>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              id="rec-admission_number"
              label={L.admissionNumber}
              required
              autoComplete="off"
              placeholder="STU-0001"
              value={values.admission_number}
              onChange={set('admission_number')}
              error={errors.admission_number}
            />
            {slip.session_id}
          </div>
          <StudentPanel admissionNumber={values.admission_number} sessionId={values.session_id} />
          <div className="grid gap-4 sm:grid-cols-2">
            {slip.term}
            {slip.amount}
            {slip.method}
            {slip.paid_on}
            {banked && (
              <>
                {slip.bank}
                {slip.bank_reference}
              </>
            )}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              id="rec-allocation"
              label={ARREARS_MESSAGES.allocationLabel}
              options={PAYMENT_ALLOCATIONS.map((a) => ({ value: a, label: PAYMENT_ALLOCATION_LABELS[a] }))}
              value={values.allocation}
              onChange={set('allocation')}
              error={errors.allocation}
              data-testid="record-allocation"
            />
          </div>
          {slip.note}
          {slip.scan}
          {secondCash !== null && (
            <Alert tone="warning">
              <span data-testid="second-cash-question">{secondCash}</span>
              <span className="mt-2 block">
                <Button type="button" onClick={() => void onSubmit(true)()} loading={record.isPending} data-testid="second-cash-confirm">
                  {DUPLICATE_CASH_MESSAGES.confirm}
                </Button>
              </span>
            </Alert>
          )}
          <div>
            <SaveCancel label={L.record} busy={record.isPending} />
          </div>
        </form>
      </Card>
    </PageLayout>
  );
}
