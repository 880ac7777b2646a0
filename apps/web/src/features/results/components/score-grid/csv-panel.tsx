import { ASSESSMENT_MESSAGES, type ScoreImportPreview, type ScoreSheet, type ScoreSheetQuery } from '@portal/domain/assessment';
import { CsvImportPreview, type PreviewColumn } from '../../../../components/csv-import-preview';
import { Alert } from '../../../../components/ui/alert';
import { Button } from '../../../../components/ui/button';
import { Card } from '../../../../components/ui/card';
import { TextField } from '../../../../components/ui/field';
import { downloadBlob } from '../../../../lib/api-client';
import { useCsvImport } from '../../../../lib/csv-upload';
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
  const check = usePreviewScoreImport();
  const apply = useApplyScoreImport();
  const file = useCsvImport({
    check,
    apply,
    body: (csv) => ({ ...query, session_id: sheet.session.id, csv, ...(reason.trim() ? { reason: reason.trim() } : {}) }),
    rules: { maxBytes: MAX_BYTES, tooBig: ASSESSMENT_MESSAGES.csvTooBig, empty: ASSESSMENT_MESSAGES.csvEmpty },
    failed: (err) => errorMessage(err, { fallback: ASSESSMENT_MESSAGES.gridFailed, useDetail: true }),
    applied: ASSESSMENT_MESSAGES.csvApplied,
  });

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
              onChange={(e) => void file.choose(e)}
              error={file.fileError}
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
        {file.failure && <Alert tone="error">{file.failure}</Alert>}
        {file.preview && (
          <CsvImportPreview
            preview={file.preview}
            testId="import-preview"
            studentLabel="Student"
            columns={columns}
            changeLabels={CHANGE}
            messages={{ hasErrors: ASSESSMENT_MESSAGES.csvHasErrors, nothingToApply: ASSESSMENT_MESSAGES.csvNothingToApply }}
            applyLabel="Apply"
            applying={apply.isPending}
            onApply={() => void file.apply()}
          />
        )}
      </div>
    </Card>
  );
}
