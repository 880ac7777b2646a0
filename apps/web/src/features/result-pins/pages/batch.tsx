import { useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { termLabel } from '@portal/domain/constants';
import { formatNaira } from '@portal/domain/money';
import {
  expandSerials,
  PIN_STATE_LABELS,
  PIN_STATES,
  RESULT_PIN_LABELS as L,
  RESULT_PIN_SCREEN_MESSAGES as M,
  RESULT_PIN_SCREENS as S,
} from '@portal/domain/result-pin-screens';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, RequestButton, SubmitButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmPanel } from '../../../components/ui/confirm-panel';
import { TextAreaField, TextField } from '../../../components/ui/field';
import { FigureList } from '../../../components/ui/figure-list';
import { QueryView } from '../../../components/ui/query-view';
import { RowTable } from '../../../components/ui/row-table';
import { ApiError, downloadBlob } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth-store';
import { formatDateTime } from '../../../lib/datetime';
import { useToast } from '../../../lib/toast';
import { downloadCsv, downloadSheet, useBatch, useMarkSold, usePins, useSealBatch } from '../api';
import { BatchName } from '../components/batch-name';
import { PIN_PAGE_SIZE, type PinBatch, type PinFilter, type PinRow } from '../contract';

const serverWords = (err: unknown, fallback: string) => (err instanceof ApiError && (err.detail ?? err.nonFieldError)) || fallback;

/** The admin's printing: the sheet and the CSV while the batch keeps its printable copy, then sealing it. */
function PrintCard({ batch }: { batch: PinBatch }) {
  const toast = useToast();
  const seal = useSealBatch(batch.id);
  const [asking, setAsking] = useState(false);
  const fetchAndSave = (get: (id: number) => Promise<Blob>, name: string) => async () => {
    try {
      downloadBlob(await get(batch.id), name);
    } catch (err) {
      toast.error(serverWords(err, M.downloadFailed));
    }
  };
  if (!batch.printable)
    return (
      <Alert tone="info" className="mb-5">
        {L.sealedNote}
      </Alert>
    );
  return (
    <Card title={L.printable} className="mb-5">
      <div className="flex flex-wrap gap-2">
        <RequestButton run={fetchAndSave(downloadSheet, `result-pins-batch-${batch.id}.pdf`)} data-testid="download-sheet">
          {L.downloadSheet}
        </RequestButton>
        <RequestButton variant="secondary" run={fetchAndSave(downloadCsv, `result-pins-batch-${batch.id}.csv`)} data-testid="download-csv">
          {L.downloadCsv}
        </RequestButton>
        {!asking && (
          <Button variant="danger" onClick={() => setAsking(true)}>
            {L.seal}
          </Button>
        )}
      </div>
      {asking && (
        <ConfirmPanel
          label={L.seal}
          confirm={L.seal}
          danger
          loading={seal.isPending}
          onCancel={() => setAsking(false)}
          onConfirm={() =>
            seal.mutate(undefined, {
              onSuccess: () => {
                setAsking(false);
                toast.success(M.sealedDone);
              },
              onError: (err) => toast.error(serverWords(err, M.sealFailed)),
            })
          }
        >
          {L.sealConfirm}
        </ConfirmPanel>
      )}
    </Card>
  );
}

