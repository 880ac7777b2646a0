import { useState, type FormEvent } from 'react';
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
import { Card } from '../../../components/ui/card';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { formatDateTime } from '../../../lib/datetime';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { ReasonDialog } from '../components/reason-dialog';
import { useStatement } from '../api';
import { useSessions } from '../../../lib/school-calendar';
import { useClassFeeItems, useDiscounts, useGiveDiscount, useRevokeDiscount, type DiscountQuery } from '../discounts-api';
import { SessionSelect } from '../../../components/school/session-select';
import { issueErrors } from '../../../lib/form-errors';

type Errors = Record<string, string[] | undefined>;

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
      <dl className="mt-2 grid grid-cols-[repeat(auto-fit,minmax(8rem,1fr))] gap-2 text-sm">
        <div>
          <dt className="text-slate-600">{L.takesNow}</dt>
          <dd className="font-semibold" data-testid="discount-value">
            {formatNaira(d.value)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{L.reason}</dt>
          <dd className="break-words">{d.reason}</dd>
        </div>
      </dl>
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

interface GiveForm {
  kind: DiscountKind | '';
  term: Term | '';
  basis: DiscountBasis;
  percent: string;
  amount: string;
  items: string[];
  reason: string;
}
const EMPTY: GiveForm = { kind: '', term: '', basis: 'percent', percent: '', amount: '', items: [], reason: '' };

function GiveDiscount({ q, studentClass, fullName }: { q: DiscountQuery; studentClass: string; fullName: string }) {
  const [form, setForm] = useState<GiveForm>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const give = useGiveDiscount();
  const toast = useToast();
  const feeItems = useClassFeeItems(q.session_id, studentClass);
  // The compulsory items in scope (the term's, or the session's), each name once.
  const names = [...new Set((feeItems.data ?? []).filter((i) => i.compulsory && (!form.term || i.term === form.term)).map((i) => i.name))];
  const set = <K extends keyof GiveForm>(key: K, value: GiveForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure('');
    const body = {
      admission_number: q.admission_number,
      session_id: q.session_id,
      term: form.term || null,
      kind: form.kind,
      basis: form.basis,
      percent: form.basis === 'percent' ? (form.percent.trim() === '' ? null : Number(form.percent)) : null,
      amount: form.basis === 'fixed' ? form.amount || null : null,
      items: form.items.filter((n) => names.includes(n)),
      reason: form.reason,
    };
    const parsed = discountSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(issueErrors(parsed.error, { root: 'reason', depth: 1 }));
      setFailure(M.correctErrors);
      return;
    }
    try {
      const given = await give.mutateAsync(body as Parameters<typeof give.mutateAsync>[0]);
      toast.success(DISCOUNT_MESSAGES.given(given.label, fullName));
      setForm(EMPTY);
      setErrors({});
    } catch (err) {
      setErrors(fieldErrorsOf(err));
      setFailure(errorMessage(err, { fallback: M.giveFailed, useDetail: true }));
    }
  }

  return (
    <Card title={L.giveTitle}>
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate aria-label={L.giveTitle}>
        {failure && (
          <Alert tone="error">
            <span data-testid="give-error">{failure}</span>
          </Alert>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={L.kind}
            required
            value={form.kind}
            onChange={(e) => set('kind', e.target.value as DiscountKind)}
            placeholder="Select kind"
            options={DISCOUNT_KINDS.map((k) => ({ value: k, label: DISCOUNT_KIND_LABELS[k] }))}
            error={errors.kind}
          />
          <SelectField
            label={L.covers}
            value={form.term}
            onChange={(e) => setForm((f) => ({ ...f, term: e.target.value as Term | '', items: [] }))}
            placeholder={L.wholeSession}
            options={TERMS}
            error={errors.term}
          />
          <SelectField
            label={L.basis}
            required
            value={form.basis}
            onChange={(e) => set('basis', e.target.value as DiscountBasis)}
            options={[
              { value: 'percent', label: L.percent },
              { value: 'fixed', label: L.fixed },
            ]}
            error={errors.basis}
          />
          {form.basis === 'percent' ? (
            <TextField
              label={L.percentField}
              required
              inputMode="decimal"
              autoComplete="off"
              value={form.percent}
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
              value={form.amount}
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
            <div className="flex flex-wrap gap-x-4">
              {names.map((n) => (
                <label key={n} className="flex min-h-11 items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="h-5 w-5"
                    checked={form.items.includes(n)}
                    onChange={(e) => set('items', e.target.checked ? [...form.items, n] : form.items.filter((x) => x !== n))}
                  />
                  {n}
                </label>
              ))}
            </div>
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
          value={form.reason}
          onChange={(e) => set('reason', e.target.value)}
          error={errors.reason}
        />
        <div>
          <Button type="submit" loading={give.isPending}>
            {L.give}
          </Button>
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
            <dl className="grid grid-cols-[repeat(auto-fit,minmax(8rem,1fr))] gap-2 text-sm" data-testid="discount-student">
              <div>
                <dt className="text-slate-600">{BL.student}</dt>
                <dd className="font-semibold break-words">{s.full_name}</dd>
              </div>
              <div>
                <dt className="text-slate-600">{BL.class}</dt>
                <dd className="font-semibold">{s.student_class}</dd>
              </div>
              <div>
                <dt className="text-slate-600">{BL.outstanding}</dt>
                <dd className="font-semibold" data-testid="discount-balance">
                  {formatNaira(s.balance)}
                </dd>
              </div>
            </dl>
          </Card>
          <Card title={L.theirDiscounts}>
            <QueryView
              query={discounts}
              messages={{ fallback: M.listFailed, useDetail: true }}
              isEmpty={(l) => l.length === 0}
              empty={M.none}
            >
              {(list) => (
                <ul className="flex flex-col gap-3" data-testid="discount-list">
                  {list.map((d) => (
                    <DiscountCard key={d.id} d={d} />
                  ))}
                </ul>
              )}
            </QueryView>
          </Card>
          <GiveDiscount q={q} studentClass={s.student_class} fullName={s.full_name} />
        </div>
      )}
    </QueryView>
  );
}

/** /bursary/discounts?admission_number&session_id (bursar, admin): a student's discounts; give one, revoke one. */
export default function DiscountsPage() {
  const [params, patch] = useSearchParamPatch();
  const sessions = useSessions();
  const adm = params.get('admission_number') ?? '';
  const picked = Number(params.get('session_id'));
  const sessionId = picked > 0 ? picked : sessions.data?.find((s) => s.is_current)?.id;
  const [typed, setTyped] = useState(adm);
  const q = adm && sessionId ? { admission_number: adm, session_id: sessionId } : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    patch({ admission_number: typed.trim().toUpperCase() });
  };
  return (
    <PageLayout title={DISCOUNT_SCREEN.title}>
      <Card className="mb-4">
        <form className="grid gap-3 sm:grid-cols-3 sm:items-end" onSubmit={submit} noValidate aria-label={DISCOUNT_SCREEN.title}>
          <TextField
            label={L.admissionNumber}
            value={typed}
            onChange={(e) => setTyped(e.target.value.toUpperCase())}
            autoComplete="off"
            placeholder="STU-0001"
          />
          <SessionSelect
            label={L.session}
            value={sessionId ? String(sessionId) : ''}
            onChange={(e) => patch({ session_id: e.target.value })}
          />
          <Button type="submit">{L.open}</Button>
        </form>
      </Card>
      {q ? (
        <StudentDiscounts key={`${q.admission_number}|${q.session_id}`} q={q} />
      ) : (
        <p className="text-sm text-slate-600">{M.chooseStudent}</p>
      )}
    </PageLayout>
  );
}
