import jpeg from 'jpeg-js';
import { sql, type Kysely } from 'kysely';
import { PNG } from 'pngjs';
import type { DialectMigration } from './util';

/** Logos stored before this release may be up to this size: each is decoded once, here, and never again. */
const LEGACY_MAX_PIXELS = 8192;
const BACKUP_KEY = 'school_logo_before_0010';
/** The longer side of a stored logo, as this release stored it. */
const STORED_PIXELS = 256;

/**
 * A logo stored by an earlier release may be any size (a 6000×6000 PNG made every
 * report card take seconds). It is replaced by the small normalised PNG that uploads now store; the
 * original is kept, untouched, under its own settings key, so nothing stored is lost. A logo that
 * cannot be read (or is beyond LEGACY_MAX_PIXELS) is left out of the pages and PDFs, and kept there too.
 *
 * A migration is frozen: what it needs of the settings module's logo code is copied below as it
 * was when this migration was written, so a later change to uploads never changes this upgrade.
 */
export const inputLogos: DialectMigration = (_dialect) => ({
  async up(db: Kysely<unknown>) {
    const rows = await sql<{ value: string }>`select value from settings where key = 'school'`.execute(db);
    const value = rows.rows[0]?.value;
    if (!value) return;
    let settings: Record<string, unknown>;
    try {
      settings = JSON.parse(value) as Record<string, unknown>;
    } catch {
      return;
    }
    const logo = settings.logo;
    if (typeof logo !== 'string' || !/^data:image\/(png|jpeg);/.test(logo) || logoIsSmallPng(logo)) return;
    const next = JSON.stringify({ ...settings, logo: normaliseLogo(logo, LEGACY_MAX_PIXELS) ?? '' });
    await sql`insert into settings (key, value) values (${BACKUP_KEY}, ${value})`.execute(db);
    await sql`update settings set value = ${next} where key = 'school'`.execute(db);
  },
});

/** A PNG small enough to draw as it is (what the PDFs drew without decoding it). */
function logoIsSmallPng(logo: string): boolean {
  if (!logo.startsWith('data:image/png;')) return false;
  const m = /^data:image\/(png|jpeg);base64,(.+)$/.exec(logo);
  if (!m?.[2]) return false;
  const size = imageSize(Buffer.from(m[2], 'base64'), m[1] === 'png' ? 'png' : 'jpeg');
  return !!size && size.width <= STORED_PIXELS && size.height <= STORED_PIXELS;
}

interface Size {
  width: number;
  height: number;
}

/** The pixel size a PNG or JPEG declares, read from its header without decoding it. */
function imageSize(bytes: Buffer, type: 'png' | 'jpeg'): Size | null {
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

function decode(bytes: Buffer, type: 'png' | 'jpeg', maxSide: number): { width: number; height: number; data: Uint8Array } {
  if (type === 'png') return PNG.sync.read(bytes);
  const maxMp = (maxSide * maxSide) / 1_000_000 + 0.1;
  return jpeg.decode(bytes, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: maxMp,
    maxMemoryUsageInMB: Math.ceil(maxMp * 8) + 16,
  });
}

/** Area-average downscale of RGBA pixels (alpha-weighted, so transparent edges do not darken). */
function shrink(src: { width: number; height: number; data: Uint8Array }, maxSide: number): Size & { data: Buffer } {
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

/** The logo as a PNG of at most STORED_PIXELS a side, or undefined when it cannot be read or is too large. */
function normaliseLogo(dataUrl: string, maxSourcePixels: number): string | undefined {
  const m = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  if (!m) return undefined;
  const type = m[1] === 'png' ? 'png' : 'jpeg';
  const bytes = Buffer.from(m[2]!, 'base64');
  const size = imageSize(bytes, type);
  if (!size || size.width < 1 || size.height < 1) return undefined;
  if (size.width > maxSourcePixels || size.height > maxSourcePixels) return undefined;
  let pixels: { width: number; height: number; data: Uint8Array };
  try {
    pixels = decode(bytes, type, maxSourcePixels);
  } catch {
    return undefined;
  }
  if (pixels.width !== size.width || pixels.height !== size.height) return undefined;
  const small = shrink(pixels, STORED_PIXELS);
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
  return `data:image/png;base64,${png.toString('base64')}`;
}
