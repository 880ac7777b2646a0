import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { GENERAL_MESSAGES, STORAGE_FULL_CODE, type FieldErrors } from '@portal/domain';
import { isStorageFull } from '../db/errors';
import type { StorageStatus } from '../lib/storage-status';
import { HttpError } from '../lib/http-error';

export { HttpError };

export const badRequest = (fields: FieldErrors) => new HttpError(400, fields);
export const nonFieldError = (message: string) => new HttpError(400, { non_field_errors: [message] });
export const unauthorized = (detail: string) => new HttpError(401, { detail });
export const forbidden = (detail: string, code?: string) => new HttpError(403, code ? { detail, code } : { detail });
export const notFound = (detail: string = GENERAL_MESSAGES.notFound) => new HttpError(404, { detail });
export const conflict = (detail: string) => new HttpError(409, { detail });

type Issue = { path: PropertyKey[]; message: string };

/** Zod issues -> `{field: [messages], non_field_errors: [...]}`; nested paths use dots (`subjects.0.score`). */
export function fieldErrorsFromIssues(issues: readonly Issue[]): FieldErrors {
  const out: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : 'non_field_errors';
    const list = (out[key] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return out;
}

function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'SQLITE_BUSY', '57P01', '57P03', '53300', '08006', '08001'].includes(e.code ?? '') ||
    /timeout exceeded when trying to connect|Connection terminated/i.test(e.message ?? '')
  );
}

export function registerErrorHandling(app: FastifyInstance, storage?: StorageStatus): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      if (error.headers) void reply.headers(error.headers);
      return reply.status(error.statusCode).send(error.body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: (v.instancePath || '').split('/').filter(Boolean),
        message: v.message ?? GENERAL_MESSAGES.badRequest,
      }));
      // Query-string and path problems are not form fields: name them anyway for the caller.
      return reply.status(400).send(fieldErrorsFromIssues(issues));
    }
    const fe = error as FastifyError;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send({ detail: GENERAL_MESSAGES.bodyTooLarge });
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return reply.status(415).send({ detail: 'Unsupported media type.' });
    if (fe.statusCode === 429) {
      // The per-address limiter builds a login envelope for sign-in routes: keep it, so the login
      // screen shows the 'too many attempts' message (it reads errors.non_field_errors[0]).
      const errors = (error as { errors?: unknown }).errors;
      return reply
        .status(429)
        .send(errors ? { status: 'error', data: null, message: fe.message, errors, detail: fe.message } : { detail: fe.message });
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply
        .status(fe.statusCode)
        .send(fe.statusCode === 400 ? { non_field_errors: [GENERAL_MESSAGES.badRequest] } : { detail: fe.message });
    }
    if (isStorageFull(error)) {
      // The disk is full: nothing was saved, and retrying later may work (issue 37.11). The cause is
      // logged once per episode; readiness reports it meanwhile.
      const starts = storage ? storage.reportFull() : true;
      if (starts)
        request.log.error(
          { event: 'storage_full', err: { code: fe.code, message: fe.message } },
          'storage full: writes fail until space is freed',
        );
      return reply.status(503).send({ detail: GENERAL_MESSAGES.storageFull, code: STORAGE_FULL_CODE });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: { code: fe.code, message: fe.message } }, 'database unavailable');
      return reply.status(503).send({ detail: GENERAL_MESSAGES.serviceUnavailable });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: GENERAL_MESSAGES.serverError });
  });
}
