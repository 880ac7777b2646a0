import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../scripts/openapi-document';

/**
 * A client generated from the document with a common generator compiles (issue 37.12, decision 052):
 * openapi-typescript writes the types, and a small openapi-fetch client using them must typecheck,
 * with the answers typed from the response schemas (not `unknown`).
 */
const REPO = path.join(import.meta.dirname, '../../../..');
// Under the repository's node_modules, so `openapi-fetch` resolves from the generated client's folder.
const cacheDir = path.join(REPO, 'node_modules/.cache');
mkdirSync(cacheDir, { recursive: true });
const dir = mkdtempSync(path.join(cacheDir, 'openapi-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const USE = `
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8000' });

export async function databaseOf(): Promise<'ok' | 'unreachable' | undefined> {
  const { data, error } = await client.GET('/api/health');
  if (error) return undefined;
  const health: components['schemas']['Health'] = data;
  return health.database;
}

export async function readiness(): Promise<string> {
  const { data, error } = await client.GET('/api/health/ready');
  if (error) return 'not ready';
  return data.limiter_store ?? data.status;
}

export async function signIn(email: string, password: string): Promise<string | undefined> {
  const { error } = await client.POST('/api/admin/login/', { body: { email, password } });
  if (!error) return undefined;
  // The sign-in envelope is typed: its message, or the field errors.
  return 'message' in error ? String(error.message) : undefined;
}

// @ts-expect-error a path the API does not have
void client.GET('/api/no-such-route/');
// @ts-expect-error the answer is typed: no such field
export const wrong = async () => (await client.GET('/api/health/live')).data?.nope;
`;

describe('a client generated from docs/openapi.json', () => {
  it('compiles (openapi-typescript types, an openapi-fetch client using them)', async () => {
    const doc = JSON.parse(await generateOpenApiDocument()) as Parameters<typeof openapiTS>[0];
    writeFileSync(path.join(dir, 'schema.d.ts'), astToString(await openapiTS(doc)));
    writeFileSync(path.join(dir, 'use.ts'), USE);
    const program = ts.createProgram([path.join(dir, 'use.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  }, 60_000);
});
