import { PNG } from 'pngjs';
import { LOGO_MAX_SOURCE_PIXELS, LOGO_MESSAGES, LOGO_STORED_PIXELS } from '@portal/domain';
import { shrinkUpload } from '../../lib/images';

/**
 * School logos. A 6000×6000 PNG compresses to a few kilobytes yet took 2.9 s and
 * 1.3 GB per report card, because every PDF decoded it again. Now an upload is measured from its
 * header (no decoding), refused beyond LOGO_MAX_SOURCE_PIXELS, decoded once, shrunk to at most
 * LOGO_STORED_PIXELS on its longer side and stored as a fresh PNG: pages and PDFs only ever see the
 * small one. SVG logos are kept as sent: the server never renders them (PDFs leave them out).
 */

export type LogoResult = { ok: true; logo: string } | { ok: false; message: string };

const DATA_URL = /^data:image\/(png|jpeg|svg\+xml);base64,([A-Za-z0-9+/=]+)$/;

/**
 * Checks and normalises a logo data URL: '' stays '', SVG stays as sent, PNG and JPEG become a PNG
 * of at most LOGO_STORED_PIXELS a side (opaque ones without an alpha channel). `maxSourcePixels`
 * lets the migration shrink logos stored before the limit existed.
 */
export function normaliseLogo(dataUrl: string, maxSourcePixels = LOGO_MAX_SOURCE_PIXELS): LogoResult {
  if (dataUrl === '') return { ok: true, logo: '' };
  const m = DATA_URL.exec(dataUrl);
  if (!m) return { ok: false, message: LOGO_MESSAGES.unreadable };
  if (m[1] === 'svg+xml') return { ok: true, logo: dataUrl };
  const type = m[1] === 'png' ? 'png' : 'jpeg';
  const bytes = Buffer.from(m[2]!, 'base64');
  const shrunk = shrinkUpload(bytes, type, maxSourcePixels, LOGO_STORED_PIXELS);
  if (!shrunk.ok) return { ok: false, message: shrunk.refused === 'tooLarge' ? LOGO_MESSAGES.tooLarge : LOGO_MESSAGES.unreadable };
  const small = shrunk.image;
  let opaque = true;
  for (let i = 3; i < small.data.length; i += 4) {
    if (small.data[i] !== 255) {
      opaque = false;
      break;
    }
  }
  const png = PNG.sync.write(Object.assign(new PNG({ width: small.width, height: small.height }), { data: small.data }), {
    colorType: opaque ? 2 : 6,
  });
  return { ok: true, logo: `data:image/png;base64,${png.toString('base64')}` };
}
