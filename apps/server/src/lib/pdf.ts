import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import { yieldToEventLoop } from './yield';

/**
 * The one way the server makes a PDF (report cards, receipts): pdfkit with an embedded DejaVu Sans,
 * because the built-in Helvetica has no ₦ and mangles names with accents. The fonts are read once per
 * process, on first use, and registered as 'body' and 'bold'; each document embeds a subset.
 */
const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
let fonts: { regular: Buffer; bold: Buffer } | undefined;
function loadFonts() {
  fonts ??= {
    regular: readFileSync(path.join(FONT_DIR, 'DejaVuSans.ttf')),
    bold: readFileSync(path.join(FONT_DIR, 'DejaVuSans-Bold.ttf')),
  };
  return fonts;
}

/** What of pdfkit's document this file reaches into: its font cache (no public way to pass a parsed font). */
interface FontCache {
  _fontFamilies: Record<string, { font: unknown; constructor: unknown; finalize?: () => void } | undefined>;
  _fontCount: number;
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
type EmbeddedFontClass = new (doc: PDFKit.PDFDocument, font: unknown, id: string) => FontCache['_fontFamilies'][string];

/**
 * The fonts as fontkit parsed them, kept per process. pdfkit parses the font file again in every
 * document, and fontkit's caches on the parsed font (decoded tables, the shaper's lookups, glyph
 * metrics) start empty each time: that was ~70 % of a report card's CPU (about 110 of 150 ms warm;
 * bench/results-day.ts). Each document still gets its own embedded font object (its own subset and
 * PDF objects), made at its first use as pdfkit would, so the file is the same byte for byte; only
 * the parsed font is shared, which fontkit allows (pdfkit lays text out synchronously).
 */
let parsedFonts: { Embedded: EmbeddedFontClass; fonts: Map<string, unknown> } | undefined;

/** The document's `font()` finds a registered font already parsed (once a first document parsed it). */
function reuseParsedFonts(doc: PDFKit.PDFDocument): void {
  const shared = parsedFonts;
  if (!shared) return;
  const cache = doc as unknown as FontCache;
  const open = doc.font.bind(doc) as (...args: unknown[]) => PDFKit.PDFDocument;
  const font = (...args: unknown[]) => {
    const name = args[0];
    const parsed = typeof name === 'string' && !cache._fontFamilies[name] ? shared.fonts.get(name) : undefined;
    if (typeof name === 'string' && parsed) cache._fontFamilies[name] = new shared.Embedded(doc, parsed, `F${++cache._fontCount}`);
    return open(...args);
  };
  doc.font = font;
}

/** After a first document drew with both fonts: keep what it parsed. */
function keepParsedFonts(doc: PDFKit.PDFDocument): void {
  if (parsedFonts) return;
  const cache = (doc as unknown as FontCache)._fontFamilies;
  const body = cache.body;
  const bold = cache.bold;
  if (!body?.font || !bold?.font || typeof body.constructor !== 'function') return;
  parsedFonts = {
    Embedded: body.constructor as EmbeddedFontClass,
    fonts: new Map([
      ['body', body.font],
      ['bold', bold.font],
    ]),
  };
}

/**
 * Opens a document with the fonts registered, lets `draw` fill it (it may await, e.g. to give the
 * event loop a turn between pages), ends it in slices (`endInSlices`) and resolves with the whole file.
 */
export async function renderPdf(
  options: PDFKit.PDFDocumentOptions,
  draw: (doc: PDFKit.PDFDocument) => void | Promise<void>,
): Promise<Buffer> {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument(options);
  doc.registerFont('body', regular);
  doc.registerFont('bold', bold);
  reuseParsedFonts(doc);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  try {
    await draw(doc);
    keepParsedFonts(doc);
    await endInSlices(doc);
  } finally {
    doc.end();
  }
  return done;
}
