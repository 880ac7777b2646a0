// One file (about 450 lines): the page is one form whose lookup, draft, confirmation and
// submit share the same state; the draft and warning helpers are in ../payment-form-model.ts.
import { useCallback, useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ARREARS_MESSAGES } from '@portal/domain/arrears';
import { STORAGE_KEYS } from '@portal/domain/auth-constants';
import { TERMS, TIMINGS, termLabel } from '@portal/domain/constants';
import { DISCOUNT_SCREEN_LABELS as DL } from '@portal/domain/discount-screens';
import { EXCEEDS_BALANCE_CODE, FEE_MESSAGES, TERM_ALREADY_PAID_CODE } from '@portal/domain/fees';
import {
  PAYMENT_FORM_FIELDS,
  PAYMENT_MESSAGES,
  initiatePaymentSchema,
  sanitizeAmountInput,
  verifyWithRetries,
  type InitiatePayment,
} from '@portal/domain/payments';
import type { PaymentContext } from '@portal/domain/payment-views';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FigureList } from '../../../components/ui/figure-list';
import { SelectField, TextField } from '../../../components/ui/field';
import { ClassSelect } from '../../../components/school/class-select';
import { LoadingBlock, Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth-store';
import { useChild } from '../../../lib/parent-child';
import { initiatePayment, paymentContextOf, paymentKeys, usePaymentContext, usePaymentProvider, verifyPayment } from '../api';
import { ClassReport } from '../components/class-report';
import { errorText, PaymentHistory } from '../components/payment-history';
import { formatNaira, statusClass, statusLabel } from '../format';
import { errorCode } from '../../../lib/errors';
import { useDebounced } from '../../../lib/use-debounced';
import { useSchemaForm } from '../../../lib/schema-form';
import { type FormValues, EMPTY, draftFor, storage, type Banner, sleep, draftIsStale, warningText } from '../payment-form-model';

/** The fields' ids in the order the focus looks for the first one in error. */
const FOCUS_ORDER = [...PAYMENT_FORM_FIELDS, 'term' as const].map((f) => `pay-${f}`);

/**
 * /PaymentForm: School Fees Payment. A parent pays for one child at a time (`?child=`, lib/parent-child):
 * the form starts afresh for each child; back from the provider, it is the child just paid for.
 */
export default function PaymentFormPage() {
  const [params] = useSearchParams();
  const back = Boolean(params.get('reference') || params.get('trxref'));
  const { isParent, child, pending } = useChild(back ? storage.lastPaymentChild() : null);
  if (isParent && pending) return <LoadingBlock />;
  return <PaymentForm key={child ?? ''} child={child} />;
}

function PaymentForm({ child }: { child: string | null }) {
  const session = useSession();
  const isStudent = session?.role === 'student';
  // A student's own form, or a parent's for a child: the admission number is fixed, no class report.
  const isOwn = isStudent || session?.role === 'parent';
  const context = usePaymentContext(child);
  // Online payment may be off (production without a provider key): the form says so and cannot submit.
  const provider = usePaymentProvider();
  const paymentsOff = provider.data?.online_payment === false;
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();

  const hadDraft = useRef(draftFor(child) !== null);
  const form = useSchemaForm<FormValues>({
    defaultValues: draftFor(child) ?? EMPTY,
    schema: initiatePaymentSchema,
    toBody: (v) => v,
    fieldOf: (path) => path.split('.')[0]!,
    focusOrder: FOCUS_ORDER,
  });
  const { values, errors, getValues, setValues } = form;
  // A refill from the context or a verified payment: the values change, the errors shown stay.
  const patch = useCallback(
    (next: (f: FormValues) => FormValues) => setValues(next(getValues()), { keepErrors: true }),
    [getValues, setValues],
  );
  const draft = JSON.stringify(values);
  const [banner, setBanner] = useState<Banner>(null);
  const [submitting, setSubmitting] = useState(false);
  const [redirecting, setRedirecting] = useState(false);
  const [verifying, setVerifying] = useState(false);
  // The clear confirm step before paying a term already paid or more than the balance.
  const [confirm, setConfirm] = useState<{ text: string; payment: InitiatePayment } | null>(null);
  useEffect(() => {
    if (confirm) document.getElementById('pay-confirm-back')?.focus();
  }, [confirm]);
  // Bumped to ask for a (re)fill from the context: on load, and after a payment is verified.
  const [prefillRequest, setPrefillRequest] = useState(1);
  const prefilledFor = useRef(0);
  const staleDraft = useRef(false);
  useEffect(() => {
    if (!staleDraft.current) return;
    staleDraft.current = false;
    // Said only when nothing else is being said (e.g. not over a payment being verified).
    setBanner((b) => b ?? { tone: 'info', text: 'The amount was updated to what you owe now.' });
  }, [draft]);

  // A signed-in student's own details and what they owe next fill the form (beyond the spec).
  const prefill = useCallback(
    (keepDraft: boolean) => {
      const c = context.data;
      if (!c) return;
      patch((f) => {
        const next = { ...f };
        if (!next.current_session && c.current_session) next.current_session = c.current_session;
        const st = c.student;
        if (st) {
          // A draft for a term since paid, or for more than is now owed, gives way to what is owed now.
          if (keepDraft && (next.amount || next.term) && draftIsStale(next, st)) {
            next.amount = '';
            next.term = '';
            staleDraft.current = true;
          }
          next.admission_number = st.admission_number;
          if (!keepDraft || !next.full_name) next.full_name = st.full_name;
          if (!keepDraft || !next.current_class) next.current_class = st.current_class;
          if (!keepDraft || !next.email) next.email = st.email;
          if (!keepDraft || !next.phone_number) next.phone_number = st.phone_number ?? '';
          if (!keepDraft || !next.amount) next.amount = st.suggested_amount > 0 ? st.suggested_amount.toFixed(2) : '';
          if (!keepDraft || !next.term) next.term = st.term ?? '';
        }
        return next;
      });
    },
    [context.data, patch],
  );
  useEffect(() => {
    if (!context.data || prefilledFor.current === prefillRequest) return;
    const first = prefilledFor.current === 0;
    prefilledFor.current = prefillRequest;
    prefill(first ? hadDraft.current : true);
  }, [context.data, prefill, prefillRequest]);

  // The draft is saved 500 ms after each change.
  useEffect(() => {
    const t = setTimeout(() => {
      try {
        localStorage.setItem(STORAGE_KEYS.paymentDraft, draft);
      } catch {
        /* storage full or blocked: the form still works */
      }
    }, TIMINGS.paymentDraftSave);
    return () => clearTimeout(t);
  }, [draft]);

  // Lookups started before the verify answered would still show the old status: cancel, then refetch.
  const refresh = useCallback(async () => {
    await qc.cancelQueries({ queryKey: paymentKeys.all });
    await qc.invalidateQueries({ queryKey: paymentKeys.all });
  }, [qc]);

  // Back from the provider: the reference from the address (reference or trxref), else the remembered one.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    const fromUrl = params.get('reference') || params.get('trxref');
    const reference = fromUrl || storage.lastReference();
    if (!reference) return;
    started.current = true;
    setVerifying(true);
    setBanner({ tone: 'info', text: PAYMENT_MESSAGES.verifying });
    void verifyWithRetries({
      verify: () => verifyPayment(reference),
      sleep,
      pendingRetries: TIMINGS.verifyPendingRetries,
      pendingDelayPerAttempt: TIMINGS.verifyPendingDelayPerAttempt,
      errorRetries: TIMINGS.verifyRequestErrorRetries,
    })
      .then(async (res) => {
        if (res.status === 'success') {
          storage.clearLastReference();
          setBanner({ tone: 'success', text: res.message || PAYMENT_MESSAGES.verified, reference });
          // Paid: the amount is cleared (a student's is refilled with what is still owed).
          patch((f) => ({ ...f, amount: '' }));
          await refresh();
          setPrefillRequest((n) => n + 1);
          // Read what is still owed from the refreshed context itself, whatever order the renders ran in.
          const owed = qc.getQueryData<PaymentContext>(paymentContextOf(child).queryKey)?.student?.suggested_amount ?? 0;
          patch((f) => ({ ...f, amount: owed > 0 ? owed.toFixed(2) : '' }));
        } else if (res.status === 'pending') {
          setBanner({ tone: 'warning', text: res.message || PAYMENT_MESSAGES.pending });
        } else {
          storage.clearLastReference();
          setBanner({ tone: 'error', text: res.message || PAYMENT_MESSAGES.verificationFailed });
          await refresh();
        }
      })
      .catch((err: unknown) => {
        if (err instanceof ApiError && (err.status === 404 || err.status === 403)) storage.clearLastReference();
        setBanner({ tone: 'error', text: err instanceof ApiError ? errorText(err) : PAYMENT_MESSAGES.verificationFailed });
      })
      .finally(() => {
        setVerifying(false);
        if (fromUrl) void navigate(child ? `/PaymentForm?child=${encodeURIComponent(child)}` : '/PaymentForm', { replace: true });
      });
  }, [params, refresh, navigate, qc, patch, child]);

  const set = (key: keyof FormValues) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const value = key === 'amount' ? sanitizeAmountInput(e.target.value) : e.target.value;
    form.set(key, value);
    setConfirm(null);
  };

  /** A field's id, value, change handler and messages. */
  const bind = (key: keyof FormValues) => ({ id: `pay-${key}`, value: values[key], onChange: set(key), error: errors[key] });

  async function onValid(_values: FormValues, body: unknown) {
    const payment = body as InitiatePayment;
    const st = context.data?.student;
    // A student's own payment for the current session is checked here first; the server checks every payment.
    if (st && payment.admission_number === st.admission_number && payment.current_session === context.data?.current_session) {
      const text = warningText(st, payment.amount, payment.term);
      if (text) {
        setConfirm({ text, payment });
        return;
      }
    }
    await pay(payment, false);
  }

  function onSubmit() {
    setBanner(null);
    return form.submit(onValid, () => setBanner({ tone: 'error', text: PAYMENT_MESSAGES.correctErrors }));
  }

  async function pay(p: InitiatePayment, confirmed: boolean) {
    setConfirm(null);
    setSubmitting(true);
    try {
      // The form's checked fields as they are, the amount back in naira, and confirm only once asked.
      const { confirm: _asked, amount, ...fields } = p;
      const res = await initiatePayment({ ...fields, amount: amount / 100, ...(confirmed ? { confirm: true } : {}) });
      const url = res.status === 'success' ? res.data?.authorization_url : undefined;
      if (!url) {
        setBanner({ tone: 'error', text: PAYMENT_MESSAGES.initiationFailed });
        return;
      }
      storage.setLastReference(res.data.reference);
      if (child) storage.setLastPaymentChild(child);
      setRedirecting(true);
      setBanner({ tone: 'info', text: PAYMENT_MESSAGES.redirecting });
      setTimeout(() => window.location.assign(url), TIMINGS.redirectToProvider);
    } catch (err) {
      const code = errorCode(err);
      if (
        err instanceof ApiError &&
        err.status === 409 &&
        (code === TERM_ALREADY_PAID_CODE || code === EXCEEDS_BALANCE_CODE) &&
        !confirmed
      ) {
        setConfirm({ text: err.detail ?? FEE_MESSAGES.confirmQuestion, payment: p });
        return;
      }
      if (err instanceof ApiError && err.status === 400) form.fail(err.fieldErrors, { focus: false });
      setBanner({ tone: 'error', text: err instanceof ApiError ? errorText(err) : PAYMENT_MESSAGES.initiationFailed });
    } finally {
      setSubmitting(false);
    }
  }

  const lookupAdmission = useDebounced(
    isStudent ? (session?.publicId ?? '') : (child ?? values.admission_number),
    TIMINGS.paymentLookupDebounce,
  );
  const lookupClass = useDebounced(values.current_class, TIMINGS.paymentLookupDebounce);
  const lookupSession = useDebounced(values.current_session, TIMINGS.paymentLookupDebounce);
  const sessions = context.data?.sessions ?? [];
  const st = context.data?.student;
  const busy = submitting || redirecting || verifying;

  return (
    <PageLayout title="School Fees Payment">
      <div className="flex flex-col gap-6">
        {banner && (
          <Alert tone={banner.tone}>
            <span className="inline-flex items-center gap-2">
              {(verifying || redirecting) && <Spinner size="sm" />}
              <span data-testid="payment-message">{banner.text}</span>
            </span>
            {banner.reference && (
              <span className="mt-2 block">
                <Link className="font-semibold underline" to={`/payments/receipt/${encodeURIComponent(banner.reference)}`}>
                  View receipt
                </Link>
              </span>
            )}
          </Alert>
        )}

        {st && (
          <Card title={child ? `Fees this session: ${st.full_name}` : 'Your fees this session'}>
            <FigureList
              className="grid grid-cols-[repeat(auto-fit,minmax(7.5rem,1fr))] gap-2 text-sm"
              figures={[
                // What an earlier session left unpaid (or overpaid), counted in Due and Outstanding (decision 041).
                !!st.brought_forward && {
                  label: `${st.brought_forward > 0 ? ARREARS_MESSAGES.broughtForwardLabel : ARREARS_MESSAGES.creditLabel}${st.brought_forward_from ? ` (${st.brought_forward_from})` : ''}`,
                  value: formatNaira(Math.abs(st.brought_forward)),
                  testId: 'fees-brought-forward',
                },
                { label: 'Due', value: formatNaira(st.amount_due), testId: 'fees-due' },
                { label: 'Paid', value: formatNaira(st.amount_paid) },
                { label: 'Outstanding', value: formatNaira(st.outstanding), testId: 'fees-outstanding' },
              ]}
            />
            {st.terms.length > 0 && (
              <ul className="mt-3 flex flex-col gap-1 text-sm" aria-label="Fees by term" data-testid="fees-by-term">
                {st.terms.map((t) => (
                  <li key={t.term} className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="font-medium">{termLabel(t.term)}:</span>
                    <span className={statusClass(t.status)}>{statusLabel(t.status)}</span>
                    {t.balance > 0 && <span className="text-slate-700">{formatNaira(t.balance)} to pay</span>}
                  </li>
                ))}
              </ul>
            )}
            {st.discounts.length > 0 && (
              <ul className="mt-3 flex flex-col gap-1 text-sm" aria-label={DL.discounts} data-testid="fees-discounts">
                {st.discounts.map((d, i) => (
                  <li key={i} className="text-emerald-800">
                    {DL.discountLine(d.label, d.amount)}
                  </li>
                ))}
              </ul>
            )}
            {st.amount_due > 0 && st.outstanding === 0 && <p className="mt-2 text-sm text-slate-600">{PAYMENT_MESSAGES.noOutstanding}</p>}
          </Card>
        )}

        <Card title="Pay school fees">
          {paymentsOff && (
            <Alert tone="warning" className="mb-4">
              <span data-testid="payments-off">{provider.data?.message}</span>
            </Alert>
          )}
          <form
            ref={form.formRef}
            onSubmit={(e) => void onSubmit()(e)}
            noValidate
            className="flex flex-col gap-4"
            aria-label="School fees payment form"
          >
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Admission Number" required autoComplete="off" readOnly={isOwn} {...bind('admission_number')} />
              <TextField label="Full Name" required autoComplete="name" {...bind('full_name')} />
              <ClassSelect required {...bind('current_class')} />
              <SelectField
                label="Session"
                required
                placeholder={context.isPending ? 'Loading sessions...' : 'Select session'}
                options={sessions.map((s) => s.name)}
                {...bind('current_session')}
              />
              <TextField label="Email" type="email" required autoComplete="email" {...bind('email')} />
              <TextField label="Phone Number (optional)" type="tel" autoComplete="tel" {...bind('phone_number')} />
              <SelectField label="Term (optional)" placeholder="Not specified" options={TERMS} {...bind('term')} />
              <TextField
                label="Amount (₦)"
                required
                inputMode="decimal"
                autoComplete="off"
                {...bind('amount')}
                hint="Between ₦100 and ₦5,000,000"
              />
            </div>
            {confirm && (
              <div
                role="alertdialog"
                aria-labelledby="pay-confirm-title"
                aria-describedby="pay-confirm-text"
                className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
                data-testid="payment-confirm"
              >
                <p id="pay-confirm-title" className="font-semibold">
                  Check before you pay
                </p>
                <p id="pay-confirm-text" className="mt-1">
                  {confirm.text} {FEE_MESSAGES.confirmQuestion}
                </p>
                <div className="mt-3 flex flex-wrap gap-3">
                  <Button id="pay-confirm-back" variant="secondary" onClick={() => setConfirm(null)}>
                    Change amount
                  </Button>
                  <Button onClick={() => void pay(confirm.payment, true)} loading={submitting}>
                    Pay anyway
                  </Button>
                </div>
              </div>
            )}
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" loading={submitting || redirecting} disabled={busy || paymentsOff}>
                Proceed to Payment
              </Button>
              {values.amount && !errors.amount && /^\d+(\.\d{1,2})?$/.test(values.amount) && (
                <span className="text-sm text-slate-600">You will pay {formatNaira(Number(values.amount))}</span>
              )}
            </div>
          </form>
        </Card>

        <PaymentHistory admissionNumber={lookupAdmission} />
        {!isOwn && <ClassReport arm={lookupClass} session={lookupSession} />}
      </div>
    </PageLayout>
  );
}
