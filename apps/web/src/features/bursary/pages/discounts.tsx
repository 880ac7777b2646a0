import { useState } from 'react';
import { BURSARY_SCREEN_LABELS as BL } from '@portal/domain/bursary-screens';
import { TERMS, type Term } from '@portal/domain/constants';
import {
  DISCOUNT_KIND_LABELS,
  DISCOUNT_KINDS,
  DISCOUNT_MESSAGES,
  DISCOUNT_SCREEN,
  discountRevokeSchema,
  discountSchema,
  type Discount,
  type DiscountBasis,
  type DiscountKind,
} from '@portal/domain/discounts';
import { DISCOUNT_SCREEN_LABELS as L, DISCOUNT_SCREEN_MESSAGES as M } from '@portal/domain/discount-screens';
import { formatNaira } from '@portal/domain/money';
import { sanitizeAmountInput } from '@portal/domain/payments';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SaveCancel } from '../../../components/ui/save-cancel';
import { Card } from '../../../components/ui/card';
import { CheckboxList } from '../../../components/ui/checkbox-field';
import { FigureList } from '../../../components/ui/figure-list';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { formatDateTime } from '../../../lib/datetime';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { ReasonDialog } from '../components/reason-dialog';
import { CardList } from '../components/card-list';
import { StudentPicker, useSessionParam } from '../components/student-picker';
import { useStatement } from '../api';
import { useClassFeeItems, useDiscounts, useGiveDiscount, useRevokeDiscount, type DiscountQuery } from '../discounts-api';
import { useSchemaForm } from '../../../lib/schema-form';

/** Asks the reason, then revokes (the discount stays in the list, marked revoked). */
function RevokePanel({ discount, onClose }: { discount: Discount; onClose: () => void }) {
  const revoke = useRevokeDiscount();
  return (
    <ReasonDialog
      idBase={`revoke-${discount.id}`}
      testId="revoke-panel"
      className="mt-3 rounded-xl border border-amber-500 bg-amber-50 p-3"
      headingClassName="mb-1 text-base font-semibold"
      title={L.confirmRevoke}
      question={L.revokeQuestion(discount.label, discount.full_name)}
      reasonLabel={L.revokeReason}
      confirmLabel={L.confirmRevoke}
      cancelLabel={L.cancel}
      schema={discountRevokeSchema}
      pending={revoke.isPending}
      submit={async (reason) => {
        await revoke.mutateAsync({ id: discount.id, reason });
        return DISCOUNT_MESSAGES.revoked;
      }}
      failedFallback={M.revokeFailed}
      onClose={onClose}
    />
  );
}

function DiscountCard({ d }: { d: Discount }) {
  const [revoking, setRevoking] = useState(false);
  const revoked = d.revoked_at !== null;
  return (
    <li
      className={`rounded-lg border p-3 ${revoked ? 'border-slate-200 bg-slate-50' : 'border-emerald-300 bg-emerald-50/50'}`}
      data-testid="discount-row"
      data-state={revoked ? 'revoked' : 'active'}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 font-semibold break-words">{d.label}</p>
        <span
          className={`rounded px-2 py-0.5 text-xs font-semibold ${revoked ? 'bg-slate-200 text-slate-800' : 'bg-emerald-100 text-emerald-900'}`}
        >
          {revoked ? L.revoked : L.active}
        </span>
      </div>
      <FigureList
        className="mt-2 grid grid-cols-[repeat(auto-fit,minmax(8rem,1fr))] gap-2 text-sm"
        figures={[
          { label: L.takesNow, value: formatNaira(d.value), testId: 'discount-value' },
          { label: L.reason, value: d.reason, valueClassName: 'break-words' },
        ]}
      />
      <p className="mt-2 text-xs text-slate-600">{L.givenBy(d.given_by, formatDateTime(d.given_at))}</p>
      {revoked && (
        <p className="mt-1 text-xs text-slate-700" data-testid="discount-revoked">
          {L.revokedBy(d.revoked_by, formatDateTime(d.revoked_at))}: {d.revoke_reason}
        </p>
      )}
      {!revoked &&
        (revoking ? (
          <RevokePanel discount={d} onClose={() => setRevoking(false)} />
        ) : (
          <div className="mt-2">
            <Button variant="secondary" onClick={() => setRevoking(true)} aria-label={`${L.revoke}: ${d.label}`}>
              {L.revoke}
            </Button>
          </div>
        ))}
    </li>
  );
}

