import { buildApp } from '../app';
import { testConfig } from '../config';
import { createDatabase } from '../db/index';
import { formatOpenApiDocument } from '../http/openapi';

/**
 * The API's OpenAPI document as checked in at docs/openapi.json (`npm run openapi` writes it; a test
 * fails when it differs): the app is built on an empty in-memory database, never listening.
 */
export async function generateOpenApiDocument(): Promise<string> {
  const handle = createDatabase('sqlite::memory:');
  try {
    const app = await buildApp({ config: testConfig({ apiDocs: 'public' }), handle, logger: false });
    try {
      await app.ready();
      return formatOpenApiDocument(app.swagger());
    } finally {
      await app.close();
    }
  } finally {
    await handle.destroy();
  }
}