/** Marking cards sold: a serial range typed, or the cards picked in the list below; a price and a buyer. */
function SoldCard({ batchId, picked, onDone }: { batchId: number; picked: readonly string[]; onDone: () => void }) {
  const toast = useToast();
  const sold = useMarkSold(batchId);
  const [serials, setSerials] = useState('');
  const [price, setPrice] = useState('');
  const [soldTo, setSoldTo] = useState('');
  const [errors, setErrors] = useState<Record<string, string | string[]>>({});

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problems: Record<string, string> = {};
    const typed = serials.trim() ? expandSerials(serials) : [];
    if (typed === null) problems.serials = M.serialsUnreadable;
    const all = [...new Set([...(typed ?? []), ...picked])];
    if (typed !== null && all.length === 0) problems.serials = M.serialsNeeded;
    const naira = Number(price.replace(/,/g, ''));
    if (price.trim() === '' || !Number.isFinite(naira) || naira < 0) problems.price = M.priceNeeded;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    sold.mutate(
      { serials: all, price: naira, ...(soldTo.trim() ? { sold_to: soldTo.trim() } : {}) },
      {
        onSuccess: (res) => {
          const n = typeof (res as { sold?: unknown }).sold === 'number' ? (res as { sold: number }).sold : all.length;
          toast.success(M.soldDone(n));
          setSerials('');
          onDone();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 400) setErrors(err.fieldErrors);
          toast.error(serverWords(err, M.soldFailed));
        },
      },
    );
  }

  return (
    <Card title={L.markSold} className="mb-5">
      <form className="grid gap-4 sm:grid-cols-2" onSubmit={onSubmit} noValidate data-testid="sold-form">
        <div className="sm:col-span-2">
          <TextAreaField
            label={L.byRange}
            rows={2}
            value={serials}
            onChange={(e) => setSerials(e.target.value)}
            error={errors.serials}
            placeholder="0007-00001 to 0007-00050"
          />
          <p className="mt-1 text-xs text-slate-600">{L.serialsHint}</p>
          {picked.length > 0 && (
            <p className="mt-1 text-sm font-medium text-brand-900" data-testid="picked-count">
              {L.pickedCount(picked.length)}
            </p>
          )}
        </div>
        <TextField
          label={L.price}
          required
          inputMode="decimal"
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          error={errors.price}
        />
        <TextField label={L.soldTo} value={soldTo} onChange={(e) => setSoldTo(e.target.value)} hint={L.soldToHint} error={errors.sold_to} />
        <div className="sm:col-span-2">
          <SubmitButton busy={sold.isPending} busyLabel={L.marking}>
            {L.markSoldButton}
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}

/** The batch's cards, one state at a time, paged; unsold cards can be picked for selling. */
function PinsCard({
  batchId,
  picked,
  onPick,
}: {
  batchId: number;
  picked: readonly string[];
  onPick: (serial: string, on: boolean) => void;
}) {
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state');
  const state = PIN_STATES.includes(stateParam as PinFilter) ? (stateParam as PinFilter) : undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pins = usePins(batchId, { state, page });
  const go = (next: { state?: PinFilter; page?: number }) => {
    const p = new URLSearchParams();
    if (next.state) p.set('state', next.state);
    if (next.page && next.page > 1) p.set('page', String(next.page));
    setParams(p, { replace: true });
  };
  return (
    <Card title={L.pins}>
      <div role="group" aria-label={L.state} className="mb-4 flex flex-wrap gap-2">
        {[undefined, ...PIN_STATES].map((s) => (
          <Button
            key={s ?? 'all'}
            variant={s === state ? 'primary' : 'secondary'}
            aria-pressed={s === state}
            onClick={() => go({ state: s })}
          >
            {s ? PIN_STATE_LABELS[s] : L.all}
          </Button>
        ))}
      </div>
      <QueryView
        query={pins}
        messages={{ fallback: M.pinsFailed, useDetail: true }}
        empty={L.noPins}
        isEmpty={(d) => d.results.length === 0}
      >
        {(data) => {
          const pages = Math.max(1, Math.ceil(data.count / PIN_PAGE_SIZE));
          return (
            <>
              <RowTable<PinRow>
                testId="pins"
                rows={data.results}
                rowKey={(r) => r.serial}
                rowProps={(r) => ({ 'data-state': r.state })}
                columns={[
                  { label: L.serial, className: 'font-mono', cell: (r) => r.serial },
                  { label: L.state, cell: (r) => PIN_STATE_LABELS[r.state] ?? r.state },
                  { label: L.usesLeft, figures: true, cell: (r) => `${r.uses_left} / ${r.uses_left + r.uses}` },
                  { label: L.boundTo, cell: (r) => r.bound_admission_number ?? '–' },
                  { label: L.soldAt, cell: (r) => (r.sold_at ? formatDateTime(r.sold_at) : '–') },
                  { label: L.soldBy, cell: (r) => r.sold_by ?? '–' },
                  { label: L.soldToShort, cell: (r) => r.sold_to ?? '–' },
                  {
                    label: L.priceShort,
                    figures: true,
                    cell: (r) => (r.price === null || r.price === undefined ? '–' : formatNaira(r.price)),
                  },
                  {
                    label: L.picked,
                    unlabelled: true,
                    header: <span className="sr-only">{L.picked}</span>,
                    cell: (r) =>
                      r.sold ? null : (
                        <label className="inline-flex min-h-11 min-w-11 items-center justify-center gap-2">
                          <input
                            type="checkbox"
                            className="h-5 w-5"
                            checked={picked.includes(r.serial)}
                            onChange={(e) => onPick(r.serial, e.target.checked)}
                            aria-label={L.pick(r.serial)}
                          />
                          <span className="text-sm sm:hidden" aria-hidden="true">
                            {L.pickShort}
                          </span>
                        </label>
                      ),
                  },
                ]}
              />
              {pages > 1 && (
                <nav className="mt-4 flex flex-wrap items-center gap-3 text-sm" aria-label={L.pageOf(page, pages)}>
                  <Button variant="secondary" disabled={page <= 1} onClick={() => go({ state, page: page - 1 })}>
                    {L.previous}
                  </Button>
                  <span>{L.pageOf(page, pages)}</span>
                  <Button variant="secondary" disabled={page >= pages} onClick={() => go({ state, page: page + 1 })}>
                    {L.next}
                  </Button>
                </nav>
              )}
            </>
          );
        }}
      </QueryView>
    </Card>
  );
}