/** The give form as typed; the fee items ticked are one name a line. */
type GiveForm = { kind: string; term: string; basis: string; percent: string; amount: string; items: string; reason: string };
const EMPTY: GiveForm = { kind: '', term: '', basis: 'percent', percent: '', amount: '', items: '', reason: '' };
const itemList = (items: string) => (items ? items.split('\n') : []);

/** What is sent: the ticked items still in scope, the percent or the amount of the basis chosen. */
function giveBody(f: GiveForm, q: DiscountQuery, names: string[]) {
  return {
    admission_number: q.admission_number,
    session_id: q.session_id,
    term: (f.term || null) as Term | null,
    kind: f.kind as DiscountKind,
    basis: f.basis as DiscountBasis,
    percent: f.basis === 'percent' ? (f.percent.trim() === '' ? null : Number(f.percent)) : null,
    amount: f.basis === 'fixed' ? f.amount || null : null,
    items: itemList(f.items).filter((n) => names.includes(n)),
    reason: f.reason,
  };
}

function GiveDiscount({ q, arm, fullName }: { q: DiscountQuery; arm: string; fullName: string }) {
  const [failure, setFailure] = useState('');
  const give = useGiveDiscount();
  const toast = useToast();
  const feeItems = useClassFeeItems(q.session_id, arm);
  // The compulsory items in scope (the term's, or the session's), each name once.
  const namesFor = (term: string) => [
    ...new Set((feeItems.data ?? []).filter((i) => i.compulsory && (!term || i.term === term)).map((i) => i.name)),
  ];
  const form = useSchemaForm<GiveForm>({
    defaultValues: EMPTY,
    schema: discountSchema,
    toBody: (f) => giveBody(f, q, namesFor(f.term)),
    fieldOf: (path) => path.split('.')[0]!,
    keepFocus: true,
  });
  const { values, errors, set, getValues, setValues } = form;
  const names = namesFor(values.term);
  const items = itemList(values.items);

  async function onValid(typed: GiveForm) {
    try {
      const given = await give.mutateAsync(giveBody(typed, q, namesFor(typed.term)));
      toast.success(DISCOUNT_MESSAGES.given(given.label, fullName));
      setValues(EMPTY);
    } catch (err) {
      form.fail(fieldErrorsOf(err), { focus: false });
      setFailure(errorMessage(err, { fallback: M.giveFailed, useDetail: true }));
    }
  }

  function submit() {
    setFailure('');
    return form.submit(onValid, () => setFailure(M.correctErrors));
  }

  return (
    <Card title={L.giveTitle}>
      <form ref={form.formRef} className="flex flex-col gap-4" onSubmit={(e) => void submit()(e)} noValidate aria-label={L.giveTitle}>
        {failure && (
          <Alert tone="error">
            <span data-testid="give-error">{failure}</span>
          </Alert>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={L.kind}
            required
            value={values.kind}
            onChange={(e) => set('kind', e.target.value)}
            placeholder="Select kind"
            options={DISCOUNT_KINDS.map((k) => ({ value: k, label: DISCOUNT_KIND_LABELS[k] }))}
            error={errors.kind}
          />
          <SelectField
            label={L.covers}
            value={values.term}
            onChange={(e) => setValues({ ...getValues(), term: e.target.value, items: '' }, { keepErrors: true })}
            placeholder={L.wholeSession}
            options={TERMS}
            error={errors.term}
          />
          <SelectField
            label={L.basis}
            required
            value={values.basis}
            onChange={(e) => set('basis', e.target.value)}
            options={[
              { value: 'percent', label: L.percent },
              { value: 'fixed', label: L.fixed },
            ]}
            error={errors.basis}
          />
          {values.basis === 'percent' ? (
            <TextField
              label={L.percentField}
              required
              inputMode="decimal"
              autoComplete="off"
              value={values.percent}
              onChange={(e) => set('percent', e.target.value.replace(/[^\d.]/g, ''))}
              hint={L.percentHint}
              error={errors.percent}
            />
          ) : (
            <TextField
              label={L.amountField}
              required
              inputMode="decimal"
              autoComplete="off"
              value={values.amount}
              onChange={(e) => set('amount', sanitizeAmountInput(e.target.value))}
              error={errors.amount}
            />
          )}
        </div>
        <fieldset className="flex flex-col gap-1" aria-describedby="discount-items-hint">
          <legend className="text-sm font-medium text-slate-800">{L.items}</legend>
          {feeItems.isPending ? (
            <p className="text-sm text-slate-600">…</p>
          ) : names.length === 0 ? (
            <p className="text-sm text-slate-700">{L.noItemsSet}</p>
          ) : (
            <CheckboxList
              className="flex flex-wrap gap-x-4"
              itemClassName="min-h-11 items-center"
              options={names}
              chosen={items}
              onChange={(list) => set('items', list.join('\n'))}
            />
          )}
          <p id="discount-items-hint" className="text-xs text-slate-600">
            {L.itemsHint}
          </p>
          {errors.items?.map((m) => (
            <p key={m} className="text-sm text-red-700" data-testid="field-error">
              {m}
            </p>
          ))}
        </fieldset>
        <TextAreaField
          label={L.reason}
          required
          rows={2}
          value={values.reason}
          onChange={(e) => set('reason', e.target.value)}
          error={errors.reason}
        />
        <div>
          <SaveCancel label={L.give} busy={give.isPending} />
        </div>
      </form>
    </Card>
  );
}

function StudentDiscounts({ q }: { q: DiscountQuery }) {
  const statement = useStatement(q);
  const discounts = useDiscounts(q);
  return (
    <QueryView query={statement} messages={{ fallback: M.listFailed, useDetail: true }}>
      {(s) => (
        <div className="flex flex-col gap-4">
          <Card>
            <FigureList
              className="grid grid-cols-[repeat(auto-fit,minmax(8rem,1fr))] gap-2 text-sm"
              testId="discount-student"
              figures={[
                { label: BL.student, value: s.full_name, valueClassName: 'font-semibold break-words' },
                { label: BL.class, value: s.student_class },
                { label: BL.outstanding, value: formatNaira(s.balance), testId: 'discount-balance' },
              ]}
            />
          </Card>
          <Card title={L.theirDiscounts}>
            <CardList query={discounts} fallback={M.listFailed} empty={M.none} testId="discount-list">
              {(d) => <DiscountCard key={d.id} d={d} />}
            </CardList>
          </Card>
          <GiveDiscount q={q} arm={s.student_class} fullName={s.full_name} />
        </div>
      )}
    </QueryView>
  );
}

/** /bursary/discounts?admission_number&session_id (bursar, admin): a student's discounts; give one, revoke one. */
export default function DiscountsPage() {
  const [params, patch] = useSearchParamPatch();
  const adm = params.get('admission_number') ?? '';
  const { sessionId } = useSessionParam(params);
  const q = adm && sessionId ? { admission_number: adm, session_id: sessionId } : null;
  return (
    <PageLayout title={DISCOUNT_SCREEN.title}>
      <Card className="mb-4">
        <StudentPicker label={DISCOUNT_SCREEN.title} admissionNumber={adm} sessionId={sessionId} patch={patch} />
      </Card>
      {q ? (
        <StudentDiscounts key={`${q.admission_number}|${q.session_id}`} q={q} />
      ) : (
        <p className="text-sm text-slate-600">{M.chooseStudent}</p>
      )}
    </PageLayout>
  );
}
