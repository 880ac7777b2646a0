import { useState } from 'react';
import { TERMS, type Term } from '@portal/domain/constants';
import { ATTENDANCE_LABELS, type CarriedImportPreview } from '@portal/domain/attendance';
import { ATTENDANCE_MESSAGES } from '@portal/domain/attendance-rules';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { CsvImportPreview, type PreviewColumn } from '../../../components/csv-import-preview';
import { Alert } from '../../../components/ui/alert';
import { Card } from '../../../components/ui/card';
import { SelectField, TextField } from '../../../components/ui/field';
import { useCsvImport } from '../../../lib/csv-upload';
import { errorMessage, fieldErrorsOf } from '../../../lib/errors';
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
  const [term, setTerm] = useState<Term | ''>('');
  const check = usePreviewCarried();
  const apply = useApplyCarried();
  // A file is read only once a term is chosen (a new term clears it).
  const file = useCsvImport({
    check,
    apply,
    body: (csv) => ({ session_id: sessionId, term: term as Term, csv }),
    rules: { maxBytes: MAX_BYTES, tooBig: ATTENDANCE_MESSAGES.csvTooBig, empty: ATTENDANCE_MESSAGES.csvEmpty },
    failed: (err) => {
      const fields = Object.values(fieldErrorsOf(err)).flat();
      return fields.length ? fields.join(' ') : errorMessage(err, { fallback: M.saveFailed, useDetail: true });
    },
    applied: ATTENDANCE_MESSAGES.csvApplied,
  });

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
            file.reset();
          }}
          placeholder="Select term"
          options={TERMS}
        />
        <TextField
          label={L.carriedFile}
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void file.choose(e, term ? undefined : M.chooseTerm)}
          error={file.fileError}
          hint={L.carriedHint}
        />
        {check.isPending && <p className="text-sm text-slate-600">{M.checking}</p>}
        {file.failure && <Alert tone="error">{file.failure}</Alert>}
        {file.preview && (
          <CsvImportPreview
            preview={file.preview}
            testId="carried-preview"
            studentLabel={L.student}
            columns={COLUMNS}
            changeLabels={CHANGE}
            messages={{ hasErrors: ATTENDANCE_MESSAGES.csvHasErrors, nothingToApply: M.nothingToApply }}
            applyLabel={L.apply}
            applying={apply.isPending}
            onApply={() => void file.apply()}
          />
        )}
      </div>
    </Card>
  );
}
