import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { errorDescription } from './error-envelopes';

/**
 * The OpenAPI document from the routes' zod schemas (issue 37.12, decision 052). Every schema with
 * `.meta({ id })` (zod's global registry) becomes `components.schemas.<id>` and is referenced by
 * `$ref`; the error envelopes get their descriptions; components nothing references (the library
 * also writes an `<id>Input` copy of every registered schema) are left out; paths and components
 * are sorted, so the checked-in docs/openapi.json changes only where the contract does.
 */
const zodTransform = createJsonSchemaTransform({ skipList: [] });
const zodTransformObject = createJsonSchemaTransformObject({});

type Json = Record<string, unknown>;

export const openapiTransform: SwaggerTransform = (input) => {
  const out = zodTransform(input) as { schema: Json; url: string };
  const response = out.schema?.response as Record<string, Json> | undefined;
  if (response) {
    for (const [status, schema] of Object.entries(response)) {
      const description = errorDescription(status, schema.$ref);
      if (description && !schema.description) response[status] = { ...schema, description };
    }
  }
  return out;
};

export const openapiTransformObject: SwaggerTransformObject = (input) => {
  const doc = zodTransformObject(input) as Json & { components?: { schemas?: Record<string, unknown> } };
  const schemas = doc.components?.schemas;
  if (schemas) doc.components = { ...doc.components, schemas: referencedOnly(doc, schemas) };
  return doc as ReturnType<SwaggerTransformObject>;
};

/** The `$ref`ed component names inside a value. */
function refsIn(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, into);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) into.add(v.slice('#/components/schemas/'.length));
      else refsIn(v, into);
    }
  }
  return into;
}

/** The components the document uses (directly or through another component). */
function referencedOnly(doc: Json, schemas: Record<string, unknown>): Record<string, unknown> {
  const { components: _components, ...rest } = doc;
  const used = refsIn(rest, new Set());
  const queue = [...used];
  while (queue.length) {
    for (const name of refsIn(schemas[queue.pop()!], new Set())) {
      if (!used.has(name)) {
        used.add(name);
        queue.push(name);
      }
    }
  }
  return Object.fromEntries(
    Object.keys(schemas)
      .filter((name) => used.has(name))
      .map((name) => [name, schemas[name]]),
  );
}

/** The document as checked in: paths and components sorted, two-space indented, a final newline. */
export function formatOpenApiDocument(doc: unknown): string {
  const d = structuredClone(doc) as Json & { paths?: Json; components?: Json & { schemas?: Json } };
  if (d.paths) d.paths = sortKeys(d.paths);
  if (d.components?.schemas) d.components.schemas = sortKeys(d.components.schemas);
  return `${JSON.stringify(d, null, 2)}\n`;
}

function sortKeys(o: Json): Json {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}
