import { PASSWORD_CHANGE_REQUIRED_CODE } from '@portal/domain/auth-constants';
import type { Role } from '@portal/domain/constants';
import { clearSession, getSession, setMustChangePassword, signingOutHere, tokens, LOGIN_OF_ROLE } from './auth-store';

/**
 * The one HTTP client of the web app: JSON in and out, bearer token, silent refresh on 401
 * (one refresh at a time), timeouts, and typed errors the screens turn into the spec's messages.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly data: unknown,
    readonly kind: 'http' | 'timeout' | 'network' = 'http',
  ) {
    super(`API ${kind} error ${status}`);
  }
  /** `detail` of a DRF error body, if any. */
  get detail(): string | undefined {
    const d = (this.data as { detail?: unknown } | null)?.detail;
    return typeof d === 'string' ? d : undefined;
  }
  /** First `non_field_errors` message, if any (also inside a login envelope's `errors`). */
  get nonFieldError(): string | undefined {
    const body = this.data as { non_field_errors?: unknown; errors?: { non_field_errors?: unknown } } | null;
    const list = body?.non_field_errors ?? body?.errors?.non_field_errors;
    return Array.isArray(list) && typeof list[0] === 'string' ? list[0] : undefined;
  }
  /** Per-field messages of a 400. */
  get fieldErrors(): Record<string, string[]> {
    if (this.status !== 400 || !this.data || typeof this.data !== 'object') return {};
    const out: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(this.data as Record<string, unknown>)) {
      if (k === 'non_field_errors' || k === 'detail') continue;
      if (Array.isArray(v)) out[k] = v.map(String);
      else if (typeof v === 'string') out[k] = [v];
    }
    return out;
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** Milliseconds; none by default, 10 s on the screens that say so. */
  timeout?: number;
  /** Skip the bearer header (sign-in calls). */
  anonymous?: boolean;
  signal?: AbortSignal;
  /** Expect a non-JSON body (PDF, CSV) and return a Blob. */
  blob?: boolean;
  /** Sent as Idempotency-Key: the server records a money request once per key (see lib/idempotency). */
  idempotencyKey?: string;
  /** Sent as If-Match: the entity tag the caller's copy came with; the server refuses a save over a changed one. */
  ifMatch?: string;
  /** Called with a successful answer's headers (an ETag to send back as If-Match). */
  onHeaders?: (headers: Headers) => void;
}

/**
 * How a request leaves: the browser's fetch. The server's page renderer (src/ssr/render-page.tsx)
 * swaps in one that answers inside the server, as the signed-in user of the page being rendered.
 */
let transport: typeof fetch = (input, init) => fetch(input, init);
export function setTransport(t: typeof fetch): void {
  transport = t;
}

let refreshing: Promise<boolean> | null = null;

async function refreshTokens(): Promise<boolean> {
  const refresh = tokens.refresh();
  if (!refresh) return false;
  refreshing ??= (async () => {
    try {
      const res = await fetch('/api/token/refresh/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh }),
      });
      if (!res.ok) return false;
      const pair = (await res.json()) as { access: string; refresh: string };
      tokens.set(pair.access, pair.refresh);
      return true;
    } catch {
      return false;
    } finally {
      setTimeout(() => (refreshing = null), 0);
    }
  })();
  return refreshing;
}

/**
 * Where a user whose session ended is sent: their role's sign-in, or the role chooser. `role` is
 * the one known before the refresh: calls refused together share one failed refresh, and the
 * first to get here clears the session the others would read.
 */
export function sessionExpiredRedirect(role: Role | undefined = getSession()?.role): void {
  clearSession();
  const target = role ? LOGIN_OF_ROLE[role] : '/login';
  if (window.location.pathname === target) return;
  // Come back to this page after signing in again; the login page checks the path.
  const here = window.location.pathname + window.location.search;
  const onLoginPage = ['/login', ...Object.values(LOGIN_OF_ROLE)].includes(window.location.pathname);
  window.location.assign(`${target}?expired=1${onLoginPage ? '' : `&next=${encodeURIComponent(here)}`}`);
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  // Any origin: only the path and query are kept (and the server's renderer has no window).
  const url = new URL(path.startsWith('/api') ? path : `/api${path}`, 'http://portal.invalid');
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  return url.pathname + url.search;
}

async function send<T>(method: string, path: string, opts: RequestOptions, retried = false): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const access = tokens.access();
  if (access && !opts.anonymous) headers.authorization = `Bearer ${access}`;
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  if (opts.ifMatch) headers['if-match'] = opts.ifMatch;
  const controller = new AbortController();
  const timer = opts.timeout ? setTimeout(() => controller.abort('timeout'), opts.timeout) : undefined;
  opts.signal?.addEventListener('abort', () => controller.abort(opts.signal?.reason));
  let res: Response;
  try {
    res = await transport(buildUrl(path, opts.query), {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: controller.signal,
    });
  } catch (err) {
    if (controller.signal.aborted && controller.signal.reason === 'timeout') throw new ApiError(0, null, 'timeout');
    if (controller.signal.aborted) throw err;
    throw new ApiError(0, null, 'network');
  } finally {
    if (timer) clearTimeout(timer);
  }
  if (res.status === 401 && !opts.anonymous && !retried && tokens.refresh()) {
    const role = getSession()?.role;
    if (await refreshTokens()) return send<T>(method, path, opts, true);
    // Refused because this page is signing out (the server revoked the tokens first): not expired.
    if (!signingOutHere()) sessionExpiredRedirect(role);
  }
  if (res.ok) opts.onHeaders?.(res.headers);
  if (opts.blob && res.ok) return (await res.blob()) as T;
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!res.ok) {
    if (res.status === 403 && (data as { code?: string } | null)?.code === PASSWORD_CHANGE_REQUIRED_CODE) {
      setMustChangePassword(true);
      if (window.location.pathname !== '/change-password') window.location.assign('/change-password');
    }
    throw new ApiError(res.status, data);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, opts: RequestOptions = {}) => send<T>('GET', path, opts),
  post: <T>(path: string, body?: unknown, opts: RequestOptions = {}) => send<T>('POST', path, { ...opts, body }),
  put: <T>(path: string, body?: unknown, opts: RequestOptions = {}) => send<T>('PUT', path, { ...opts, body }),
  patch: <T>(path: string, body?: unknown, opts: RequestOptions = {}) => send<T>('PATCH', path, { ...opts, body }),
  delete: <T>(path: string, opts: RequestOptions = {}) => send<T>('DELETE', path, opts),
};

/** Saves a Blob as a download (PDF report cards, receipts, CSV exports). */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Opens a Blob (a scan, a PDF) in a new tab: fetched with the bearer token, which a plain link cannot send. */
export function openBlob(blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const tab = window.open(url, '_blank');
  // A blocked pop-up still gets the file, as a download.
  if (!tab) downloadBlob(blob, 'scan');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
