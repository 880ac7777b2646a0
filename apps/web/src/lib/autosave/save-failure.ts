import { GENERAL_MESSAGES } from '@portal/domain/http';
import { ApiError } from '../api-client';
import { errorCode, firstServerMessage } from '../errors';
import type { SaveFailure } from './row-outbox';

/**
 * What a failed row save means, one rule for every sheet: the sheet's own 409 is a conflict (with
 * the row as stored now, when the body carries it); no network, a timeout or the server's trouble
 * (5xx, 429) is retried on its own; anything else is a refusal in the server's words.
 */
export function saveFailure<S>(
  err: unknown,
  {
    conflictCode,
    theirs,
    fallback,
  }: {
    conflictCode: string;
    /** The row as stored now, read from the 409's body. */
    theirs?: (body: unknown) => S;
    /** The screen's words when the server gave none. */
    fallback: string;
  },
): SaveFailure<S> {
  if (err instanceof ApiError && err.status === 409 && errorCode(err) === conflictCode)
    return { kind: 'conflict', message: firstServerMessage(err) ?? fallback, ...(theirs ? { theirs: theirs(err.data) } : {}) };
  if (err instanceof ApiError && (err.kind === 'network' || err.kind === 'timeout'))
    return { kind: 'transient', message: GENERAL_MESSAGES.networkError };
  if (err instanceof ApiError && (err.status >= 500 || err.status === 429))
    return { kind: 'transient', message: err.detail ?? GENERAL_MESSAGES.serverError };
  return { kind: 'refused', message: firstServerMessage(err) ?? fallback };
}
