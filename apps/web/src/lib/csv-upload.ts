import { useState, type ChangeEvent } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { useToast } from './toast';

/** One refused line of an uploaded CSV, as the score and carried-attendance imports report it. */
export interface CsvLineError {
  line: number;
  column: string | null;
  message: string;
}

/**
 * The text of a chosen CSV file, or the message to show under the field: the size is checked before
 * the file is read; `empty` (when given) refuses a file of only blanks without asking the server.
 */
export async function readCsvFile(
  file: File,
  rules: { maxBytes: number; tooBig: string; empty?: string },
): Promise<{ text: string } | { error: string }> {
  if (file.size > rules.maxBytes) return { error: rules.tooBig };
  const text = await file.text();
  if (rules.empty !== undefined && !text.trim()) return { error: rules.empty };
  return { text };
}

/** The preview an import's 400 carries when the file has errors (nothing saved), or null for any other failure. */
export function previewOfRefusal<P extends { rows: unknown[]; errors: CsvLineError[] }>(err: unknown): P | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  const body = err.data as Partial<P> | null;
  return body && Array.isArray(body.rows) && Array.isArray(body.errors) ? (body as P) : null;
}

type Preview = { rows: { change: string }[]; errors: CsvLineError[] };

/**
 * The state of a CSV import card: the chosen file read (size and blanks checked), previewed by `check`
 * (nothing saved; a file with errors comes back as a preview too), then applied by `apply`, with a
 * toast of `applied(rows changed)`. `body` is the request for the file's text; `failed` the words of
 * any other failure.
 */
export function useCsvImport<B, P extends Preview>({
  check,
  apply,
  body,
  rules,
  failed,
  applied,
}: {
  check: UseMutationResult<P, Error, B>;
  apply: UseMutationResult<P, Error, B>;
  body: (csv: string) => B;
  rules: { maxBytes: number; tooBig: string; empty: string };
  failed: (err: unknown) => string;
  applied: (changed: number) => string;
}) {
  const toast = useToast();
  const [csv, setCsv] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [preview, setPreview] = useState<P | null>(null);
  const [failure, setFailure] = useState('');
  const fail = (err: unknown) => {
    const p = previewOfRefusal<P>(err);
    if (p) setPreview(p);
    else setFailure(failed(err));
  };
  const reset = () => {
    setPreview(null);
    setFailure('');
    setFileError(undefined);
    setCsv(null);
  };

  /** A file chosen: previewed, or `refusal` shown under the field (and the choice cleared) when given. */
  async function choose(e: ChangeEvent<HTMLInputElement>, refusal?: string) {
    reset();
    const input = e.target;
    const file = input.files?.[0];
    if (!file) return;
    if (refusal) {
      input.value = '';
      return setFileError(refusal);
    }
    const read = await readCsvFile(file, rules);
    if ('error' in read) return setFileError(read.error);
    setCsv(read.text);
    try {
      setPreview(await check.mutateAsync(body(read.text)));
    } catch (err) {
      fail(err);
    }
  }

  async function applyFile() {
    if (!csv) return;
    setFailure('');
    try {
      const done = await apply.mutateAsync(body(csv));
      toast.success(applied(done.rows.filter((r) => r.change !== 'same').length));
      setPreview(null);
      setCsv(null);
    } catch (err) {
      fail(err);
    }
  }

  return { fileError, preview, failure, reset, choose, apply: applyFile };
}
