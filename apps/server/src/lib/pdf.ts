import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import type { Font } from 'fontkit';
import PDFDocument from 'pdfkit';
import { yieldToEventLoop } from './yield';

/**
 * The one way the server makes a PDF (report cards, receipts): pdfkit with an embedded DejaVu Sans,
 * because the built-in Helvetica has no ₦ and mangles names with accents. The fonts are read and
 * parsed (fontkit) once per process, on first use, and registered as 'body' and 'bold' in every
 * document; each document embeds a subset of its own.
 *
 * Why parsed once: pdfkit would parse the font file again in every document, and fontkit's caches on
 * the parsed font (decoded tables, the shaper's lookups, glyph metrics) would start empty each time:
 * that was ~70 % of a report card's CPU (about 110 of 150 ms warm; bench/results-day.ts). pdfkit 0.20
 * takes an already-parsed fontkit font in `registerFont` (its public API; before, this file reached
 * into the document's font cache). Sharing the parsed font between documents is safe: pdfkit lays
 * text out synchronously, and each document makes its own subset and PDF objects from it.
 */
const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
let fonts: { regular: Font; bold: Font } | undefined;

function parseFont(file: string): Font {
  const font = fontkit.create(readFileSync(path.join(FONT_DIR, file)));
  // A .ttf is one font; a collection (.ttc) would need a name.
  if (!('layout' in font)) throw new Error(`${file}: a font collection, not a font`);
  return font;
}

/** The process's parsed fonts (tests check that documents use these objects). */
export function pdfFonts(): { regular: Font; bold: Font } {
  fonts ??= { regular: parseFont('DejaVuSans.ttf'), bold: parseFont('DejaVuSans-Bold.ttf') };
  return fonts;
}

/** What of pdfkit's document `endInSlices` reaches into: its fonts, to embed each in a turn of its own. */
interface FontCache {
  _fontFamilies: Record<string, { finalize?: () => void } | undefined>;
}

/** A buffered document's pages not yet written (pdfkit's own list, which `flushPages()` empties). */
interface PageBuffer {
  _pageBuffer: unknown[];
}

/** Buffered pages written (each page's content compressed) between two turns of the event loop. */
export const PAGES_PER_SLICE = 4;

/**
 * `doc.end()` in pieces, a turn of the event loop between them: pdfkit's end
 * writes every buffered page (compressing each) and embeds each font's subset (fontkit encodes it,
 * then it is compressed) in one synchronous call, which held the loop for 10 to 170 ms on the loaded
 * machine. Here the buffered pages are written a few at a time in their order (what `flushPages()`
 * does, on a part of pdfkit's list), then each font is embedded in a turn of its own (pdfkit's
 * `finalize()`, which `end()` then skips), then `end()` writes what is left (the info, catalogue,
 * cross-reference table: small). The same pages, fonts and text; only the fonts' objects come before
 * the document's info in the file.
 */
async function endInSlices(doc: PDFKit.PDFDocument): Promise<void> {
  const buffer = doc as unknown as PageBuffer;
  const pages = buffer._pageBuffer;
  if (Array.isArray(pages) && pages.length > PAGES_PER_SLICE) {
    for (let i = 0; i < pages.length; i += PAGES_PER_SLICE) {
      await yieldToEventLoop();
      buffer._pageBuffer = pages.slice(i, i + PAGES_PER_SLICE);
      doc.flushPages();
    }
  }
  const fonts = new Set(Object.values((doc as unknown as FontCache)._fontFamilies));
  for (const font of fonts) {
    if (typeof font?.finalize !== 'function') continue;
    await yieldToEventLoop();
    font.finalize();
  }
  await yieldToEventLoop();
}
/**
 * Opens a document with the fonts registered, lets `draw` fill it (it may await, e.g. to give the
 * event loop a turn between pages), ends it in slices (`endInSlices`) and resolves with the whole file.
 */
export async function renderPdf(
  options: PDFKit.PDFDocumentOptions,
  draw: (doc: PDFKit.PDFDocument) => void | Promise<void>,
): Promise<Buffer> {
  const { regular, bold } = pdfFonts();
  const doc = new PDFDocument(options);
  // @types/pdfkit (0.17) does not list a parsed font among the sources; pdfkit 0.20 takes one.
  doc.registerFont('body', regular as unknown as PDFKit.Mixins.PDFFontSource);
  doc.registerFont('bold', bold as unknown as PDFKit.Mixins.PDFFontSource);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  try {
    await draw(doc);
    await endInSlices(doc);
  } finally {
    doc.end();
  }
  return done;
}
