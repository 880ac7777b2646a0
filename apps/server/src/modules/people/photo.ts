import jpeg from 'jpeg-js';
import { LOGO_MAX_SOURCE_PIXELS, REPORT_MESSAGES } from '@portal/domain';
import { shrinkUpload } from '../../lib/images';

/** A student photo is printed about 3 cm wide: 240 pixels on the longer side is plenty. */
export const PHOTO_STORED_PIXELS = 240;

export type PhotoResult = { ok: true; photo: string } | { ok: false; message: string };

/**
 * Checks and normalises a photo data URL as the logo is (settings/logo.ts): measured from its header,
 * refused beyond LOGO_MAX_SOURCE_PIXELS, decoded once, shrunk and stored as a small JPEG (photos are
 * opaque; JPEG keeps them a few kilobytes), so cards and PDFs never decode a camera-sized image.
 * '' stays '' (no photo).
 */
export function normalisePhoto(dataUrl: string): PhotoResult {
  if (dataUrl === '') return { ok: true, photo: '' };
  const m = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  if (!m) return { ok: false, message: REPORT_MESSAGES.photoInvalid };
  const type = m[1] === 'png' ? 'png' : 'jpeg';
  const bytes = Buffer.from(m[2]!, 'base64');
  const shrunk = shrinkUpload(bytes, type, LOGO_MAX_SOURCE_PIXELS, PHOTO_STORED_PIXELS);
  if (!shrunk.ok)
    return { ok: false, message: shrunk.refused === 'tooLarge' ? REPORT_MESSAGES.photoTooManyPixels : REPORT_MESSAGES.photoInvalid };
  const small = shrunk.image;
  // Transparent pixels go white (a JPEG has no alpha).
  for (let i = 0; i < small.data.length; i += 4) {
    const a = small.data[i + 3]! / 255;
    for (let k = 0; k < 3; k++) small.data[i + k] = Math.round(small.data[i + k]! * a + 255 * (1 - a));
    small.data[i + 3] = 255;
  }
  const out = jpeg.encode({ width: small.width, height: small.height, data: small.data }, 85);
  return { ok: true, photo: `data:image/jpeg;base64,${Buffer.from(out.data).toString('base64')}` };
}