/** /result-pins/:id: one batch's counts, its sheet and CSV (admin), sealing, selling, and its cards. */
export default function BatchPage() {
  const id = Number(useParams().id);
  const isAdmin = useSession()?.role === 'admin';
  const batch = useBatch(id);
  const [picked, setPicked] = useState<string[]>([]);
  const onPick = (serial: string, on: boolean) => setPicked((p) => (on ? [...new Set([...p, serial])] : p.filter((s) => s !== serial)));
  return (
    <PageLayout title={batch.data ? <BatchName batch={batch.data} /> : L.batch} width="max-w-6xl">
      <p className="-mt-3 mb-4">
        <Link to={S.batches.to} className="text-sm font-medium text-brand-800 hover:underline">
          {L.backToBatches}
        </Link>
      </p>
      <QueryView query={batch} messages={{ fallback: M.batchFailed, useDetail: true }}>
        {(b) => (
          <>
            <Card className="mb-5">
              <p className="mb-3 text-sm text-slate-700" data-testid="batch-term">
                {b.term ? termLabel(b.term) : L.wholeSession} · {L.uses}: {b.uses} · {L.created}: {formatDateTime(b.created_at)}
                {b.created_by ? ` · ${b.created_by}` : ''}
              </p>
              <FigureList
                testId="batch-counts"
                className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5"
                figures={[
                  { label: L.cards, testId: 'count-cards', value: b.count.toLocaleString('en-NG') },
                  { label: L.sold, testId: 'count-sold', value: (b.sold ?? 0).toLocaleString('en-NG') },
                  { label: L.used, testId: 'count-used', value: (b.used ?? 0).toLocaleString('en-NG') },
                  { label: L.unused, testId: 'count-unused', value: (b.unused ?? 0).toLocaleString('en-NG') },
                  { label: L.exhausted, testId: 'count-exhausted', value: (b.exhausted ?? 0).toLocaleString('en-NG') },
                ]}
              />
            </Card>
            {isAdmin && <PrintCard batch={b} />}
            <SoldCard batchId={b.id} picked={picked} onDone={() => setPicked([])} />
            <PinsCard batchId={b.id} picked={picked} onPick={onPick} />
          </>
        )}
      </QueryView>
    </PageLayout>
  );
}
