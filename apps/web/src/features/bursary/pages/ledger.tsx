import { useState } from 'react';
import { Link } from 'react-router';
import {
  BURSARY_MESSAGES,
  BURSARY_SCREENS,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
  type LedgerEntry,
  type PaymentMethod,
} from '@portal/domain/bursary';
import { BURSARY_SCREEN_LABELS as L, BURSARY_SCREEN_MESSAGES as M } from '@portal/domain/bursary-screens';
import { termLabel } from '@portal/domain/constants';
import { formatNaira } from '@portal/domain/money';
import { PageLayout } from '../../../components/layout/app-layout';
import { Button, RequestButton } from '../../../components/ui/button';
import { Pager } from '../components/pager';
import { Card } from '../../../components/ui/card';
import { RowTable, type Column } from '../../../components/ui/row-table';
import { SelectField, TextField } from '../../../components/ui/field';
import { QueryView } from '../../../components/ui/query-view';
import { downloadBlob } from '../../../lib/api-client';
import { formatDate } from '../../../lib/datetime';
import { errorMessage } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useSearchParamPatch } from '../../../lib/use-search-param-patch';
import { downloadLedgerCsv, fetchScan, useLedger, useReferenceReviews, type LedgerQuery } from '../api';
import { useSessions } from '../../../lib/school-calendar';
import type { ReferenceReview } from '@portal/domain/bank-references';
import { ReverseDialog } from '../components/reverse-dialog';
import { useFilterDraft } from '../filter-draft';
import { FilterForm } from '../components/filter-form';
import { OpenFileButton } from '../components/open-file-button';

const FILTERS = ['admission_number', 'bank_reference', 'session_id', 'method', 'from', 'to'] as const;

function queryOf(params: URLSearchParams): LedgerQuery {
  const method = params.get('method') ?? '';
  const sessionId = Number(params.get('session_id'));
  const page = Number(params.get('page'));
  return {
    ...(params.get('admission_number') ? { admission_number: params.get('admission_number')! } : {}),
    ...(params.get('bank_reference') ? { bank_reference: params.get('bank_reference')! } : {}),
    ...(sessionId > 0 ? { session_id: sessionId } : {}),
    ...((PAYMENT_METHODS as readonly string[]).includes(method) ? { method: method as PaymentMethod } : {}),
    ...(params.get('from') ? { from: params.get('from')! } : {}),
    ...(params.get('to') ? { to: params.get('to')! } : {}),
    ...(page > 1 ? { page } : {}),
  };
}

function ScanButton({ reference }: { reference: string }) {
  return (
    <OpenFileButton
      variant="ghost"
      fetch={() => fetchScan(reference)}
      failure={(err) => errorMessage(err, { fallback: M.scanFailed, notFound: BURSARY_MESSAGES.noScan })}
    >
      {L.viewScan}
    </OpenFileButton>
  );
}

/** The entries the upgrade found sharing a bank reference (migration 0020): shown until there are none. */
function ReferenceReviews() {
  const reviews = useReferenceReviews();
  if (!reviews.data?.length) return null;
  const name = (r: ReferenceReview, holder: boolean) => {
    const receipt = holder ? r.holder_receipt_number : r.receipt_number;
    const report = holder ? r.holder_report_id : r.report_id;
    const [bank, ref] = holder ? [r.holder_bank, r.holder_bank_reference] : [r.bank, r.bank_reference];
    return `${receipt ?? L.reportLabel(report ?? 0)} (${[bank, ref].filter(Boolean).join(' / ')})`;
  };
  return (
    <Card className="mb-4" title={L.reviewsTitle}>
      <p className="mb-2 text-sm text-slate-700">{L.reviewsIntro}</p>
      <ul className="list-disc pl-5 text-sm [overflow-wrap:anywhere]" data-testid="reference-reviews">
        {reviews.data.map((r) => (
          <li key={`${r.entity}-${r.receipt_number ?? r.report_id}`}>{L.reviewLine(name(r, false), name(r, true))}</li>
        ))}
      </ul>
    </Card>
  );
}

