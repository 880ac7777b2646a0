import { Link, useLocation } from 'react-router';
import { termLabel } from '@portal/domain/constants';
import { welcomeMessage } from '@portal/domain/datetime';
import { formatNaira } from '@portal/domain/money';
import type { ParentHomeChild } from '@portal/domain/parents';
import { PARENT_SCREEN_LABELS as L, PARENT_SCREEN_MESSAGES as M, PARENT_SCREENS } from '@portal/domain/parent-screens';
import { RESULT_MESSAGES } from '@portal/domain/result-messages';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink, RequestButton } from '../../../components/ui/button';
import { Card, EmptyState } from '../../../components/ui/card';
import { FigureList } from '../../../components/ui/figure-list';
import { LoadingBlock } from '../../../components/ui/spinner';
import { downloadBlob } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth-store';
import { formatDate } from '../../../lib/datetime';
import { childPath, useChild, useParentChildren } from '../../../lib/parent-child';
import { DashboardSlot } from '../../../lib/dashboard-slot';
import { useToast } from '../../../lib/toast';
import { downloadCardPdf, useChildPayments } from '../api';

const naira = (kobo: number) => formatNaira(kobo / 100);
const LINK = 'font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900';

/**
 * /ParentHomePage: each child as a card with the current term at a glance (issue 33): the latest
 * released report card, attendance this term and today, the fee balance with Pay and Statement, and
 * the chosen child's receipts. The switcher above (PageLayout) chooses the child the links open.
 */
export function ParentHome() {
  const session = useSession();
  const state = useLocation().state as { welcomeMessage?: string } | null;
  const children = useParentChildren();
  const { child } = useChild();
  const list = children.data?.children ?? [];
  // The chosen child first, then the others in the school's order.
  const ordered = [...list.filter((c) => c.admission_number === child), ...list.filter((c) => c.admission_number !== child)];
  return (
    <PageLayout title={PARENT_SCREENS.home.title} back={false}>
      <p className="mb-5 rounded-xl bg-brand-800 px-4 py-3 text-white" data-testid="welcome-message">
        {state?.welcomeMessage ?? welcomeMessage(session?.name)}
      </p>
      {children.isPending ? (
        <LoadingBlock />
      ) : children.isError ? (
        <Alert tone="error">{M.childrenFailed}</Alert>
      ) : list.length === 0 ? (
        <EmptyState>{M.noChildren}</EmptyState>
      ) : (
        <ul className="flex flex-col gap-4" aria-label={L.children}>
          {ordered.map((c) => (
            <li key={c.admission_number}>
              <ChildCard c={c} chosen={c.admission_number === child} />
            </li>
          ))}
        </ul>
      )}
      <p className="mt-6 text-sm">
        <Link className={LINK} to="/change-password">
          Change Password
        </Link>
      </p>
    </PageLayout>
  );
}

function ChildCard({ c, chosen }: { c: ParentHomeChild; chosen: boolean }) {
  const adm = c.admission_number;
  const to = (path: string) => childPath(path, adm);
  const name = `${c.first_name} ${c.last_name}`;
  return (
    <Card
      className={chosen ? 'border-brand-700' : ''}
      title={
        <>
          {name} <span className="text-sm font-normal text-slate-600">{c.arm}</span>
        </>
      }
    >
      <div data-testid="child-card" data-admission={adm} className="flex flex-col gap-4">
        <p className="text-sm text-slate-600">{adm}</p>
        <CardSection c={c} to={to} name={name} />
        <AttendanceSection c={c} to={to} />
        <FeesSection c={c} to={to} />
        {/* The child's dashboard (issue 36): their terms, subjects against the class, attendance and fees. */}
        <DashboardSlot of="student" child={adm} name={name} />
        {chosen && <Receipts child={adm} />}
      </div>
    </Card>
  );
}

function SectionTitle({ children }: { children: string }) {
  return <h3 className="mb-1 text-base font-semibold text-slate-900">{children}</h3>;
}

