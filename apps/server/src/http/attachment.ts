import type { FastifyReply, FastifyRequest } from 'fastify';

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
 * Does an `If-None-Match` or `If-Match` header name the entity tag `quoted` ("…")? The header is a
 * list; a weak tag (W/"…") compares by its value, and `*` names any.
 */
export function headerNamesTag(header: string, quoted: string): boolean {
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === quoted;
  });
}

/** Does the request's `If-None-Match` name this entity tag (a list, weak or strong, or `*`)? */
export function ifNoneMatch(req: FastifyRequest, etag: string): boolean {
  const header = req.headers['if-none-match'];
  return header ? headerNamesTag(header, `"${etag}"`) : false;
}

/**
 * A stored download (a released report card's PDF, an arm's, decision 050) sent with its
 * fingerprint as `ETag`: a repeat naming it in `If-None-Match` is answered 304 without the body. The
 * caller has already decided that the requester may read the file (the tag is only compared after
 * every access rule). `private, no-cache`: never kept by a shared cache (a proxy), kept by the
 * requester's own browser only to be asked again each time — the file holds personal data, and the
 * browser saves an attachment to the disk anyway.
 */
export async function sendStoredAttachment(
  req: FastifyRequest,
  reply: FastifyReply,
  kind: keyof typeof TYPES,
  file: { etag: string; filename: string; body: () => Promise<Buffer> },
) {
  const safe = file.filename.replace(/["\\\r\n]/g, '-');
  void reply.header('etag', `"${file.etag}"`).header('cache-control', 'private, no-cache');
  if (ifNoneMatch(req, file.etag)) return reply.status(304).send();
  const body = await file.body();
  return reply.header('content-type', TYPES[kind]).header('content-disposition', `attachment; filename="${safe}"`).send(body);
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
