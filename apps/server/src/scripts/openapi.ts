/**
 * Writes docs/openapi.json from the routes' schemas (decision 052): `npm run openapi` after changing
 * a route's request or response schema, and commit the file (a test fails while it differs).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateOpenApiDocument } from './openapi-document';

export const OPENAPI_FILE = path.join(import.meta.dirname, '../../../../docs/openapi.json');

writeFileSync(OPENAPI_FILE, await generateOpenApiDocument());
console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
