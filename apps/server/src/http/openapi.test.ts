import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../scripts/openapi-document';

/**
 * The contract (issue 37.12, decision 052): docs/openapi.json is what the routes make, every answer
 * has its schema, every error its envelope, and every `$ref` resolves.
 */
const REPO = path.join(import.meta.dirname, '../../../..');
const CHECKED_IN = path.join(REPO, 'docs/openapi.json');
/** Operations whose 2xx answer has no schema yet: may only shrink (decision 052). */
const MISSING_LIST = path.join(import.meta.dirname, 'openapi-missing-responses.txt');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>; requestBody?: unknown };
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };

let text: string;
let doc: Doc;
beforeAll(async () => {
  text = await generateOpenApiDocument();
  doc = JSON.parse(text) as Doc;
}, 120_000);

function operations(): { name: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([url, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ name: `${method.toUpperCase()} ${url}`, op })),
  );
}

/** An operation documents its success when it lists a 2xx answer (with its body's schema, or none for a 204). */
const documentsSuccess = (op: Operation) => Object.keys(op.responses ?? {}).some((status) => status.startsWith('2'));

describe('the OpenAPI document', () => {
  it('is checked in as docs/openapi.json (run `npm run openapi` and commit it when this fails)', () => {
    const checkedIn = readFileSync(CHECKED_IN, 'utf8');
    if (checkedIn !== text) {
      const a = checkedIn.split('\n');
      const b = text.split('\n');
      let line = 0;
      while (line < Math.max(a.length, b.length) && a[line] === b[line]) line++;
      expect.fail(
        `docs/openapi.json differs from what the routes make (first at line ${line + 1}: ` +
          `checked in ${JSON.stringify(a[line] ?? '<end>')}, made ${JSON.stringify(b[line] ?? '<end>')}). ` +
          'Run `npm run openapi` and commit docs/openapi.json.',
      );
    }
  });

  it('gives every operation’s 2xx answer a schema, except those still listed in openapi-missing-responses.txt (which may only shrink)', () => {
    const listed = readFileSync(MISSING_LIST, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const missing = operations()
      .filter(({ op }) => !documentsSuccess(op))
      .map(({ name }) => name);
    const notListed = missing.filter((name) => !listed.includes(name));
    const done = listed.filter((name) => !missing.includes(name));
    expect(notListed, `operations without a 2xx response schema (${missing.length} in all):\n${missing.join('\n')}`).toEqual([]);
    expect(done, 'these now have their schema: remove them from apps/server/src/http/openapi-missing-responses.txt').toEqual([]);
  });

  it('documents the error envelopes on every operation, as shared components', () => {
    for (const { name, op } of operations().filter(({ name }) => name.includes(' /api/'))) {
      const responses = op.responses ?? {};
      for (const status of ['400', '403', '404', '429', '503']) {
        expect(responses[status]?.content?.['application/json']?.schema, `${name} ${status}`).toBeDefined();
      }
    }
    const card = doc.paths['/api/admin/login/']?.post?.responses ?? {};
    expect(card['400']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/SignInBadRequest' });
    const health = doc.paths['/api/health']?.get?.responses ?? {};
    expect(health['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Health' });
    expect(health['404']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ErrorDetail' });
  });

  it('resolves every $ref to a component, and keeps only components something uses', () => {
    const schemas = doc.components?.schemas ?? {};
    const refs = new Set([...text.matchAll(/"\$ref": "#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!));
    for (const ref of refs) expect(schemas[ref], ref).toBeDefined();
    expect(Object.keys(schemas).filter((name) => !refs.has(name))).toEqual([]);
    for (const id of ['ValidationErrors', 'ErrorDetail', 'ServiceUnavailable', 'SignInError', 'Health', 'Readiness'])
      expect(schemas[id], id).toBeDefined();
  });

  it('still documents the request bodies and parameters', () => {
    const bodies = operations().filter(({ op }) => op.requestBody !== undefined);
    expect(bodies.length).toBeGreaterThan(60);
    const refresh = doc.paths['/api/token/refresh/']?.post?.requestBody as { content: Record<string, { schema: { required?: string[] } }> };
    expect(refresh.content['application/json']!.schema.required).toContain('refresh');
  });
});
