import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { NOT_RELEASED_CODE, RESULT_MESSAGES } from '@portal/domain/result-messages';
import { FEES_OUTSTANDING_CODE, type FeesOutstandingBody } from '@portal/domain/card-fee-gate';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button, RequestButton, buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { ApiError, downloadBlob } from '../../../lib/api-client';
import { errorCode } from '../../../lib/errors';
import { keptAt, unreachable } from '../../../lib/offline-query';
import { SavedCopyNote } from '../../../components/ui/saved-copy-note';
import { OFFLINE_SAFETY_MESSAGES } from '@portal/domain/offline-safety-screens';
import { useAppStarted } from '../../../lib/app-started';
import { useSession } from '../../../lib/auth-store';
import { useChild } from '../../../lib/parent-child';
import { useToast } from '../../../lib/toast';
import { downloadReportCardPdf, useReportCard } from '../api';
import { cardAddress, cardIsAsked } from '../queries';
import { ReportCardView } from '../components/report-card-view';
import { SessionTermFields } from '../../../components/school/session-term-fields';
import { FormError } from '../components/form-error';
import { GatedCardNotice, OpenCardPanel } from '../components/fee-gate';
import { useSchoolSettings } from '../../../lib/school-settings';
import { useHasCapability } from '../../../lib/capabilities';

/** The server's address of the card's PDF for a page rendered before the app starts (apps/server/src/http/server-pages.ts). */
const CARD_PDF_PAGE = '/report-card.pdf';

/** /report-card: a student's term report card, printable and downloadable as a PDF. */
export default function ReportCardPage() {
  const session = useSession();
  const isStudent = session?.role === 'student';
  // A parent reads a child's card as the child would (the child from the switcher, lib/parent-child.ts).
  const isParent = session?.role === 'parent';
  const isOwn = isStudent || isParent;
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const { child } = useChild();
  const addressed = cardAddress(params, session);
  const q = isParent && !addressed.admission_number && child ? { ...addressed, admission_number: child } : addressed;
  const ready = cardIsAsked(q);
  const [form, setForm] = useState({ admission: q.admission_number, sessionId: q.session_id, term: q.term });
  const [formError, setFormError] = useState('');
  const card = useReportCard(q, ready);
  const started = useAppStarted();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const adm = isOwn ? q.admission_number : form.admission.trim().toUpperCase();
    if (!adm || !form.sessionId || !form.term) {
      setFormError(RESULT_MESSAGES.searchNeedsAllShort);
      return;
    }
    setFormError('');
    setParams({ [isParent ? 'child' : 'admission_number']: adm, session_id: form.sessionId, term: form.term });
  }

  async function downloadPdf() {
    try {
      const blob = await downloadReportCardPdf(q);
      downloadBlob(blob, `report-card-${q.admission_number}-${card.data?.session.name.replace('/', '-') ?? q.session_id}-${q.term}.pdf`);
    } catch {
      toast.error(RESULT_MESSAGES.pdfFailed);
    }
  }

  const savedCopy = keptAt(card.data) !== null;
  const err = card.error instanceof ApiError ? card.error : null;
  const notReleased = errorCode(err) === NOT_RELEASED_CODE;
  // The fee gate (decision 042): what is owed and the way to pay, for the student or the parent.
  const gate = errorCode(err) === FEES_OUTSTANDING_CODE ? (err!.data as FeesOutstandingBody) : null;
  const childPart = isParent ? `&child=${encodeURIComponent(q.admission_number)}` : '';
  const cardHref = `/report-card?session_id=${encodeURIComponent(q.session_id)}&term=${encodeURIComponent(q.term)}${childPart}`;
  const payHref = isParent ? `/PaymentForm?child=${encodeURIComponent(q.admission_number)}` : '/PaymentForm';
  // The admin or the bursar may open a student's card regardless of fees when the school gates cards.
  const school = useSchoolSettings();
  const bursar = useHasCapability('bursar');
  const mayOpen = !isOwn && !!school.data?.results_fee_gate && (session?.role === 'admin' || bursar.allowed);

  return (
    <PageLayout
      title="Report Card"
      actions={
        card.data ? (
          <>
            {/* Before the app starts (a page rendered on the server) the page's boot script prints for `data-print`. */}
            <Button variant="secondary" data-print={started ? undefined : ''} onClick={() => window.print()}>
              Print Report Card
            </Button>
            {/* A saved copy (offline) is read only: the PDF is the server's. */}
            {!savedCopy &&
              (started ? (
                <RequestButton run={downloadPdf}>Download PDF</RequestButton>
              ) : (
                // Before the app starts (a page rendered on the server): the server's link, answered as the page's user (decision 049).
                <a
                  className={buttonClass('primary')}
                  href={`${CARD_PDF_PAGE}?${new URLSearchParams({ admission_number: q.admission_number, session_id: String(q.session_id), term: q.term }).toString()}`}
                  download
                >
                  Download PDF
                </a>
              ))}
          </>
        ) : undefined
      }
    >
      <Card className="no-print mb-5">
        {/* Named fields and GET: submitted before the app runs (a page rendered on the server), the form asks for the same address. */}
        <form className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end" method="get" onSubmit={onSubmit} noValidate>
          <TextField
            label="Admission Number"
            name="admission_number"
            required
            readOnly={isOwn}
            value={isOwn ? q.admission_number : form.admission}
            onChange={(e) => setForm((f) => ({ ...f, admission: e.target.value.toUpperCase() }))}
          />
          <SessionTermFields
            openOnCurrentTerm
            names={{ session: 'session_id', term: 'term' }}
            sessionId={form.sessionId}
            term={form.term}
            onSession={(id) => setForm((f) => ({ ...f, sessionId: id }))}
            onTerm={(t) => setForm((f) => ({ ...f, term: t }))}
          />
          <Button type="submit">View Report Card</Button>
        </form>
        <FormError message={formError} />
      </Card>
      {ready && card.isPending && <LoadingBlock />}
      {notReleased && (
        <Alert tone="info" title={RESULT_MESSAGES.notReleasedShort}>
          {RESULT_MESSAGES.notReleased}
        </Alert>
      )}
      {gate && <GatedCardNotice gate={gate} payHref={payHref} cardHref={cardHref} />}
      {err && !notReleased && !gate && (
        <Alert tone={err.status === 404 ? 'info' : unreachable(err) ? 'warning' : 'error'}>
          {err.status === 404
            ? (err.detail ?? RESULT_MESSAGES.noReportCard)
            : unreachable(err)
              ? OFFLINE_SAFETY_MESSAGES.noSavedCopy
              : (err.detail ?? RESULT_MESSAGES.fetchResultsFailed)}
        </Alert>
      )}
      {card.data && <SavedCopyNote data={card.data} />}
      {card.data && mayOpen && (
        <OpenCardPanel key={cardHref + q.admission_number} admission={q.admission_number} sessionId={q.session_id} term={q.term} />
      )}
      {card.data && <ReportCardView card={card.data} showStatus={!isOwn} />}
    </PageLayout>
  );
}
