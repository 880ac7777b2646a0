import type { FastifyReply } from 'fastify';

const TYPES = { csv: 'text/csv; charset=utf-8', pdf: 'application/pdf' } as const;

/**
 * Every download (CSV exports and reports, report-card and receipt PDFs) is sent the same way: its
 * type, as an attachment with a safe file name, never stored by a browser or proxy cache (the files
 * hold personal data).
 */
export function sendAttachment(reply: FastifyReply, kind: keyof typeof TYPES, filename: string, body: string | Buffer) {
  const safe = filename.replace(/["\\\r\n]/g, '-');
  return reply
    .header('content-type', TYPES[kind])
    .header('content-disposition', `attachment; filename="${safe}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

/**
 * An uploaded file shown in the browser (a payment's teller scan, a reported transfer's slip): the
 * type it was stored with, never sniffed as another (it came from a user), never cached.
 */
export function sendInline(reply: FastifyReply, file: { mime: string; bytes: Buffer }, filename: string) {
  const safe = filename.replace(/["\\\r\n]/g, '-');
  return reply
    .header('content-type', file.mime)
    .header('content-disposition', `inline; filename="${safe}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.bytes);
}
