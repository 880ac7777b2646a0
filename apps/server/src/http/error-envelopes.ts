import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ZodType } from 'zod';
import { badRequestSchema, errorDetailSchema, serviceUnavailableSchema, signInBadRequestSchema, signInErrorSchema } from '@portal/domain';

/**
 * Every API route documents the error envelopes http/errors.ts sends (issue 37.12, decision 052),
 * as shared components: a route's own schema for a status wins. The serializer sends error bodies
 * as they are (never filtered); tests check each one against its envelope (response-serializer.ts).
 */
const DESCRIPTIONS: Record<string, string> = {
  400: 'The request is not valid: field → messages, or a refusal with a message',
  401: 'Not signed in, or the sign-in has expired',
  403: 'Signed in, but not allowed',
  404: 'Not found',
  409: 'In conflict with the stored state (changed by someone else, not allowed now)',
  413: 'The request body or file is too large (a message, or field errors)',
  415: 'Unsupported media type',
  429: 'Too many requests: try again later',
  503: 'Unavailable for now (the database, the sign-in limiter or a provider); `code: storage_full` when the disk is full and nothing was saved',
};

const isSignIn = (url: string) => /\/login\/$/.test(url);

/** The envelopes a route answers with, by status. */
export function errorEnvelopes(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): Record<string, ZodType> {
  const methods = ([] as string[]).concat(route.method);
  const writes = methods.some((m) => m !== 'GET' && m !== 'HEAD');
  const signIn = isSignIn(route.url);
  const auth = route.config?.auth;
  // A sign-in route's refusals use the login envelope (the login screen reads errors.non_field_errors);
  // what Fastify or the database refuses (a body too large, an outage) has the plain envelope.
  const refusal = signIn ? signInErrorSchema : errorDetailSchema;
  return {
    400: signIn ? signInBadRequestSchema : badRequestSchema,
    ...(auth === 'public' ? {} : { 401: refusal }),
    403: refusal,
    404: errorDetailSchema,
    ...(writes ? { 409: errorDetailSchema, 413: badRequestSchema, 415: errorDetailSchema } : {}),
    429: refusal,
    503: serviceUnavailableSchema,
  };
}

/** The components of the envelopes (their `$ref`s get the status's description in the document). */
export const ENVELOPE_IDS = ['BadRequest', 'ErrorDetail', 'ServiceUnavailable', 'SignInError', 'SignInBadRequest'];

/** The description of an error status when its answer is one of the envelopes. */
export function errorDescription(status: string, ref: unknown): string | undefined {
  const id = typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : undefined;
  return id && ENVELOPE_IDS.includes(id) ? DESCRIPTIONS[status] : undefined;
}

/** Adds the envelopes to every documented API route (not the SPA, the docs or the metrics). */
export function registerErrorEnvelopes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const schema = route.schema ?? {};
    if ((schema as { hide?: boolean }).hide) return;
    route.schema = { ...schema, response: { ...errorEnvelopes(route), ...(schema.response as object | undefined) } };
  });
}