/** The ledger's columns: what each entry was, who paid, how, and what became of it; `onReverse` asks to reverse a payment. */
function entryColumns(onReverse: (e: LedgerEntry) => void): Column<LedgerEntry>[] {
  return [
    {
      label: L.receipt,
      className: 'font-semibold',
      cell: (e) => (
        <>
          <Link
            className="inline-flex min-h-11 items-center text-brand-800 underline"
            to={`/payments/receipt/${encodeURIComponent(e.reference)}`}
          >
            {e.receipt_number}
          </Link>
          {e.kind === 'reversal' && (
            <span
              className="ml-2 inline-block rounded-full border border-red-300 bg-red-50 px-2 text-xs text-red-900"
              data-testid="reversal-mark"
            >
              {L.reversal}
            </span>
          )}
        </>
      ),
    },
    {
      label: L.student,
      cell: (e) => (
        <>
          {e.full_name} <span className="text-xs text-slate-600">{e.admission_number}</span>
        </>
      ),
    },
    {
      label: L.amount,
      figures: true,
      className: (e) => `font-semibold ${e.amount < 0 ? 'text-red-800' : ''}`,
      testId: 'ledger-amount',
      cell: (e) => formatNaira(e.amount),
    },
    {
      label: L.method,
      cell: (e) => (
        <>
          {PAYMENT_METHOD_LABELS[e.method]}
          {e.term && <span className="block text-xs text-slate-600">{termLabel(e.term)}</span>}
        </>
      ),
    },
    {
      label: L.bankAndReference,
      className: '[overflow-wrap:anywhere]',
      cell: (e) => (
        <>
          {[e.bank, e.bank_reference].filter(Boolean).join(' / ')}
          {e.reverses && <span className="block text-xs">{L.reverses(e.reverses.receipt_number)}</span>}
          {e.replaces && (
            <span className="block text-xs" data-testid="replaces-mark">
              {L.replaces(e.replaces.receipt_number)}
            </span>
          )}
          {e.reason && <span className="block text-xs text-slate-600">{e.reason}</span>}
          {e.reversed_by && <span className="block text-xs text-red-800">{L.reversedBy(e.reversed_by)}</span>}
        </>
      ),
    },
    { label: L.date, className: 'whitespace-nowrap', cell: (e) => formatDate(e.paid_on) },
    { label: L.recordedBy, cell: (e) => e.recorded_by ?? '' },
    { label: L.scanColumn, cell: (e) => (e.has_scan ? <ScanButton reference={e.reference} /> : '') },
    {
      label: L.reverse,
      header: <span className="sr-only">{L.reverse}</span>,
      unlabelled: true,
      cell: (e) =>
        e.kind === 'payment' && !e.reversed_by ? (
          <Button variant="secondary" onClick={() => onReverse(e)} aria-label={`${L.reverse} ${e.receipt_number}`}>
            {L.reverse}
          </Button>
        ) : (
          ''
        ),
    },
  ];
}

/** /bursary/ledger (bursar, admin): every payment and reversal, filtered and paged, with scans, reversal and CSV. */
export default function LedgerPage() {
  const [params, patch] = useSearchParamPatch();
  const q = queryOf(params);
  const ledger = useLedger(q);
  const sessions = useSessions();
  const toast = useToast();
  const { typed, field } = useFilterDraft(FILTERS, params);
  const [reversing, setReversing] = useState<LedgerEntry | null>(null);

  async function csv() {
    try {
      downloadBlob(await downloadLedgerCsv({ from: q.from, to: q.to }), `ledger${q.from ? `-${q.from}` : ''}${q.to ? `-${q.to}` : ''}.csv`);
    } catch (err) {
      toast.error(errorMessage(err, { fallback: M.csvFailed }));
    }
  }

  return (
    <PageLayout
      title={BURSARY_SCREENS.ledger.title}
      width="max-w-6xl"
      actions={
        <RequestButton variant="secondary" run={csv}>
          {L.downloadCsv}
        </RequestButton>
      }
    >
      <ReferenceReviews />
      <Card className="mb-4">
        <FilterForm
          className="grid gap-3 sm:grid-cols-3 lg:grid-cols-7 lg:items-end"
          label={BURSARY_SCREENS.ledger.title}
          submitLabel={L.filter}
          onApply={() => patch({ ...typed, admission_number: typed.admission_number.trim().toUpperCase(), page: '' })}
        >
          <TextField label={L.admissionNumber} autoComplete="off" placeholder="STU-0001" {...field('admission_number')} />
          <TextField label={L.bankReference} autoComplete="off" {...field('bank_reference')} />
          <SelectField
            label={L.session}
            placeholder={L.anySession}
            options={(sessions.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
            {...field('session_id')}
          />
          <SelectField
            label={L.method}
            placeholder={L.anyMethod}
            options={PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
            {...field('method')}
          />
          <TextField label={L.from} type="date" {...field('from')} />
          <TextField label={L.to} type="date" {...field('to')} />
        </FilterForm>
      </Card>
      {reversing && <ReverseDialog entry={reversing} onClose={() => setReversing(null)} />}
      <QueryView
        query={ledger}
        messages={{ fallback: M.ledgerFailed, useDetail: true }}
        isEmpty={(d) => d.entries.length === 0}
        empty={M.noEntries}
      >
        {(data) => (
          <Card>
            <p className="mb-3 flex flex-wrap justify-between gap-2 text-sm">
              <span>{L.entries(data.total)}</span>
              <span>
                {L.total}:{' '}
                <span className="font-semibold" data-testid="ledger-total">
                  {formatNaira(data.total_amount)}
                </span>
              </span>
            </p>
            <div className="overflow-x-auto">
              <RowTable
                columns={entryColumns(setReversing)}
                rows={data.entries}
                rowKey={(e) => e.reference}
                rowProps={(e) => ({
                  className: `border-b border-slate-100 align-top ${e.kind === 'reversal' ? 'bg-red-50/60' : ''}`,
                  'data-testid': 'ledger-row',
                  'data-receipt': e.receipt_number,
                })}
                padding="px-2 py-2"
              />
            </div>
            <Pager page={data.page} pages={data.pages} onPage={(page) => patch({ page })} />
          </Card>
        )}
      </QueryView>
    </PageLayout>
  );
}
