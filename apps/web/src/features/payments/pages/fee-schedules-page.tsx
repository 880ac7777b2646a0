// One file (about 405 lines): one page whose schedule form, copy-from-last-term and list share one
// state; its few helpers above are used only here.
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { TERMS, TERM_VALUES, termLabel, type Term } from '@portal/domain/constants';
import { FEE_MESSAGES } from '@portal/domain/fees';
import { PAYMENT_MESSAGES, checkAmount, sanitizeAmountInput, serverMessageOf } from '@portal/domain/payments';
import type { FeeSchedule } from '@portal/domain/payment-views';
import { formatDate } from '../../../lib/datetime';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { allClassNames, currentClassNames, useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { useFeeScheduleMutations, useFeeSchedules, usePaymentContext } from '../api';
import { errorText } from '../components/payment-history';
import { formatNaira } from '../format';
import { lineField, type FeeItemsForm, type Group } from '../fee-items-form';
import { useFeeItemsForm } from '../use-fee-items-form';

/** A fee call's error in a fee's words: the server's own message for a 409 (never the payment one). */
function feeError(err: unknown, fallback?: string): string {
  if (err instanceof ApiError && (err.status === 409 || err.status === 400)) return serverMessageOf(err.data) ?? errorText(err, fallback);
  return errorText(err, fallback);
}

const GROUPS: { value: Group; label: string }[] = [
  { value: 'jss', label: 'All JSS classes' },
  { value: 'sss', label: 'All SSS classes' },
  { value: 'all', label: 'All classes' },
  { value: 'chosen', label: 'Chosen classes' },
];
/** The term before `term` (3rd term of the session before, for a 1st term). */
function previousTerm(sessions: { id: number; name: string }[], sessionId: number, term: Term): { sessionId: number; term: Term } | null {
  const i = TERM_VALUES.indexOf(term);
  if (i > 0) return { sessionId, term: TERM_VALUES[i - 1]! };
  const ordered = [...sessions].sort((a, b) => a.name.localeCompare(b.name));
  const at = ordered.findIndex((s) => s.id === sessionId);
  return at > 0 ? { sessionId: ordered[at - 1]!.id, term: '3rd' } : null;
}

/** Admin: a term's fee items per class; they drive what students owe. */
export default function FeeSchedulesPage() {
  const context = usePaymentContext();
  const [sessionId, setSessionId] = useState<number | null>(null);
  const [term, setTerm] = useState<Term>('1st');
  useEffect(() => {
    if (sessionId === null && context.data?.sessions.length) {
      setSessionId((context.data.sessions.find((s) => s.is_current) ?? context.data.sessions[0])!.id);
    }
  }, [context.data, sessionId]);
  const schedules = useFeeSchedules(sessionId);
  const arms = useClasses();
  const current = useMemo(() => currentClassNames(arms.data), [arms.data]);
  const everyClass = useMemo(() => allClassNames(arms.data), [arms.data]);
  const { bulk, copy, update, remove } = useFeeScheduleMutations();
  const toast = useToast();

  const feeItems = useFeeItemsForm({ sessionId, term, current });
  const { form, lines, chosen } = feeItems;
  const { values, errors, set } = form;
  const [formError, setFormError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: number; name: string; amount: string; compulsory: boolean; dueOn: string } | null>(null);
  const [editError, setEditError] = useState<string | undefined>();

  const sessions = context.data?.sessions ?? [];
  const sessionName = sessions.find((s) => s.id === sessionId)?.name ?? '';
  const termItems = useMemo(() => (schedules.data ?? []).filter((f) => f.term === term), [schedules.data, term]);
  const byClass = useMemo(() => {
    const m = new Map<string, FeeSchedule[]>();
    for (const f of termItems) m.set(f.student_class, [...(m.get(f.student_class) ?? []), f]);
    // School order first; a class no longer in the list (unlikely) still shows its fees, last.
    const order = [...everyClass.filter((c) => m.has(c)), ...[...m.keys()].filter((c) => !everyClass.includes(c))];
    return order.map((c) => ({ cls: c, items: m.get(c)! }));
  }, [termItems, everyClass]);
  const prev = sessionId === null ? null : previousTerm(sessions, sessionId, term);
  const prevLabel = prev
    ? `${termLabel(prev.term)}${prev.sessionId !== sessionId ? `, ${sessions.find((s) => s.id === prev.sessionId)?.name}` : ''}`
    : '';

  async function onValid(typed: FeeItemsForm) {
    const body = feeItems.body(typed);
    try {
      const r = await bulk.mutateAsync(body);
      toast.success(FEE_MESSAGES.saved(body.classes.length, r.created, r.updated));
      feeItems.clearLines();
    } catch (err) {
      setFormError(feeError(err, FEE_MESSAGES.saveFailed));
    }
  }

  function onSave(e: FormEvent) {
    setFormError(null);
    return form.submit(onValid)(e);
  }

  async function onCopy() {
    if (!prev || sessionId === null) return;
    try {
      const r = await copy.mutateAsync({ from_session_id: prev.sessionId, from_term: prev.term, to_session_id: sessionId, to_term: term });
      toast.success(FEE_MESSAGES.copied(r.copied, prevLabel, r.skipped));
    } catch (err) {
      toast.error(feeError(err));
    }
  }

  async function onUpdate(f: FeeSchedule) {
    if (!editing) return;
    const a = checkAmount(editing.amount);
    if (!a.ok) return setEditError(a.message);
    if (!editing.name.trim()) return setEditError(FEE_MESSAGES.nameRequired);
    try {
      await update.mutateAsync({
        id: f.id,
        amount: editing.amount,
        description: f.description,
        name: editing.name.trim(),
        compulsory: editing.compulsory,
        due_on: editing.dueOn || null,
      });
      toast.success(PAYMENT_MESSAGES.feeScheduleSaved);
      setEditing(null);
      setEditError(undefined);
    } catch (err) {
      setEditError(feeError(err));
    }
  }

  async function onDelete(f: FeeSchedule) {
    if (!window.confirm(FEE_MESSAGES.confirmDelete(f.name, termLabel(f.term), f.student_class))) return;
    try {
      await remove.mutateAsync(f.id);
      toast.success(PAYMENT_MESSAGES.feeScheduleDeleted);
    } catch (err) {
      toast.error(feeError(err));
    }
  }

  return (
    <PageLayout title="Fee Schedules">
      <div className="flex min-w-0 flex-col gap-6">
        <Card>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Session"
              options={sessions.map((s) => ({ value: String(s.id), label: s.name }))}
              value={sessionId === null ? '' : String(sessionId)}
              onChange={(e) => setSessionId(Number(e.target.value))}
            />
            <SelectField label="Term" options={TERMS} value={term} onChange={(e) => setTerm(e.target.value as Term)} />
          </div>
          {prev && (
            <div className="mt-4 flex flex-wrap items-center gap-3">
              <Button variant="secondary" onClick={() => void onCopy()} loading={copy.isPending}>
                Copy fees from {prevLabel}
              </Button>
              <span className="text-sm text-slate-600">Items this term already has are kept.</span>
            </div>
          )}
        </Card>

        <Card title={`Set fee items for ${termLabel(term)}${sessionName ? `, ${sessionName}` : ''}`}>
          <form ref={form.formRef} onSubmit={(e) => void onSave(e)} noValidate className="flex flex-col gap-4" aria-label="Set fee items">
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium text-slate-800">Apply to</legend>
              <div className="flex flex-wrap gap-x-4 gap-y-2">
                {GROUPS.map((g) => (
                  <label key={g.value} className="inline-flex min-h-11 items-center gap-2 text-sm">
                    <input
                      type="radio"
                      name="fee-group"
                      value={g.value}
                      checked={values.group === g.value}
                      onChange={() => set('group', g.value)}
                    />
                    {g.label}
                  </label>
                ))}
              </div>
              {values.group === 'chosen' && (
                <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-4" role="group" aria-label="Classes">
                  {current.map((c) => (
                    <label key={c} className="inline-flex min-h-11 items-center gap-2 text-sm">
                      <input type="checkbox" checked={chosen.includes(c)} onChange={(e) => feeItems.choose(c, e.target.checked)} />
                      {c}
                    </label>
                  ))}
                </div>
              )}
              {errors.classes && <p className="text-sm text-red-700">{errors.classes[0]}</p>}
            </fieldset>

            <ul className="flex flex-col gap-4" aria-label="Fee items to set">
              {lines.map((l, i) => (
                <li
                  key={l.key}
                  className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_10rem_11rem_auto_auto] sm:items-end"
                >
                  <TextField
                    label={`Item ${i + 1} name`}
                    value={l.name}
                    maxLength={80}
                    placeholder="e.g. PTA levy"
                    error={errors[lineField('name', l.key)]}
                    onChange={(e) => set(lineField('name', l.key), e.target.value)}
                  />
                  <TextField
                    label={`Item ${i + 1} amount (₦)`}
                    inputMode="decimal"
                    value={l.amount}
                    error={errors[lineField('amount', l.key)]}
                    onChange={(e) => set(lineField('amount', l.key), sanitizeAmountInput(e.target.value))}
                  />
                  <TextField
                    label={`Item ${i + 1} ${FEE_MESSAGES.dueOnLabel.toLowerCase()}`}
                    type="date"
                    value={l.dueOn}
                    error={errors[lineField('dueOn', l.key)]}
                    onChange={(e) => set(lineField('dueOn', l.key), e.target.value)}
                  />
                  <label className="inline-flex min-h-11 items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={!l.compulsory}
                      onChange={(e) => set(lineField('optional', l.key), e.target.checked ? 'yes' : '')}
                    />
                    Optional (e.g. bus)
                  </label>
                  {lines.length > 1 && (
                    <Button variant="ghost" onClick={() => feeItems.removeLine(l.key)} aria-label={`Remove item ${i + 1}`}>
                      Remove
                    </Button>
                  )}
                </li>
              ))}
            </ul>
            {/* Too many lines is the schema's word on the whole list: said where the server's refusal is. */}
            {(formError ?? errors.items?.[0]) && <Alert tone="error">{formError ?? errors.items?.[0]}</Alert>}
            <div className="flex flex-wrap gap-3">
              <Button variant="secondary" onClick={feeItems.addLine}>
                Add another item
              </Button>
              <Button type="submit" loading={bulk.isPending}>
                Save fees
              </Button>
            </div>
            <p className="text-sm text-slate-600">An item a class already has (same name) gets the new amount; other items are added.</p>
            <p className="text-sm text-slate-600">{FEE_MESSAGES.dueOnHint}</p>
          </form>
        </Card>

        <Card title={`${termLabel(term)} fees by class`}>
          {schedules.isPending ? (
            <LoadingBlock />
          ) : schedules.isError ? (
            <Alert tone="error">{errorText(schedules.error)}</Alert>
          ) : byClass.length === 0 ? (
            <EmptyState>{FEE_MESSAGES.noFeesForTerm}</EmptyState>
          ) : (
            <ul className="flex flex-col gap-5" data-testid="fee-schedules">
              {byClass.map(({ cls, items }) => {
                const due = items.filter((f) => f.compulsory).reduce((s, f) => s + Math.round(f.amount * 100), 0) / 100;
                return (
                  <li key={cls} aria-label={`${cls} fees`}>
                    <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 pb-1">
                      <h3 className="font-semibold">{cls}</h3>
                      <span className="text-sm" data-testid={`fee-total-${cls}`}>
                        Due: <strong>{formatNaira(due)}</strong>
                      </span>
                    </div>
                    <ul className="divide-y divide-slate-100">
                      {items.map((f) => (
                        <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="fee-item">
                          {editing?.id === f.id ? (
                            <div className="flex w-full flex-col gap-2">
                              <TextField
                                label="New name"
                                value={editing.name}
                                maxLength={80}
                                onChange={(e) => setEditing({ ...editing, name: e.target.value })}
                              />
                              <TextField
                                label="New amount (₦)"
                                inputMode="decimal"
                                value={editing.amount}
                                error={editError}
                                onChange={(e) => setEditing({ ...editing, amount: sanitizeAmountInput(e.target.value) })}
                              />
                              <TextField
                                label={FEE_MESSAGES.dueOnLabel}
                                type="date"
                                value={editing.dueOn}
                                hint={FEE_MESSAGES.dueOnHint}
                                onChange={(e) => setEditing({ ...editing, dueOn: e.target.value })}
                              />
                              <label className="inline-flex min-h-11 items-center gap-2 text-sm">
                                <input
                                  type="checkbox"
                                  checked={!editing.compulsory}
                                  onChange={(e) => setEditing({ ...editing, compulsory: !e.target.checked })}
                                />
                                Optional
                              </label>
                              <div className="flex flex-wrap gap-2">
                                <Button onClick={() => void onUpdate(f)} loading={update.isPending}>
                                  Save
                                </Button>
                                <Button variant="ghost" onClick={() => setEditing(null)}>
                                  Cancel
                                </Button>
                              </div>
                            </div>
                          ) : (
                            <>
                              <span className="min-w-0 break-words">
                                {f.name}
                                {!f.compulsory && <span className="ml-2 text-xs text-slate-600">(optional)</span>}
                                {f.due_on && (
                                  <span className="ml-2 text-xs text-slate-600" data-testid="fee-due-on">
                                    {FEE_MESSAGES.dueFrom(formatDate(f.due_on))}
                                  </span>
                                )}
                              </span>
                              <span className="flex flex-wrap items-center gap-2">
                                <span className="font-semibold">{formatNaira(f.amount)}</span>
                                <Button
                                  variant="secondary"
                                  onClick={() => {
                                    setEditError(undefined);
                                    setEditing({
                                      id: f.id,
                                      name: f.name,
                                      amount: f.amount.toFixed(2),
                                      compulsory: f.compulsory,
                                      dueOn: f.due_on ?? '',
                                    });
                                  }}
                                  aria-label={`Edit ${f.name} for ${f.student_class}`}
                                >
                                  Edit
                                </Button>
                                <Button
                                  variant="danger"
                                  onClick={() => void onDelete(f)}
                                  aria-label={`Delete ${f.name} for ${f.student_class}`}
                                >
                                  Delete
                                </Button>
                              </span>
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  </li>
                );
              })}
            </ul>
          )}
        </Card>
      </div>
    </PageLayout>
  );
}
