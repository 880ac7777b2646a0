/**
 * The installable app's PNG icons, drawn at build time from the favicon's shapes (public/favicon.svg:
 * the brand square, a gold mortarboard, a white cap): no binary file in git, no image tool to install.
 * A small scanline rasteriser with 4×4 supersampling is enough for three flat polygons.
 */
import { PNG } from 'pngjs';

type Point = readonly [number, number];
type Rgb = readonly [number, number, number];

const BRAND: Rgb = [0x14, 0x53, 0x2d];
const GOLD: Rgb = [0xfa, 0xcc, 0x15];
const WHITE: Rgb = [0xff, 0xff, 0xff];

/** The favicon's 64-unit artwork: the mortarboard, and the cap below it (its curve sampled). */
function cubic(p0: Point, p1: Point, p2: Point, p3: Point, steps = 16): Point[] {
  const out: Point[] = [];
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    const u = 1 - t;
    out.push([
      u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
      u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
    ]);
  }
  return out;
}
const BOARD: Point[] = [
  [32, 12],
  [8, 24],
  [32, 36],
  [56, 24],
];
// M18 30 v12 c0 4 6 8 14 8 s14-4 14-8 V30 l-14 7 Z
const CAP: Point[] = [
  [18, 30],
  [18, 42],
  ...cubic([18, 42], [18, 46], [24, 50], [32, 50]),
  ...cubic([32, 50], [40, 50], [46, 46], [46, 42]),
  [46, 30],
  [32, 37],
];
/** A rounded square (the favicon's rx 14 of 64), its corners sampled. */
function roundedSquare(size: number, radius: number): Point[] {
  const out: Point[] = [];
  const corners: [number, number, number][] = [
    [size - radius, radius, -Math.PI / 2],
    [size - radius, size - radius, 0],
    [radius, size - radius, Math.PI / 2],
    [radius, radius, Math.PI],
  ];
  for (const [cx, cy, start] of corners)
    for (let i = 0; i <= 12; i++) {
      const a = start + (i / 12) * (Math.PI / 2);
      out.push([cx + radius * Math.cos(a), cy + radius * Math.sin(a)]);
    }
  return out;
}

const SUB = 4;

/** Coverage (0..1) of each pixel by a polygon (even-odd), 4 sub-rows per pixel with exact spans across. */
function coverage(poly: Point[], size: number): Float32Array {
  const cov = new Float32Array(size * size);
  for (let y = 0; y < size; y++)
    for (let s = 0; s < SUB; s++) {
      const sy = y + (s + 0.5) / SUB;
      const xs: number[] = [];
      for (let i = 0; i < poly.length; i++) {
        const [x0, y0] = poly[i]!;
        const [x1, y1] = poly[(i + 1) % poly.length]!;
        if (y0 <= sy === y1 <= sy) continue;
        xs.push(x0 + ((sy - y0) / (y1 - y0)) * (x1 - x0));
      }
      xs.sort((a, b) => a - b);
      for (let i = 0; i + 1 < xs.length; i += 2) {
        const a = Math.max(0, xs[i]!);
        const b = Math.min(size, xs[i + 1]!);
        for (let x = Math.floor(a); x < Math.ceil(b); x++) {
          const overlap = Math.min(b, x + 1) - Math.max(a, x);
          if (overlap > 0) cov[y * size + x]! += overlap / SUB;
        }
      }
    }
  return cov;
}

const scaled = (poly: Point[], k: number, dx: number, dy: number): Point[] => poly.map(([x, y]) => [x * k + dx, y * k + dy]);

/**
 * One icon: `shape` 'rounded' (the favicon, transparent corners) or 'full' (an opaque square: maskable
 * and Apple's, which the platform crops); the artwork scaled by `art` about the centre (a maskable
 * icon keeps it inside the middle 80% circle).
 */
export function drawIcon(size: number, shape: 'rounded' | 'full', art = 1): Buffer {
  const rgba = Buffer.alloc(size * size * 4);
  const k = size / 64;
  const layers: [Point[], Rgb][] = [
    [shape === 'rounded' ? roundedSquare(size, 14 * k) : scaled([[0, 0], [64, 0], [64, 64], [0, 64]], k, 0, 0), BRAND],
    ...([BOARD, CAP] as Point[][]).map((p): [Point[], Rgb] => [scaled(p, k * art, (size * (1 - art)) / 2, (size * (1 - art)) / 2), p === BOARD ? GOLD : WHITE]),
  ];
  for (const [poly, [r, g, b]] of layers) {
    const cov = coverage(poly, size);
    for (let i = 0; i < cov.length; i++) {
      const a = Math.min(1, cov[i]!);
      if (a === 0) continue;
      const o = i * 4;
      const da = rgba[o + 3]! / 255;
      const outA = a + da * (1 - a);
      const mix = (src: number, dst: number) => Math.round((src * a + dst * da * (1 - a)) / outA);
      rgba[o] = mix(r, rgba[o]!);
      rgba[o + 1] = mix(g, rgba[o + 1]!);
      rgba[o + 2] = mix(b, rgba[o + 2]!);
      rgba[o + 3] = Math.round(outA * 255);
    }
  }
  const png = new PNG({ width: size, height: size });
  rgba.copy(png.data);
  return PNG.sync.write(png, { colorType: shape === 'full' ? 2 : 6 });
}

/** File name under the build's output → PNG bytes; the manifest lists the first three (packages/domain web-app-manifest.ts). */
export function appIcons(): Record<string, Buffer> {
  return {
    'icons/icon-192.png': drawIcon(192, 'rounded'),
    'icons/icon-512.png': drawIcon(512, 'rounded'),
    // The maskable icon's artwork inside the safe zone (a circle of 40% radius): 0.78 of the favicon's.
    'icons/maskable-512.png': drawIcon(512, 'full', 0.78),
    'icons/apple-touch-icon.png': drawIcon(180, 'full', 0.85),
  };
}
