import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { termLabel } from '@portal/domain/constants';
import { formatNaira } from '@portal/domain/money';
import { readPin, RESULT_PIN_MESSAGES as PM } from '@portal/domain/result-pins';
import { RESULT_PIN_LABELS as L, RESULT_PIN_SCREEN_MESSAGES as M, RESULT_PIN_SCREENS as S } from '@portal/domain/result-pin-screens';
import { SiteHeader } from '../../../components/layout/site-header';
import { ReportCardView } from '../../../components/school/report-card-view';
import { Alert } from '../../../components/ui/alert';
import { Button, RequestButton, SubmitButton } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { LoadingBlock } from '../../../components/ui/spinner';
import { ApiError, downloadBlob } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import { downloadCheckedPdf, useCheckOptions, useCheckResult } from '../api';
import type { CheckAnswer, CheckOptions } from '../contract';
import { refusalOf, type Refusal } from '../refusal';

/** The form: admission number, PIN (digits, spaces and dashes), the session and the term of the card. */
function CheckForm({ options, onChecked }: { options: CheckOptions; onChecked: (a: CheckAnswer) => void }) {
  const check = useCheckResult();
  const [admission, setAdmission] = useState('');
  const [pin, setPin] = useState('');
  // The newest session with a release, and its latest released term: most checks are of the last results.
  const latestTerm = (id: string) => options.sessions.find((s) => String(s.id) === id)?.terms.at(-1) ?? '';
  const [sessionId, setSessionId] = useState(() => String(options.sessions[0]?.id ?? ''));
  const [term, setTerm] = useState(() => latestTerm(String(options.sessions[0]?.id ?? '')));
  const [errors, setErrors] = useState<Record<string, string | string[]>>({});
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const refusalRef = useRef<HTMLDivElement>(null);
  const terms = options.sessions.find((s) => String(s.id) === sessionId)?.terms ?? [];

  useEffect(() => {
    if (refusal) refusalRef.current?.focus();
  }, [refusal]);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problems: Record<string, string> = {};
    const adm = admission.trim().toUpperCase();
    const digits = readPin(pin);
    if (!adm) problems.admission_number = PM.admissionRequired;
    if (!pin.trim()) problems.pin = PM.pinRequired;
    else if (!digits) problems.pin = PM.pinInvalid;
    if (!sessionId) problems.session_id = PM.sessionRequired;
    if (!term) problems.term = PM.termRequired;
    setErrors(problems);
    setRefusal(null);
    if (Object.keys(problems).length || !digits) return;
    check.mutate(
      { admission_number: adm, pin: digits, session_id: Number(sessionId), term },
      {
        onSuccess: (answer) => {
          setPin('');
          onChecked(answer);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 400 && Object.keys(err.fieldErrors).length) {
            setErrors(err.fieldErrors);
            return;
          }
          setRefusal(refusalOf(err));
        },
      },
    );
  }

  return (
    <Card>
      <p className="mb-4 text-slate-700">{L.checkIntro}</p>
      <form className="grid gap-4 sm:grid-cols-2" onSubmit={onSubmit} noValidate data-testid="check-form">
        <TextField
          label={L.admission}
          required
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={admission}
          onChange={(e) => setAdmission(e.target.value.toUpperCase())}
          error={errors.admission_number}
        />
        <TextField
          label={L.pin}
          required
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          maxLength={20}
          className="font-mono tracking-wider"
          value={pin}
          onChange={(e) => setPin(e.target.value.replace(/[^\d\s-]/g, ''))}
          hint={L.pinHint}
          error={errors.pin}
        />
        <SelectField
          label={L.session}
          required
          value={sessionId}
          onChange={(e) => {
            setSessionId(e.target.value);
            setTerm(latestTerm(e.target.value));
          }}
          placeholder="Select session"
          options={options.sessions.map((s) => ({ value: String(s.id), label: s.name }))}
          error={errors.session_id}
        />
        <SelectField
          label={L.term}
          required
          value={term}
          disabled={!sessionId}
          onChange={(e) => setTerm(e.target.value)}
          placeholder="Select term"
          options={terms.map((t) => ({ value: t, label: termLabel(t) }))}
          error={errors.term}
        />
        <div className="sm:col-span-2">
          <SubmitButton className="w-full sm:w-auto" busy={check.isPending} busyLabel={L.checking}>
            {L.checkButton}
          </SubmitButton>
        </div>
      </form>
      {refusal && (
        <div ref={refusalRef} tabIndex={-1} className="mt-4 focus:outline-none" data-testid="check-refusal">
          <Alert tone={refusal.tone} title={refusal.title}>
            <p>{refusal.text}</p>
            {refusal.fees && (
              <dl className="mt-2 grid grid-cols-1 gap-1 min-[400px]:grid-cols-3" data-testid="fees-owed">
                <div>
                  <dt className="font-semibold">{L.owed}</dt>
                  <dd>{formatNaira(refusal.fees.owed)}</dd>
                </div>
                <div>
                  <dt className="font-semibold">{L.required}</dt>
                  <dd>{formatNaira(refusal.fees.required)}</dd>
                </div>
                <div>
                  <dt className="font-semibold">{L.paid}</dt>
                  <dd>{formatNaira(refusal.fees.paid)}</dd>
                </div>
              </dl>
            )}
          </Alert>
        </div>
      )}
    </Card>
  );
}

