import type { Readable } from 'node:stream';
import { z } from 'zod';

/**
 * Helpers for routes' `schema.response` (decision 052).
 *
 * A binary answer (PDF, CSV, image, zip) is sent as a Buffer, a string with its own content type, or
 * a stream: Fastify never passes those through the serializer, so they need no zod shape, only a
 * documented media type:
 *
 *   schema: { response: { 200: binaryResponse('application/pdf', 'The report card as a PDF') } }
 *   schema: { response: { 200: binaryResponse(['text/csv', 'application/pdf'], 'The list, as asked') } }
 *
 * It documents `content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } }`.
 */
export const binaryBody = z.custom<Buffer | Uint8Array | string | Readable>(() => true).meta({ type: 'string', format: 'binary' });

export function binaryResponse(
  contentTypes: string | readonly string[],
  description: string,
): { description: string; content: Record<string, { schema: typeof binaryBody }> } {
  const types = typeof contentTypes === 'string' ? [contentTypes] : contentTypes;
  return { description, content: Object.fromEntries(types.map((t) => [t, { schema: binaryBody }])) };
}

/** A 204 (or any answer without a body): `schema: { response: { 204: noContent } }`. */
export const noContent = z.null().describe('No content');

/** A 304: the copy the request named by `If-None-Match` is current (stored PDFs, decision 050); no body. */
export const notModified = z.null().describe('Not modified: the copy named by If-None-Match is current (no body)');
