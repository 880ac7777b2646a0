import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/**
 * Images the server stores and draws (logos, photos, signatures, stamps): a PNG's or JPEG's size read
 * from its header, decoding with a bound, an area-average shrink, and the bytes a PDF may draw.
 */

export interface Size {
  width: number;
  height: number;
}

/** The pixel size a PNG or JPEG declares, read from its header without decoding it. */
export function imageSize(bytes: Buffer, type: 'png' | 'jpeg'): Size | null {
  if (type === 'png') {
    const signature = '89504e470d0a1a0a';
    if (bytes.length < 24 || bytes.subarray(0, 8).toString('hex') !== signature || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  // JPEG: walk the segments to the first start-of-frame marker.
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    const length = bytes.readUInt16BE(i + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { width: bytes.readUInt16BE(i + 7), height: bytes.readUInt16BE(i + 5) };
    i += 2 + length;
  }
  return null;
}

export function decode(bytes: Buffer, type: 'png' | 'jpeg', maxSide: number): { width: number; height: number; data: Uint8Array } {
  if (type === 'png') return PNG.sync.read(bytes);
  const maxMp = (maxSide * maxSide) / 1_000_000 + 0.1;
  return jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: maxMp,
    maxMemoryUsageInMB: Math.ceil(maxMp * 8) + 16,
  });
}

/**
 * An uploaded PNG or JPEG made small: measured from its header (no decoding), refused beyond
 * `maxSourcePixels` on either side ('tooLarge'), decoded once, checked against its header and shrunk
 * to at most `maxSide` on its longer side. 'unreadable': not an image of that type, or a header that lies.
 */
export function shrinkUpload(
  bytes: Buffer,
  type: 'png' | 'jpeg',
  maxSourcePixels: number,
  maxSide: number,
): { ok: true; image: Size & { data: Buffer } } | { ok: false; refused: 'unreadable' | 'tooLarge' } {
  const size = imageSize(bytes, type);
  if (!size || size.width < 1 || size.height < 1) return { ok: false, refused: 'unreadable' };
  if (size.width > maxSourcePixels || size.height > maxSourcePixels) return { ok: false, refused: 'tooLarge' };
  let pixels: { width: number; height: number; data: Uint8Array };
  try {
    pixels = decode(bytes, type, maxSourcePixels);
  } catch {
    return { ok: false, refused: 'unreadable' };
  }
  if (pixels.width !== size.width || pixels.height !== size.height) return { ok: false, refused: 'unreadable' };
  return { ok: true, image: shrink(pixels, maxSide) };
}

/** Area-average downscale of RGBA pixels (alpha-weighted, so transparent edges do not darken). */
export function shrink(src: { width: number; height: number; data: Uint8Array }, maxSide: number): Size & { data: Buffer } {
  const scale = Math.min(1, maxSide / Math.max(src.width, src.height));
  const width = Math.max(1, Math.round(src.width * scale));
  const height = Math.max(1, Math.round(src.height * scale));
  const out = Buffer.alloc(width * height * 4);
  const fx = src.width / width;
  const fy = src.height / height;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * fy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * fy));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * fx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * fx));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let sy = y0; sy < y1; sy++) {
        let p = (sy * src.width + x0) * 4;
        for (let sx = x0; sx < x1; sx++, p += 4) {
          const alpha = src.data[p + 3]!;
          r += src.data[p]! * alpha;
          g += src.data[p + 1]! * alpha;
          b += src.data[p + 2]! * alpha;
          a += alpha;
          n++;
        }
      }
      const q = (y * width + x) * 4;
      if (a > 0) {
        out[q] = Math.round(r / a);
        out[q + 1] = Math.round(g / a);
        out[q + 2] = Math.round(b / a);
      }
      out[q + 3] = Math.round(a / n);
    }
  }
  return { width, height, data: out };
}

/**
 * Any card image (logo, photo, signature, stamp) small enough to draw, as bytes for pdfkit. Images
 * are normalised on upload; the limit keeps an old or odd stored one from costing a decode per card.
 */
export function imageForPdf(dataUrl: string, maxPixels = 1024): Buffer | undefined {
  const m = /^data:image\/(png|jpeg);base64,(.+)$/.exec(dataUrl);
  if (!m?.[2]) return undefined;
  const bytes = Buffer.from(m[2], 'base64');
  const size = imageSize(bytes, m[1] === 'png' ? 'png' : 'jpeg');
  if (!size || size.width > maxPixels || size.height > maxPixels) return undefined;
  return bytes;
}
