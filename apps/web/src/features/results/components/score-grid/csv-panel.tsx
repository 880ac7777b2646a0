import { useState, type ChangeEvent } from 'react';
import { ASSESSMENT_MESSAGES, type ScoreImportPreview, type ScoreSheet, type ScoreSheetQuery } from '@portal/domain/assessment';
import { CsvImportPreview, type PreviewColumn } from '../../../../components/csv-import-preview';
import { Alert } from '../../../../components/ui/alert';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { TextField } from '../../../../components/ui/field';
import { downloadBlob } from '../../../../lib/api-client';
import { previewOfRefusal, readCsvFile } from '../../../../lib/csv-upload';
import { errorMessage } from '../../../../lib/errors';
import { useToast } from '../../../../lib/toast';
import { downloadScoreTemplate, useApplyScoreImport, usePreviewScoreImport } from '../../score-sheet-api';
import { describeScores } from './grid-model';

const MAX_BYTES = 1_000_000;
type PreviewRow = ScoreImportPreview['rows'][number];
const CHANGE: Record<PreviewRow['change'], string> = {
  new: 'New',
  update: 'Update',
  same: 'No change',
  clear: 'Clear',
};

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
    const p = previewOfRefusal<ScoreImportPreview>(err);
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
    const read = await readCsvFile(file, {
      maxBytes: MAX_BYTES,
      tooBig: ASSESSMENT_MESSAGES.csvTooBig,
      empty: ASSESSMENT_MESSAGES.csvEmpty,
    });
    if ('error' in read) return setFileError(read.error);
    const text = read.text;
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

  const columns: PreviewColumn<PreviewRow>[] = [
    { label: 'Scores', className: 'px-2 py-1.5', cell: (r) => describeScores(sheet.components, r.components) },
    { label: 'Total', className: 'px-2 py-1.5 text-right tabular-nums', cell: (r) => r.total },
  ];
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
          <CsvImportPreview
            preview={preview}
            testId="import-preview"
            studentLabel="Student"
            columns={columns}
            changeLabels={CHANGE}
            messages={{ hasErrors: ASSESSMENT_MESSAGES.csvHasErrors, nothingToApply: ASSESSMENT_MESSAGES.csvNothingToApply }}
            applyLabel="Apply"
            applying={apply.isPending}
            onApply={() => void onApply()}
          />
        )}
      </div>
    </Card>
  );
}