function CardSection({ c, to, name }: { c: ParentHomeChild; to: (p: string) => string; name: string }) {
  const toast = useToast();
  const card = c.latest_card;
  return (
    <section aria-label={`${L.latestCard}: ${name}`}>
      <SectionTitle>{L.latestCard}</SectionTitle>
      {!card ? (
        <p className="text-sm text-slate-600">{M.noCardYet}</p>
      ) : (
        <>
          <p className="mb-1 text-sm text-slate-700">
            {card.session} · {termLabel(card.term)}
          </p>
          <FigureList
            className="mb-2 grid grid-cols-2 gap-2 text-sm"
            figures={[
              { label: L.average, value: card.average === null ? '—' : card.average.toFixed(1), testId: 'card-average' },
              {
                label: L.position,
                value: card.position === null ? '—' : `${card.position}${card.out_of ? ` of ${card.out_of}` : ''}`,
                testId: 'card-position',
              },
            ]}
          />
          <div className="flex flex-wrap gap-2">
            <ButtonLink variant="secondary" to={to(`/report-card?session_id=${card.session_id}&term=${encodeURIComponent(card.term)}`)}>
              {L.viewCard}
            </ButtonLink>
            <RequestButton
              variant="ghost"
              aria-label={`${L.downloadPdf}: ${name}`}
              run={async () => {
                try {
                  const blob = await downloadCardPdf({
                    admission_number: c.admission_number,
                    session_id: card.session_id,
                    term: card.term,
                  });
                  downloadBlob(blob, `report-card-${c.admission_number}-${card.session.replace('/', '-')}-${card.term}.pdf`);
                } catch {
                  toast.error(RESULT_MESSAGES.pdfFailed);
                }
              }}
            >
              {L.downloadPdf}
            </RequestButton>
          </div>
        </>
      )}
    </section>
  );
}

function AttendanceSection({ c, to }: { c: ParentHomeChild; to: (p: string) => string }) {
  const a = c.attendance;
  return (
    <section aria-label={`${L.attendance}: ${c.first_name}`}>
      <SectionTitle>{L.attendance}</SectionTitle>
      {!a ? (
        <p className="text-sm text-slate-600">{M.noAttendance}</p>
      ) : (
        <>
          <FigureList
            className="mb-2 grid grid-cols-[repeat(auto-fit,minmax(5.5rem,1fr))] gap-2 text-sm"
            figures={[
              { label: L.today, value: a.today ? (M.todayWords[a.today] ?? a.today) : '—', testId: 'attendance-today' },
              { label: L.present, value: a.present, testId: 'attendance-present' },
              { label: L.absent, value: a.absent },
              { label: L.late, value: a.late },
              { label: L.schoolDays, value: a.school_days },
            ]}
          />
          <Link className={`${LINK} text-sm`} to={to('/my-attendance')}>
            {L.attendanceDetails}
          </Link>
        </>
      )}
    </section>
  );
}

function FeesSection({ c, to }: { c: ParentHomeChild; to: (p: string) => string }) {
  const f = c.fees;
  return (
    <section aria-label={`${L.fees}: ${c.first_name}`}>
      <SectionTitle>{f ? `${L.fees}, ${termLabel(f.term)}` : L.fees}</SectionTitle>
      {!f || f.due_kobo === 0 ? (
        <p className="mb-2 text-sm text-slate-600">{M.noFees}</p>
      ) : (
        <FigureList
          className="mb-2 grid grid-cols-[repeat(auto-fit,minmax(6.5rem,1fr))] gap-2 text-sm"
          figures={[
            { label: L.due, value: naira(f.due_kobo) },
            { label: L.paid, value: naira(f.paid_kobo) },
            { label: L.outstanding, value: naira(f.outstanding_kobo), testId: 'fees-outstanding' },
          ]}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <ButtonLink to={to('/PaymentForm')} aria-label={`${L.pay}: ${c.first_name} ${c.last_name}`}>
          {L.pay}
        </ButtonLink>
        <ButtonLink variant="secondary" to={to('/my-statement')} aria-label={`${L.statement}: ${c.first_name} ${c.last_name}`}>
          {L.statement}
        </ButtonLink>
        <ButtonLink variant="ghost" to={to('/my-transfers')} aria-label={`${L.reportTransfer}: ${c.first_name} ${c.last_name}`}>
          {L.reportTransfer}
        </ButtonLink>
      </div>
    </section>
  );
}

/** The chosen child's payments, each with its receipt. */
function Receipts({ child }: { child: string }) {
  const history = useChildPayments(child);
  const paid = (history.data ?? []).filter((p) => p.status === 'successful').slice(0, 5);
  return (
    <section aria-label={L.receipts}>
      <SectionTitle>{L.receipts}</SectionTitle>
      {history.isPending ? (
        <LoadingBlock />
      ) : history.isError ? null : paid.length === 0 ? (
        <p className="text-sm text-slate-600">{L.noReceipts}</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm" data-testid="child-receipts">
          {paid.map((p) => (
            <li key={p.reference} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="tabular-nums">{formatDate(p.paid_at ?? p.created_at)}</span>
              <span className="font-semibold">{formatNaira(p.amount)}</span>
              <Link className={LINK} to={childPath(`/payments/receipt/${encodeURIComponent(p.reference)}`, child)}>
                {L.viewReceipt} {p.reference}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
