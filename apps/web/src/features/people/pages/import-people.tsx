import { useState, type ChangeEvent } from 'react';
import {
  FIELD_LABELS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  PEOPLE_MESSAGES,
  STAFF_CSV_REQUIRED,
  STUDENT_CSV_REQUIRED,
  importButtonLabel,
  importDone,
  type ImportIssue,
  type ImportPreview,
  type ImportResult,
  PEOPLE_SCREEN_MESSAGES,
} from '@portal/domain/people-constants';
import { PageLayout } from '../../../components/layout/app-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/field';
import { HeaderRow } from '../../../components/ui/scroll-table';
import { ApiError } from '../../../lib/api-client';
import { readCsvFile } from '../../../lib/csv-upload';
import { currentClassNames, useClasses } from '../../../lib/school-lists';
import { useToast } from '../../../lib/toast';
import { downloadCsv, previewImport, useImport, type ImportKind } from '../api';
import { SignInSlips } from '../components/sign-in-slips';
import { rememberPasswords } from '../new-sign-ins-store';

function IssueTable({ caption, issues }: { caption: string; issues: ImportIssue[] }) {
  if (!issues.length) return null;
  return (
    <div className="max-h-96 overflow-auto rounded-lg border border-slate-200">
      <table className="w-full text-left text-sm">
        <caption className="bg-slate-50 px-3 py-2 text-left font-semibold text-slate-800">
          {caption} ({issues.length.toLocaleString('en-NG')})
        </caption>
        <HeaderRow labels={['Row', 'Field', 'Problem']} rowClassName="bg-slate-50 text-slate-700" cellClassName="px-3 py-1.5" />
        <tbody className="divide-y divide-slate-100">
          {issues.slice(0, 500).map((i, k) => (
            <tr key={`${i.row}-${i.field}-${k}`}>
              <td className="px-3 py-1.5 font-mono">{i.row}</td>
              <td className="px-3 py-1.5">{FIELD_LABELS[i.field] ?? i.field}</td>
              <td className="px-3 py-1.5">{i.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {issues.length > 500 && <p className="px-3 py-2 text-sm text-slate-600">{PEOPLE_SCREEN_MESSAGES.importShowingFirst}</p>}
    </div>
  );
}

/** /import/students (admin and staff) and /import/staff (admin): template, preview, all-or-nothing import, slips. */
export function ImportPage({ kind }: { kind: ImportKind }) {
  const what = kind === 'students' ? 'Students' : 'Staff';
  const toast = useToast();
  const classNames = currentClassNames(useClasses().data);
  const [csv, setCsv] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [issues, setIssues] = useState<{ errors: ImportIssue[]; duplicates: ImportIssue[] } | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const run = useImport(kind);
  const required = (kind === 'students' ? STUDENT_CSV_REQUIRED : STAFF_CSV_REQUIRED).map((c) => FIELD_LABELS[c] ?? c).join(', ');

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    setPreview(null);
    setIssues(null);
    setBanner(null);
    setFileError(undefined);
    setCsv(null);
    const file = e.target.files?.[0];
    if (!file) return;
    const read = await readCsvFile(file, { maxBytes: IMPORT_MAX_BYTES, tooBig: PEOPLE_SCREEN_MESSAGES.importFileTooLarge });
    if ('error' in read) return setFileError(read.error);
    setCsv(read.text);
  }

  function showFailure(err: unknown) {
    if (err instanceof ApiError && err.status === 400) {
      const body = err.data as { non_field_errors?: string[]; errors?: ImportIssue[]; duplicates?: ImportIssue[] };
      setBanner(body.non_field_errors?.[0] ?? PEOPLE_MESSAGES.importHasErrors);
      if (body.errors || body.duplicates) setIssues({ errors: body.errors ?? [], duplicates: body.duplicates ?? [] });
    } else setBanner(err instanceof ApiError && err.detail ? err.detail : PEOPLE_MESSAGES.networkError);
  }

  async function check() {
    if (!csv) {
      setFileError(PEOPLE_SCREEN_MESSAGES.importChooseFile);
      return;
    }
    setChecking(true);
    setBanner(null);
    try {
      const p = await previewImport(kind, csv);
      setPreview(p);
      setIssues({ errors: p.errors, duplicates: p.duplicates });
    } catch (err) {
      setPreview(null);
      showFailure(err);
    } finally {
      setChecking(false);
    }
  }

  async function doImport() {
    if (!csv) return;
    setBanner(null);
    try {
      const r = await run.mutateAsync(csv);
      rememberPasswords(r.accounts);
      setResult(r);
      setCsv(null);
      setPreview(null);
      setIssues(null);
    } catch (err) {
      showFailure(err);
    }
  }

  if (result) {
    return (
      <PageLayout title={`Import ${what}`}>
        <div className="flex flex-col gap-4">
          <div className="no-print flex flex-col gap-3">
            <Alert tone="success">{importDone(result.created, kind)}</Alert>
            <Alert tone="warning" title={PEOPLE_SCREEN_MESSAGES.importSlipsTitle}>
              {PEOPLE_SCREEN_MESSAGES.importSlipsExplain}
            </Alert>
            <div>
              <Button variant="secondary" onClick={() => setResult(null)}>
                Import another file
              </Button>
            </div>
          </div>
          <SignInSlips accounts={result.accounts} kind={kind === 'students' ? 'student' : 'staff'} />
        </div>
      </PageLayout>
    );
  }

  const ready = preview && preview.errors.length === 0 && preview.duplicates.length === 0 && preview.valid > 0;
  return (
    <PageLayout title={`Import ${what}`} width="max-w-4xl">
      <div className="flex flex-col gap-5">
        <Card title="1. Download the template">
          <p className="mb-3 text-sm text-slate-700">
            One row per {kind === 'students' ? 'student' : 'staff member'}, up to {IMPORT_MAX_ROWS.toLocaleString('en-NG')} rows. Required
            columns: {required}. Dates as YYYY-MM-DD (or DD/MM/YYYY); gender M, F or O
            {kind === 'staff'
              ? '; marital status S, M, D or W'
              : // Every current arm, from the school's own list (renamed arms as they are now named).
                `; class as one of the school's classes${classNames.length ? `: ${classNames.join(', ')}` : ''}`}
            . Every account gets a one-time password.
          </p>
          <Button
            variant="secondary"
            onClick={() =>
              void downloadCsv(`/${kind}/import/template/`, `${kind}-template.csv`).catch(() =>
                toast.error(PEOPLE_SCREEN_MESSAGES.downloadFailed),
              )
            }
          >
            Download template
          </Button>
        </Card>
        <Card title="2. Check your file">
          <div className="flex flex-col gap-3">
            <TextField label="CSV file" type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e)} error={fileError} />
            <div>
              <Button onClick={() => void check()} loading={checking} disabled={!csv}>
                Check file
              </Button>
            </div>
          </div>
        </Card>
        {banner && <Alert tone="error">{banner}</Alert>}
        {preview && (
          <Card title="3. Preview">
            <p className="mb-3" data-testid="import-summary">
              {preview.rows.toLocaleString('en-NG')} rows in the file; {preview.valid.toLocaleString('en-NG')} ready to import.
            </p>
            {ready ? (
              <Alert tone="success" className="mb-3">
                {PEOPLE_SCREEN_MESSAGES.importNoProblems}
              </Alert>
            ) : (
              <Alert tone="warning" className="mb-3">
                {PEOPLE_SCREEN_MESSAGES.importFixEverything}
              </Alert>
            )}
            {preview.sample.length > 0 && (
              <div className="mb-3 overflow-auto rounded-lg border border-slate-200">
                <table className="w-full text-left text-sm">
                  <caption className="bg-slate-50 px-3 py-2 text-left font-semibold text-slate-800">First rows ready to import</caption>
                  <HeaderRow
                    labels={[
                      'Row',
                      ...['first_name', 'last_name', 'email', kind === 'students' ? 'student_class' : 'designation'].map(
                        (c) => FIELD_LABELS[c] ?? c,
                      ),
                    ]}
                    rowClassName="bg-slate-50 text-slate-700"
                    cellClassName="px-3 py-1.5"
                  />
                  <tbody className="divide-y divide-slate-100">
                    {preview.sample.map((r, i) => (
                      <tr key={i}>
                        <td className="px-3 py-1.5 font-mono">{r.row}</td>
                        <td className="px-3 py-1.5">{r.first_name}</td>
                        <td className="px-3 py-1.5">{r.last_name}</td>
                        <td className="px-3 py-1.5">{r.email}</td>
                        <td className="px-3 py-1.5">{kind === 'students' ? r.student_class : r.designation}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Button onClick={() => void doImport()} loading={run.isPending} disabled={!ready}>
              {run.isPending ? 'Importing...' : importButtonLabel(preview.valid, kind)}
            </Button>
          </Card>
        )}
        {issues && (
          <div className="flex flex-col gap-3">
            <IssueTable caption="Errors" issues={issues.errors} />
            <IssueTable caption="Duplicates" issues={issues.duplicates} />
          </div>
        )}
      </div>
    </PageLayout>
  );
}

export function ImportStudentsPage() {
  return <ImportPage kind="students" />;
}
export function ImportStaffPage() {
  return <ImportPage kind="staff" />;
}
