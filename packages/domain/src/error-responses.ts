import { z } from 'zod';
import { STORAGE_FULL_CODE } from './http';

/**
 * The error envelopes every API route can answer (issue 37.12, decision 052): the server adds them
 * to each route's documented answers (apps/server/src/http/error-envelopes.ts). Loose objects: an
 * error may carry more (a conflict's `current` row, a fee gate's balance…), all of it is sent.
 */

/** 400: which field is wrong and why (`non_field_errors` for the request as a whole). */
export const validationErrorsSchema = z
  .record(z.string(), z.array(z.string()))
  .describe('Field name (dots for nested fields, `non_field_errors` for the whole request) → messages to show.')
  .meta({ id: 'ValidationErrors' });

/** 401, 403, 404, 409, 413, 415, 429 (and 400 for a refusal that names no field): a message to show, and a code a client may act on. */
export const errorDetailSchema = z
  .looseObject({
    detail: z.string().describe('A message to show.'),
    code: z.string().optional().describe('A machine-readable reason, where a client acts on it.'),
  })
  .meta({ id: 'ErrorDetail' });

/** 400 for a file (a CSV import) refused: each row's problem (by `line`/`column` or `row`/`field`), nothing applied. */
export const fileRowErrorsSchema = z
  .looseObject({
    non_field_errors: z.array(z.string()).optional(),
    errors: z.array(z.looseObject({ message: z.string() })).describe("Each refused row's place and message."),
  })
  .meta({ id: 'FileRowErrors' });

/** 400: field errors, a refusal with a message, or a file's row errors. */
export const badRequestSchema = z.union([validationErrorsSchema, errorDetailSchema, fileRowErrorsSchema]).meta({ id: 'BadRequest' });

/** 503: the database or a provider is unreachable, or the disk is full (`code: storage_full`: nothing was saved). */
export const serviceUnavailableSchema = z
  .looseObject({
    detail: z.string().describe('A message to show.'),
    code: z
      .string()
      .optional()
      .describe(`\`${STORAGE_FULL_CODE}\` when the server's disk is full; other codes where a client acts on them.`),
  })
  .meta({ id: 'ServiceUnavailable' });

/** The sign-in routes' envelope on failure (the login screen shows `errors.non_field_errors[0]`). */
export const signInErrorSchema = z
  .looseObject({
    status: z.literal('error'),
    data: z.null(),
    message: z.string(),
    errors: validationErrorsSchema,
    detail: z.string().optional(),
  })
  .meta({ id: 'SignInError' });

/** A sign-in route's 400: the envelope (a field is missing or wrong), or a plain 400 (a body that is not JSON, a NUL character). */
export const signInBadRequestSchema = z.union([signInErrorSchema, badRequestSchema]).meta({ id: 'SignInBadRequest' });
