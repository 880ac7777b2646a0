import { GENERAL_MESSAGES } from '@portal/domain/http';
import { ApiError } from './api-client';

/** The messages a screen gives for a failed call; every one falls back to `fallback`. */
export interface ErrorMessages {
  fallback: string;
  /** No answer (network down or timed out); default: the general network message. */
  network?: string;
  /** 401 (the session could not be renewed); default: "Unauthorized access. Please login again." */
  unauthorized?: string;
  /** 404. */
  notFound?: string;
  /** A message per the `code` of the server's answer (e.g. NOT_RELEASED_CODE). */
  byCode?: Record<string, string>;
  /** Use the server's own words (detail, first non-field error) when it gives them. */
  useDetail?: boolean;
}

/** The `code` of an error answer, if any. */
export function errorCode(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const code = (err.data as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The one error-to-message rule of the client: what a screen shows when a call fails, in the
 * documented words. A conflict always says why (e.g. a withdrawn student's record is read-only).
 */
export function errorMessage(err: unknown, m: ErrorMessages): string {
  if (!(err instanceof ApiError)) return m.fallback;
  if (err.kind === 'network' || err.kind === 'timeout') return m.network ?? GENERAL_MESSAGES.networkError;
  const code = errorCode(err);
  if (code && m.byCode?.[code]) return m.byCode[code];
  if (err.status === 401) return m.unauthorized ?? GENERAL_MESSAGES.unauthorized;
  if (err.status === 404 && m.notFound) return m.notFound;
  if (err.status === 409 && err.detail) return err.detail;
  if (m.useDetail && (err.detail ?? err.nonFieldError)) return (err.detail ?? err.nonFieldError)!;
  return m.fallback;
}

/** What the server said about a refused change, for a toast: first non_field_errors, else a 403/409 detail. */
export function serverMessage(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  return err.nonFieldError ?? (err.status === 409 || err.status === 403 ? err.detail : undefined);
}

/** The first message of a refused save: a field's, else the non-field one, else the detail. */
export function firstServerMessage(err: unknown): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  return Object.values(err.fieldErrors)[0]?.[0] ?? err.nonFieldError ?? err.detail;
}

/**
 * Field errors of a 400 (none otherwise). `leaf` keys them by the form's field names
 * (`profile_data.tax_id` -> `tax_id`).
 */
export function fieldErrorsOf(err: unknown, { leaf = false } = {}): Record<string, string[]> {
  if (!(err instanceof ApiError) || err.status !== 400) return {};
  if (!leaf) return err.fieldErrors;
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(err.fieldErrors)) out[k.split('.').pop()!] = v;
  return out;
}
