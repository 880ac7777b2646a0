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
