import { ApiError } from './api-client';

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
