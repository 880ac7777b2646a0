import { formatNaira } from '@portal/domain/money';

export { formatNaira };
/** One date and time format everywhere, in the school's time zone (lib/datetime). */
export { formatDateTime, formatPaidWhen } from '../../lib/datetime';

const STATUS_LABEL: Record<string, string> = {
  successful: 'Successful',
  pending: 'Pending',
  unpaid: 'Unpaid',
  failed: 'Failed',
  abandoned: 'Abandoned',
  // What a student owes
  paid: 'Paid in full',
  part_paid: 'Part paid',
};
const STATUS_STYLE: Record<string, string> = {
  successful: 'bg-brand-50 text-brand-900 border-brand-600/40',
  pending: 'bg-amber-50 text-amber-900 border-amber-300',
  unpaid: 'bg-slate-100 text-slate-800 border-slate-300',
  failed: 'bg-red-50 text-red-900 border-red-300',
  abandoned: 'bg-slate-100 text-slate-800 border-slate-300',
  paid: 'bg-brand-50 text-brand-900 border-brand-600/40',
  part_paid: 'bg-amber-50 text-amber-900 border-amber-300',
};

/** History shows pending when a status is missing. */
export function statusLabel(status: string | null | undefined): string {
  return STATUS_LABEL[status || 'pending'] ?? status ?? 'Pending';
}
export function statusClass(status: string | null | undefined): string {
  return `inline-block rounded-full border px-2 py-0.5 text-xs font-semibold ${STATUS_STYLE[status || 'pending'] ?? STATUS_STYLE.unpaid}`;
}
