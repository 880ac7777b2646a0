import type { ReactNode } from 'react';
import type { CsvLineError } from '../lib/csv-upload';
import { Alert } from './ui/alert';
import { Button } from './ui/button';
import { ScrollTable } from './ui/scroll-table';

interface PreviewRow {
  line: number;
  admission_number: string;
  name: string;
  change: string;
}

/** A column of the preview between the student and the change: its label, cell classes and value. */
export interface PreviewColumn<R> {
  label: string;
  className: string;
  cell: (row: R) => ReactNode;
}

/**
 * What an uploaded CSV would do (score and carried-attendance imports): the file's errors by line, or
 * "nothing to apply", a row per student with its change, and the apply button (off while the file
 * has errors or changes nothing).
 */
export function CsvImportPreview<R extends PreviewRow>({
  preview,
  testId,
  studentLabel,
  columns,
  changeLabels,
  messages,
  applyLabel,
  applying,
  onApply,
}: {
  preview: { rows: R[]; errors: CsvLineError[] };
  testId: string;
  studentLabel: string;
  columns: PreviewColumn<R>[];
  changeLabels: Record<R['change'], string>;
  messages: { hasErrors: (n: number) => string; nothingToApply: string };
  applyLabel: string;
  applying: boolean;
  onApply: () => void;
}) {
  const changes = preview.rows.filter((r) => r.change !== 'same').length;
  return (
    <div className="flex flex-col gap-3" data-testid={testId}>
      {preview.errors.length > 0 ? (
        <Alert tone="error" title={messages.hasErrors(preview.errors.length)}>
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
        <Alert tone="info">{messages.nothingToApply}</Alert>
      ) : null}
      {preview.rows.length > 0 && (
        <ScrollTable
          label="Preview of the file"
          className="max-h-96 overflow-auto rounded-lg border border-slate-200"
          tableClassName="stack-sm w-full text-left text-sm"
          tableLabel="Rows in the file"
        >
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-2 py-1.5">
                {studentLabel}
              </th>
              {columns.map((c) => (
                <th key={c.label} scope="col" className={c.className}>
                  {c.label}
                </th>
              ))}
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
                {columns.map((c) => (
                  <td key={c.label} data-label={c.label} className={c.className}>
                    {c.cell(r)}
                  </td>
                ))}
                <td data-label="Change" className="px-2 py-1.5">
                  {changeLabels[r.change as R['change']]}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <div>
        <Button onClick={onApply} loading={applying} disabled={preview.errors.length > 0 || changes === 0}>
          {applyLabel}
        </Button>
      </div>
    </div>
  );
}
