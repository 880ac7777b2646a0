import type { FastifyBaseLogger, FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';
import { z } from 'zod';
import { $ZodType } from 'zod/v4/core';

/**
 * Responses leave the server through their route's zod schema (issue 37.12, decision 052).
 *
 * - A 2xx answer with a zod schema is written by fast-json-stringify from the schema's JSON Schema
 *   (zod's `toJSONSchema`, output side): only declared fields leave the server, and it is faster than
 *   JSON.stringify. A schema it cannot take (a transform, a date, a custom type) is written by zod's
 *   encode + JSON.stringify instead, logged once.
 * - Error answers (4xx/5xx) keep today's bytes (JSON.stringify): their envelopes (error-envelopes.ts)
 *   document them, they never filter them.
 * - `check` (tests): every answer is also checked against the schema, and the check throws (so the
 *   test gets a 500 and the reason on stderr) when the answer does not parse, or when what would be
 *   sent differs from JSON.stringify of what the route returned: a field the schema does not declare
 *   (dropped), a null where the schema has none, a number sent as a string, a union's other branch…
 *   whatever fast-json-stringify would coerce.
 * - A schema that is not zod (a binary answer's `{ type: 'string', format: 'binary' }`, see
 *   binary-response.ts) is never used for a JSON body: such a body goes out as JSON.stringify.
 */
export interface ResponseSerializerOptions {
  /** Tests: check every answer against its schema (see above). */
  check: boolean;
  log?: FastifyBaseLogger;
}

type Stringify = (data: unknown) => string;

interface Compiled {
  /** fast-json-stringify's function, or undefined when the schema needs the zod path. */
  fast?: Stringify;
  /** Why the zod path is used (logged once). */
  fallback?: string;
}

/** Compiled once per schema object for the process (the error envelopes are shared by every route). */
const compiled = new WeakMap<$ZodType, Compiled>();
const logged = new WeakSet<$ZodType>();

export class ResponseMismatchError extends Error {
  override name = 'ResponseMismatchError';
}

/** The JSON Schema fast-json-stringify compiles for a zod schema (throws for what JSON Schema cannot express). */
export function serializationJsonSchema(schema: $ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'throw', cycles: 'ref', reused: 'inline' });
  return openObjects(json) as Record<string, unknown>;
}

/**
 * `additionalProperties: false` (zod's output side of a plain object) made fast-json-stringify refuse
 * a union branch holding one extra field (it throws "does not match schema definition"), where zod
 * strips the field. Without it, fast-json-stringify writes only the declared fields too, and picks a
 * union's first matching branch as zod does. A record's `additionalProperties: <schema>` stays.
 */
function openObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openObjects);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'additionalProperties' && child === false) continue;
    out[key] = openObjects(child);
  }
  return out;
}

function compile(schema: $ZodType): Compiled {
  let c = compiled.get(schema);
  if (c) return c;
  try {
    c = { fast: fastJsonStringify(serializationJsonSchema(schema) as unknown as Parameters<typeof fastJsonStringify>[0]) };
  } catch (err) {
    c = { fallback: err instanceof Error ? err.message : String(err) };
  }
  compiled.set(schema, c);
  return c;
}

function zodSchemaOf(schema: unknown): $ZodType | undefined {
  if (schema instanceof $ZodType) return schema;
  const props = (schema as { properties?: unknown } | null)?.properties;
  return props instanceof $ZodType ? props : undefined;
}

/**
 * Fastify's last-resort error handler (when the app's own failed) passes the error itself to the
 * route's serializer for its status: the body Fastify would send without a schema (its serializeError).
 */
function fastifyErrorBody(error: Error): string {
  const e = error as Error & { statusCode?: number; code?: string; error?: string };
  return JSON.stringify({ statusCode: e.statusCode, code: e.code, error: e.error, message: e.message });
}

function isErrorStatus(httpStatus: string | undefined): boolean {
  return httpStatus !== undefined && (httpStatus === 'default' || /^[45]/.test(httpStatus));
}

/** Where two JSON values first differ (`undefined` when equal), described for a developer. */
export function firstDifference(sent: unknown, returned: unknown, path = ''): string | undefined {
  const at = path || '(the answer)';
  if (sent === returned) return undefined;
  if (Array.isArray(returned)) {
    if (!Array.isArray(sent)) return `${at}: an array was returned, ${JSON.stringify(sent)} would be sent`;
    if (sent.length !== returned.length) return `${at}: ${returned.length} items returned, ${sent.length} would be sent`;
    for (let i = 0; i < returned.length; i++) {
      const d = firstDifference(sent[i], returned[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (returned !== null && typeof returned === 'object') {
    if (sent === null || typeof sent !== 'object' || Array.isArray(sent))
      return `${at}: an object was returned, ${JSON.stringify(sent)} would be sent`;
    const s = sent as Record<string, unknown>;
    const r = returned as Record<string, unknown>;
    for (const key of Object.keys(r)) {
      if (!(key in s)) return `${path ? `${path}.` : ''}${key}: returned but not declared by the schema (it would be dropped)`;
      const d = firstDifference(s[key], r[key], path ? `${path}.${key}` : key);
      if (d) return d;
    }
    for (const key of Object.keys(s))
      if (!(key in r)) return `${path ? `${path}.` : ''}${key}: not returned, but ${JSON.stringify(s[key])} would be sent`;
    return undefined;
  }
  return `${at}: ${JSON.stringify(returned)} returned, ${JSON.stringify(sent)} would be sent`;
}

export function createResponseSerializerCompiler(options: ResponseSerializerOptions): FastifySerializerCompiler<unknown> {
  return ({ schema: maybeSchema, method, url, httpStatus }) => {
    const schema = zodSchemaOf(maybeSchema);
    const where = `${method} ${url} ${httpStatus ?? ''}`.trim();
    const fail = (message: string): never => {
      const err = new ResponseMismatchError(`response of ${where} does not match its schema: ${message}`);
      // The test sees a 500; say why where the developer looks.
      if (options.check) console.error(err.message);
      throw err;
    };
    if (!schema) return (data) => JSON.stringify(data);

    const errorStatus = isErrorStatus(httpStatus);
    const serialize = (data: unknown): string => {
      if (data instanceof Error) return fastifyErrorBody(data);
      if (errorStatus) return JSON.stringify(data);
      const c = compile(schema);
      if (c.fast) return c.fast(data);
      if (!logged.has(schema)) {
        logged.add(schema);
        options.log?.warn(
          { event: 'response_schema_fallback', route: where, reason: c.fallback },
          'response written by zod + JSON.stringify',
        );
      }
      const encoded = z.safeEncode(schema as z.ZodType, data);
      if (!encoded.success) return fail(z.prettifyError(encoded.error));
      return JSON.stringify(encoded.data);
    };
    if (!options.check) return serialize;

    return (data) => {
      if (data instanceof Error) return fastifyErrorBody(data);
      const parsed = z.safeEncode(schema as z.ZodType, data);
      if (!parsed.success) return fail(`${z.prettifyError(parsed.error)}\n  in ${JSON.stringify(data)?.slice(0, 500)}`);
      const sent = serialize(data);
      const returned = JSON.stringify(data);
      if (returned === undefined) return sent;
      // Error bodies are sent as they are; their envelope must still take every field (looseObject).
      const kept = errorStatus ? JSON.stringify(parsed.data) : sent;
      const difference = firstDifference(JSON.parse(kept), JSON.parse(returned));
      if (difference) fail(difference);
      return sent;
    };
  };
}
