/**
 * An error with the exact HTTP status and DRF-shaped body to send (and headers, such as retry-after).
 * It lives in lib/ (it needs nothing) so that lib/ throws it without importing http/, the layer above;
 * `http/errors.ts` re-exports it with its helpers (`badRequest`, `forbidden`, ...) and sends it.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${statusCode}`);
  }
}
