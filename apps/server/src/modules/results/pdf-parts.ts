// The report card PDF's drawing parts: colours, number cells, tables that flow over pages, images,
// the subjects table and the ratings' rows. `pdf.ts` lays the card out with them.
import { ABSENT_MARK, formatAverage, ordinal, type ReportCard, type ReportCardSubject } from '@portal/domain';
import { imageForPdf } from '../../lib/images';

export const GREEN = '#14532d';
export const GREY = '#475569';
const LIGHT = '#f1f5f9';

export function fmt(n: number | null | undefined): string {
  if (n === null || n === undefined) return '–';
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0$/, '');
}

export interface Column {
  label: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

/** A table row's height at a type size: roomy at 8 pt and up, tighter below (long cards). */
export const rowHeight = (size: number) => size + (size >= 8 ? 7 : 5);

export function drawTable(doc: PDFKit.PDFDocument, x: number, y: number, columns: Column[], rows: string[][], size = 8.5): number {
  const rowH = rowHeight(size);
  const pad = size >= 8 ? 4 : 3;
  const total = columns.reduce((a, c) => a + c.width, 0);
  doc.rect(x, y, total, rowH).fill(GREEN);
  let cx = x;
  doc.font('bold').fontSize(size).fillColor('#ffffff');
  for (const c of columns) {
    // A heading wider than its column (a long component label) takes a smaller type, never two lines.
    const fit = Math.max(4.5, Math.min(size, (size * (c.width - 6) * 0.97) / doc.fontSize(size).widthOfString(c.label)));
    doc.fontSize(fit).text(c.label, cx + 3, y + pad + (size - fit) / 2, { width: c.width - 6, align: c.align ?? 'left', lineBreak: false });
    cx += c.width;
  }
  doc.fontSize(size);
  y += rowH;
  doc.font('body').fillColor('#000000');
  rows.forEach((row, i) => {
    if (i % 2 === 1) {
      doc.rect(x, y, total, rowH).fill(LIGHT);
      doc.fillColor('#000000');
    }
    cx = x;
    row.forEach((cell, k) => {
      const c = columns[k]!;
      doc.text(cell, cx + 3, y + pad, { width: c.width - 6, align: c.align ?? 'left', lineBreak: false, ellipsis: true });
      cx += c.width;
    });
    y += rowH;
  });
  doc
    .moveTo(x, y)
    .lineTo(x + total, y)
    .lineWidth(0.5)
    .strokeColor('#94a3b8')
    .stroke();
  return y;
}

/** pdfkit's opened image (its types do not declare `openImage`; `image()` takes one as its source). */
export type PdfImage = { width: number; height: number };
type WithOpenImage = { openImage(src: Buffer): PdfImage };

/**
 * An image of the card (logo, photo, signature, stamp), opened once per document (pdfkit embeds a
 * Buffer again on every page) and only when it is small (normalised on upload): anything bigger,
 * SVG or broken is left out.
 */
export function openImage(doc: PDFKit.PDFDocument, dataUrl: string, maxPixels?: number): PdfImage | undefined {
  const bytes = imageForPdf(dataUrl, maxPixels);
  if (!bytes) return undefined;
  try {
    return (doc as unknown as WithOpenImage).openImage(bytes);
  } catch {
    // An unreadable image never stops a report card.
    return undefined;
  }
}

/** A component's cell: its marks, ABS, or a dash when not entered (or entered as one total). */
function componentCell(s: ReportCardSubject, label: string): string {
  const v = s.components?.[label];
  if (v === ABSENT_MARK) return ABSENT_MARK;
  return v === undefined ? '–' : fmt(v);
}

/**
 * The subjects table: with several components, their columns come before the total and the other
 * columns narrow; in the third term each subject's first and second term scores and its session
 * average follow the total (the per-subject half of the cumulative view). Widths are weights scaled to
 * the page, so six components, the cumulative columns and 16 subjects still fit one A4 page.
 */
export function subjectTable(card: ReportCard, width: number): { columns: Column[]; rows: string[][]; size: number; absent: boolean } {
  const parts = card.components.length > 1 ? card.components : [];
  const third = card.cumulative !== null;
  const cols: Column[] = [
    { label: 'Subject', width: parts.length ? Math.max(third ? 0.15 : 0.17, 0.493 - 0.065 * parts.length) : 0.27 },
    ...parts.map((c): Column => ({ label: c.label, width: Math.min(0.065, 0.32 / parts.length), align: 'right' })),
    { label: parts.length ? 'Total' : 'Score', width: 0.065, align: 'right' },
    ...(third
      ? ([
          { label: '1st term', width: 0.055, align: 'right' },
          { label: '2nd term', width: 0.055, align: 'right' },
          { label: 'Session avg', width: 0.065, align: 'right' },
        ] as Column[])
      : []),
    { label: 'Grade', width: 0.06, align: 'center' },
    // The third term's extra columns come out of the class figures' and the remark's room.
    { label: 'Remark', width: third ? 0.08 : 0.1 },
    { label: 'Pos.', width: 0.05, align: 'right' },
    { label: 'Class avg', width: third ? 0.065 : 0.08, align: 'right' },
    { label: 'Highest', width: third ? 0.055 : 0.07, align: 'right' },
    { label: 'Lowest', width: third ? 0.055 : 0.065, align: 'right' },
  ];
  const sum = cols.reduce((a, c) => a + c.width, 0);
  const columns = cols.map((c) => ({ ...c, width: (c.width / sum) * width }));
  const rows = card.subjects.map((s) => [
    s.subject,
    ...parts.map((c) => componentCell(s, c.label)),
    !parts.length && s.absent.length ? ABSENT_MARK : fmt(s.score),
    ...(third ? [fmt(s.term_scores?.['1st']), fmt(s.term_scores?.['2nd']), formatAverage(s.term_scores?.average)] : []),
    s.grade,
    s.remark,
    s.position === null ? '–' : ordinal(s.position),
    formatAverage(s.class_average),
    fmt(s.class_highest),
    fmt(s.class_lowest),
  ]);
  return {
    columns,
    rows,
    size: parts.length > 4 || third ? 7 : 8,
    absent: card.subjects.some((s) => s.absent.length > 0),
  };
}

/** Where the next block goes; a block that does not fit the page starts a new one (never split). */
export class Flow {
  y: number;
  readonly top: number;
  readonly bottom: number;
  constructor(private readonly doc: PDFKit.PDFDocument) {
    this.top = doc.page.margins.top;
    this.bottom = doc.page.height - doc.page.margins.bottom;
    this.y = this.top;
  }
  /** Makes room for `h` points: a new page when the rest of this one is too short. */
  need(h: number): boolean {
    if (this.y + h <= this.bottom || this.y === this.top) return false;
    this.doc.addPage();
    this.y = this.top;
    return true;
  }
}

/**
 * A table that may run over pages: a row is never split, and the heading row is drawn again at the
 * top of the next page.
 */
export function flowTable(doc: PDFKit.PDFDocument, flow: Flow, x: number, columns: Column[], rows: string[][], size: number): void {
  const rowH = rowHeight(size);
  flow.need(rowH * 2);
  let start = 0;
  while (start < rows.length || start === 0) {
    const room = Math.max(1, Math.floor((flow.bottom - flow.y) / rowH) - 1);
    const part = rows.slice(start, start + room);
    flow.y = drawTable(doc, x, flow.y, columns, part, size);
    start += part.length;
    if (start >= rows.length) break;
    doc.addPage();
    flow.y = flow.top;
  }
}

/** The card's images opened once per document (the signature and stamp repeat on every card). */
export type Images = (dataUrl: string, maxPixels?: number) => PdfImage | undefined;

export function sectionTitle(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number): number {
  doc.font('bold').fontSize(size).fillColor(GREEN).text(text, x, y, { lineBreak: false });
  doc.fillColor('#000000');
  return y + size + 4;
}

/** Rows of a rating domain two traits to a row: [trait, rating, trait, rating]. */
export function ratingRows(traits: { name: string; rating: number | null }[]): string[][] {
  const rows: string[][] = [];
  for (let i = 0; i < traits.length; i += 2) {
    const a = traits[i]!;
    const b = traits[i + 1];
    rows.push([a.name, a.rating === null ? '–' : String(a.rating), b?.name ?? '', b ? (b.rating === null ? '–' : String(b.rating)) : '']);
  }
  return rows;
}
