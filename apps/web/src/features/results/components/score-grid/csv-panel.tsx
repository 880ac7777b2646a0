import { useState, type ChangeEvent } from 'react';
import { ASSESSMENT_MESSAGES, type ScoreImportPreview, type ScoreSheet, type ScoreSheetQuery } from '@portal/domain/assessment';
import { Alert } from '../../../../components/ui/alert';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { TextField } from '../../../../components/ui/field';
import { ApiError, downloadBlob } from '../../../../lib/api-client';
import { errorMessage } from '../../../../lib/errors';
import { useToast } from '../../../../lib/toast';
import { downloadScoreTemplate, useApplyScoreImport, usePreviewScoreImport } from '../../score-sheet-api';
import { describeScores } from './grid-model';

const MAX_BYTES = 1_000_000;
const CHANGE: Record<ScoreImportPreview['rows'][number]['change'], string> = {
  new: 'New',
  update: 'Update',
  same: 'No change',
  clear: 'Clear',
};

/** The preview a 400 carries when the file has errors (nothing saved). */
function previewOf(err: unknown): ScoreImportPreview | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  const body = err.data as Partial<ScoreImportPreview> | null;
  return body && Array.isArray(body.rows) && Array.isArray(body.errors) ? (body as ScoreImportPreview) : null;
}

/** The arm–subject's CSV template: download it, fill it offline, upload it, check the preview, apply. */
export function CsvPanel({ sheet, query, reason }: { sheet: ScoreSheet; query: ScoreSheetQuery; reason: string }) {
  const toast = useToast();
  const [csv, setCsv] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [preview, setPreview] = useState<ScoreImportPreview | null>(null);
  const [failure, setFailure] = useState('');
  const check = usePreviewScoreImport();
  const apply = useApplyScoreImport();
  const body = (text: string) => ({
    ...query,
    session_id: sheet.session.id,
    csv: text,
    ...(reason.trim() ? { reason: reason.trim() } : {}),
  });
  const fail = (err: unknown) => {
    const p = previewOf(err);
    if (p) setPreview(p);
    else setFailure(errorMessage(err, { fallback: ASSESSMENT_MESSAGES.gridFailed, useDetail: true }));
  };

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    setPreview(null);
    setFailure('');
    setFileError(undefined);
    setCsv(null);
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_BYTES) return setFileError(ASSESSMENT_MESSAGES.csvTooBig);
    const text = await file.text();
    if (!text.trim()) return setFileError(ASSESSMENT_MESSAGES.csvEmpty);
    setCsv(text);
    try {
      setPreview(await check.mutateAsync(body(text)));
    } catch (err) {
      fail(err);
    }
  }

  async function onApply() {
    if (!csv) return;
    setFailure('');
    try {
      const done = await apply.mutateAsync(body(csv));
      toast.success(ASSESSMENT_MESSAGES.csvApplied(done.rows.filter((r) => r.change !== 'same').length));
      setPreview(null);
      setCsv(null);
    } catch (err) {
      fail(err);
    }
  }

  async function download() {
    try {
      const name = `scores-${sheet.student_class}-${sheet.subject}-${sheet.term}`.replace(/[^A-Za-z0-9-]+/g, '-');
      downloadBlob(await downloadScoreTemplate(query), `${name}.csv`);
    } catch {
      toast.error(ASSESSMENT_MESSAGES.gridLoadFailed);
    }
  }

  const changes = preview?.rows.filter((r) => r.change !== 'same').length ?? 0;
  return (
    <Card title="Spreadsheet (CSV)" className="mt-5">
      <div className="flex flex-col gap-3">
        {sheet.may_write && (
          <>
            <div>
              <Button variant="secondary" onClick={() => void download()}>
                Download template
              </Button>
            </div>
            <TextField
              label="Upload filled sheet"
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => void onFile(e)}
              error={fileError}
              hint="The template with the scores filled in, at most 1 MB."
            />
          </>
        )}
        {!sheet.may_write && (
          <div>
            <Button variant="secondary" onClick={() => void download()}>
              Download template
            </Button>
          </div>
        )}
        {check.isPending && <p className="text-sm text-slate-600">Checking the file…</p>}
        {failure && <Alert tone="error">{failure}</Alert>}
        {preview && (
          <div className="flex flex-col gap-3" data-testid="import-preview">
            {preview.errors.length > 0 ? (
              <Alert tone="error" title={ASSESSMENT_MESSAGES.csvHasErrors(preview.errors.length)}>
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
              <Alert tone="info">{ASSESSMENT_MESSAGES.csvNothingToApply}</Alert>
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
                        Student
                      </th>
                      <th scope="col" className="px-2 py-1.5">
                        Scores
                      </th>
                      <th scope="col" className="px-2 py-1.5 text-right">
                        Total
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
                        <td data-label="Scores" className="px-2 py-1.5">
                          {describeScores(sheet.components, r.components)}
                        </td>
                        <td data-label="Total" className="px-2 py-1.5 text-right tabular-nums">
                          {r.total}
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
                Apply
              </Button>
            </div>
          </div>
        )}
      </div>
    </Card>
  );
}