/** The released card the PIN opened, its uses left, its PDF (no second use) and a way back to the form. */
function CheckedCard({ answer, onAgain }: { answer: CheckAnswer; onAgain: () => void }) {
  const toast = useToast();
  const headingRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  async function pdf() {
    try {
      const blob = await downloadCheckedPdf(answer.pdf_token);
      const c = answer.card;
      downloadBlob(blob, `report-card-${c.student.admission_number}-${c.session.name.replace('/', '-')}-${c.term_label}.pdf`);
    } catch {
      toast.error(M.pdfFailed);
    }
  }
  return (
    <>
      <div className="no-print mb-4 flex flex-col gap-3">
        <p
          ref={headingRef}
          tabIndex={-1}
          className="rounded-lg bg-brand-50 p-3 font-medium text-brand-900 focus:outline-none"
          data-testid="uses-left"
        >
          {answer.uses_left > 0 ? L.usesLeftOf(answer.uses_left) : L.noUsesLeft}
        </p>
        <div className="flex flex-wrap gap-2">
          <RequestButton run={pdf} data-testid="checked-pdf">
            {L.downloadPdf}
          </RequestButton>
          <Button variant="secondary" onClick={() => window.print()}>
            {L.print}
          </Button>
          <Button variant="ghost" onClick={onAgain}>
            {L.checkAnother}
          </Button>
        </div>
      </div>
      <ReportCardView card={answer.card} />
    </>
  );
}

/** /check-result (public, no sign-in): a parent with a scratch card's PIN checks a released result. */
export default function CheckResultPage() {
  const options = useCheckOptions();
  const [answer, setAnswer] = useState<CheckAnswer | null>(null);
  return (
    <div className="min-h-dvh">
      <SiteHeader />
      <main className="mx-auto max-w-4xl px-3 py-6 sm:px-4 sm:py-8">
        <h1 className="no-print mb-4 text-2xl font-bold text-brand-900 sm:text-3xl">{S.check.title}</h1>
        {options.isPending ? (
          <LoadingBlock />
        ) : options.isError ? (
          <Alert tone="error">{M.optionsFailed}</Alert>
        ) : !options.data.enabled ? (
          <Alert tone="info">{M.notEnabled}</Alert>
        ) : answer ? (
          <CheckedCard answer={answer} onAgain={() => setAnswer(null)} />
        ) : (
          <CheckForm options={options.data} onChecked={setAnswer} />
        )}
        <p className="no-print mt-6 text-sm">
          <Link to="/login" className="font-medium text-brand-800 underline">
            {L.signInInstead}
          </Link>
        </p>
      </main>
    </div>
  );
}
