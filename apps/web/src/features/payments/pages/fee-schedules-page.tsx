import { useEffect, useState, type FormEvent } from 'react';
import { CLASSES, TERMS, termLabel } from '@portal/domain/constants';
import { PAYMENT_MESSAGES, checkAmount, sanitizeAmountInput, type FeeSchedule } from '@portal/domain/payments';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import { useFeeScheduleMutations, useFeeSchedules, usePaymentContext } from '../api';
import { errorText } from '../components/payment-history';
import { formatNaira } from '../format';

type Errors = Record<string, string[] | undefined>;
const EMPTY = { student_class: '', term: '', amount: '', description: '' };

/** Admin: fees per class, session and term (beyond the spec); they drive amounts due and outstanding. */
export default function FeeSchedulesPage() {
  const context = usePaymentContext();
  const [sessionId, setSessionId] = useState<number | null>(null);
  useEffect(() => {
    if (sessionId === null && context.data?.sessions.length) {
      setSessionId((context.data.sessions.find((s) => s.is_current) ?? context.data.sessions[0])!.id);
    }
  }, [context.data, sessionId]);
  const schedules = useFeeSchedules(sessionId);
  const { create, update, remove } = useFeeScheduleMutations();
  const toast = useToast();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [editing, setEditing] = useState<{ id: number; amount: string; description: string } | null>(null);
  const [editError, setEditError] = useState<string | undefined>();

  async function onCreate(e: FormEvent) {
    e.preventDefault();
    const errs: Errors = {};
    if (!form.student_class) errs.student_class = [PAYMENT_MESSAGES.classRequired];
    if (!form.term) errs.term = [PAYMENT_MESSAGES.termInvalid];
    const amount = checkAmount(form.amount);
    if (!amount.ok) errs.amount = [amount.message];
    if (Object.keys(errs).length) {
      setErrors(errs);
      return;
    }
    if (sessionId === null) return;
    try {
      await create.mutateAsync({ ...form, session_id: sessionId });
      toast.success(PAYMENT_MESSAGES.feeScheduleSaved);
      setForm(EMPTY);
      setErrors({});
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setErrors(err.fieldErrors);
      toast.error(errorText(err, 'Failed to save fee schedule'));
    }
  }

  async function onSave(f: FeeSchedule) {
    if (!editing) return;
    const amount = checkAmount(editing.amount);
    if (!amount.ok) {
      setEditError(amount.message);
      return;
    }
    try {
      await update.mutateAsync({ id: f.id, amount: editing.amount, description: editing.description });
      toast.success(PAYMENT_MESSAGES.feeScheduleSaved);
      setEditing(null);
      setEditError(undefined);
    } catch (err) {
      toast.error(errorText(err));
    }
  }

  async function onDelete(f: FeeSchedule) {
    if (!window.confirm(`Delete the ${termLabel(f.term)} fee for ${f.student_class}?`)) return;
    try {
      await remove.mutateAsync(f.id);
      toast.success(PAYMENT_MESSAGES.feeScheduleDeleted);
    } catch (err) {
      toast.error(errorText(err));
    }
  }

  const sessions = context.data?.sessions ?? [];
  return (
    <PageLayout title="Fee Schedules">
      <div className="flex flex-col gap-6">
        <Card>
          <SelectField
            label="Session"
            options={sessions.map((s) => ({ value: String(s.id), label: s.name }))}
            value={sessionId === null ? '' : String(sessionId)}
            onChange={(e) => setSessionId(Number(e.target.value))}
          />
        </Card>
        <Card title="Add a fee">
          <form onSubmit={(e) => void onCreate(e)} noValidate className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label="Class"
              required
              placeholder="Select class"
              options={CLASSES}
              value={form.student_class}
              error={errors.student_class}
              onChange={(e) => setForm({ ...form, student_class: e.target.value })}
            />
            <SelectField
              label="Term"
              required
              placeholder="Select term"
              options={TERMS}
              value={form.term}
              error={errors.term}
              onChange={(e) => setForm({ ...form, term: e.target.value })}
            />
            <TextField
              label="Amount (₦)"
              required
              inputMode="decimal"
              value={form.amount}
              error={errors.amount}
              onChange={(e) => setForm({ ...form, amount: sanitizeAmountInput(e.target.value) })}
            />
            <TextField
              label="Description"
              value={form.description}
              error={errors.description}
              maxLength={200}
              onChange={(e) => setForm({ ...form, description: e.target.value })}
            />
            <div className="sm:col-span-2">
              <Button type="submit" loading={create.isPending}>
                Add Fee
              </Button>
            </div>
          </form>
        </Card>
        <Card title="Fees this session">
          {schedules.isPending ? (
            <LoadingBlock />
          ) : schedules.isError ? (
            <Alert tone="error">{errorText(schedules.error)}</Alert>
          ) : schedules.data.length === 0 ? (
            <EmptyState>No fees set for this session yet.</EmptyState>
          ) : (
            <ul className="divide-y divide-slate-100" data-testid="fee-schedules">
              {schedules.data.map((f) => (
                <li key={f.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div>
                    <p className="font-semibold">
                      {f.student_class} · {termLabel(f.term)}
                    </p>
                    {f.description && <p className="text-sm text-slate-600">{f.description}</p>}
                  </div>
                  {editing?.id === f.id ? (
                    <div className="flex flex-wrap items-end gap-2">
                      <TextField
                        label="New amount (₦)"
                        inputMode="decimal"
                        value={editing.amount}
                        error={editError}
                        onChange={(e) => setEditing({ ...editing, amount: sanitizeAmountInput(e.target.value) })}
                      />
                      <TextField
                        label="New description"
                        value={editing.description}
                        maxLength={200}
                        onChange={(e) => setEditing({ ...editing, description: e.target.value })}
                      />
                      <Button onClick={() => void onSave(f)} loading={update.isPending}>
                        Save
                      </Button>
                      <Button variant="ghost" onClick={() => setEditing(null)}>
                        Cancel
                      </Button>
                    </div>
                  ) : (
                    <div className="flex items-center gap-2">
                      <span className="font-semibold">{formatNaira(f.amount)}</span>
                      <Button
                        variant="secondary"
                        onClick={() => setEditing({ id: f.id, amount: f.amount.toFixed(2), description: f.description })}
                        aria-label={`Edit ${f.student_class} ${termLabel(f.term)}`}
                      >
                        Edit
                      </Button>
                      <Button
                        variant="danger"
                        onClick={() => void onDelete(f)}
                        aria-label={`Delete ${f.student_class} ${termLabel(f.term)}`}
                      >
                        Delete
                      </Button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </PageLayout>
  );
}
