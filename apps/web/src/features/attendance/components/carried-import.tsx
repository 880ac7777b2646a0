import { useState, type ChangeEvent } from 'react';
import { TERMS, type Term } from '@portal/domain/constants';
import { ATTENDANCE_LABELS, type CarriedImportPreview } from '@portal/domain/attendance';
import { ATTENDANCE_MESSAGES } from '@portal/domain/attendance-rules';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { CsvImportPreview, type PreviewColumn } from '../../../components/csv-import-preview';
import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { previewOfRefusal, readCsvFile } from '../../../lib/csv-upload';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
import { useToast } from '../../../lib/toast';
import { useApplyCarried, usePreviewCarried } from '../api';

const MAX_BYTES = 1_000_000;
type PreviewRow = CarriedImportPreview['rows'][number];
const CHANGE: Record<PreviewRow['change'], string> = { new: 'New', update: 'Update', same: 'No change' };
const COLUMNS: PreviewColumn<PreviewRow>[] = [
  { label: ATTENDANCE_LABELS.present, className: 'px-2 py-1.5 text-right tabular-nums', cell: (r) => r.days_present },
  { label: ATTENDANCE_LABELS.absent, className: 'px-2 py-1.5 text-right tabular-nums', cell: (r) => r.days_absent },
];

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
    const p = previewOfRefusal<CarriedImportPreview>(err);
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
    const read = await readCsvFile(file, {
      maxBytes: MAX_BYTES,
      tooBig: ATTENDANCE_MESSAGES.csvTooBig,
      empty: ATTENDANCE_MESSAGES.csvEmpty,
    });
    if ('error' in read) return setFileError(read.error);
    const text = read.text;
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
          <CsvImportPreview
            preview={preview}
            testId="carried-preview"
            studentLabel={L.student}
            columns={COLUMNS}
            changeLabels={CHANGE}
            messages={{ hasErrors: ATTENDANCE_MESSAGES.csvHasErrors, nothingToApply: M.nothingToApply }}
            applyLabel={L.apply}
            applying={apply.isPending}
            onApply={() => void onApply()}
          />
        )}
      </div>
    </Card>
  );
}
