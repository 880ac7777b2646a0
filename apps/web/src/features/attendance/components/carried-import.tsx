import { useState, type ChangeEvent } from 'react';
import { TERMS, type Term } from '@portal/domain/constants';
import { ATTENDANCE_LABELS, ATTENDANCE_MESSAGES, type CarriedImportPreview } from '@portal/domain/attendance';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useApplyCarried, usePreviewCarried } from '../api';

const MAX_BYTES = 1_000_000;
const CHANGE: Record<CarriedImportPreview['rows'][number]['change'], string> = { new: 'New', update: 'Update', same: 'No change' };

/** The preview a 400 carries when the file has errors (nothing saved). */
function previewOf(err: unknown): CarriedImportPreview | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  const body = err.data as Partial<CarriedImportPreview> | null;
  return body && Array.isArray(body.rows) && Array.isArray(body.errors) ? (body as CarriedImportPreview) : null;
}

/** Totals kept on paper before the register: a term's CSV, previewed with its errors, then applied. */
export function CarriedImportCard({ sessionId, sessionName }: { sessionId: number; sessionName: string }) {
  const toast = useToast();
  const [term, setTerm] = useState<Term | ''>('');
  const [csv, setCsv] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [preview, setPreview] = useState<CarriedImportPreview | null>(null);
  const [failure, setFailure] = useState('');
  const check = usePreviewCarried();
  const apply = useApplyCarried();
  const fail = (err: unknown) => {
    const p = previewOf(err);
    if (p) return setPreview(p);
    const fields = Object.values(fieldErrorsOf(err)).flat();
    setFailure(fields.length ? fields.join(' ') : errorMessage(err, { fallback: M.saveFailed, useDetail: true }));
  };
  const reset = () => {
    setPreview(null);
    setFailure('');
    setFileError(undefined);
  };

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    reset();
    setCsv(null);
    const input = e.target;
    const file = input.files?.[0];
    if (!file) return;
    if (!term) {
      input.value = '';
      return setFileError(M.chooseTerm);
    }
    if (file.size > MAX_BYTES) return setFileError(ATTENDANCE_MESSAGES.csvTooBig);
    const text = await file.text();
    if (!text.trim()) return setFileError(ATTENDANCE_MESSAGES.csvEmpty);
    setCsv(text);
    try {
      setPreview(await check.mutateAsync({ session_id: sessionId, term, csv: text }));
    } catch (err) {
      fail(err);
    }
  }

  async function onApply() {
    if (!csv || !term) return;
    setFailure('');
    try {
      const done = await apply.mutateAsync({ session_id: sessionId, term, csv });
      toast.success(ATTENDANCE_MESSAGES.csvApplied(done.rows.filter((r) => r.change !== 'same').length));
      setPreview(null);
      setCsv(null);
    } catch (err) {
      fail(err);
    }
  }

  const changes = preview?.rows.filter((r) => r.change !== 'same').length ?? 0;
  return (
    <Card title={L.carried}>
      <div className="flex flex-col gap-3">
        {/* The session is picked at the top of the page, far above on a phone. */}
        <p className="text-sm text-slate-700" data-testid="carried-session">
          {L.session}: <span className="font-semibold">{sessionName}</span>
        </p>
        <SelectField
          label={L.term}
          value={term}
          onChange={(e) => {
            setTerm(e.target.value as Term | '');
            reset();
            setCsv(null);
          }}
          placeholder="Select term"
          options={TERMS}
        />
        <TextField
          label={L.carriedFile}
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void onFile(e)}
          error={fileError}
          hint={L.carriedHint}
        />
        {check.isPending && <p className="text-sm text-slate-600">{M.checking}</p>}
        {failure && <Alert tone="error">{failure}</Alert>}
        {preview && (
          <div className="flex flex-col gap-3" data-testid="carried-preview">
            {preview.errors.length > 0 ? (
              <Alert tone="error" title={ATTENDANCE_MESSAGES.csvHasErrors(preview.errors.length)}>
                <ul className="list-disc pl-5" aria-label="Errors in the file">
                  {preview.errors.map((e, k) => (
                    <li key={`${e.line}-${e.column}-${k}`}>
                      Line {e.line}
                      {e.column ? `, ${e.column}` : ''}: {e.message}
                    </li>
                  ))}
                </ul>
              </Alert>
            ) : changes === 0 ? (
              <Alert tone="info">{M.nothingToApply}</Alert>
            ) : null}
            {preview.rows.length > 0 && (
              <div
                className="max-h-96 overflow-auto rounded-lg border border-slate-200"
                tabIndex={0}
                role="region"
                aria-label="Preview of the file"
              >
                <table className="stack-sm w-full text-left text-sm" aria-label="Rows in the file">
                  <thead className="bg-slate-50">
                    <tr>
                      <th scope="col" className="px-2 py-1.5">
                        {L.student}
                      </th>
                      <th scope="col" className="px-2 py-1.5 text-right">
                        {ATTENDANCE_LABELS.present}
                      </th>
                      <th scope="col" className="px-2 py-1.5 text-right">
                        {ATTENDANCE_LABELS.absent}
                      </th>
                      <th scope="col" className="px-2 py-1.5">
                        Change
                      </th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {preview.rows.map((r) => (
                      <tr key={`${r.line}-${r.admission_number}`}>
                        <th scope="row" className="px-2 py-1.5 text-left font-medium">
                          {r.name} <span className="text-xs font-normal text-slate-600">{r.admission_number}</span>
                        </th>
                        <td data-label={ATTENDANCE_LABELS.present} className="px-2 py-1.5 text-right tabular-nums">
                          {r.days_present}
                        </td>
                        <td data-label={ATTENDANCE_LABELS.absent} className="px-2 py-1.5 text-right tabular-nums">
                          {r.days_absent}
                        </td>
                        <td data-label="Change" className="px-2 py-1.5">
                          {CHANGE[r.change]}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <div>
              <Button onClick={() => void onApply()} loading={apply.isPending} disabled={preview.errors.length > 0 || changes === 0}>
                {L.apply}
              </Button>
            </div>
          </div>
        )}
      </div>
    </Card>
  );
}
