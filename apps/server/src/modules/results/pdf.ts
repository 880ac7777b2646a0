import {
  ABSENT_MARK,
  ASSESSMENT_MESSAGES,
  formatAverage,
  formatDateTime,
  ordinal,
  RESULT_MESSAGES,
  type ReportCard,
  type ReportCardSubject,
  personName,
} from '@portal/domain';
import { renderPdf } from '../../lib/pdf';
import { logoForPdf } from '../settings/logo';

/** Report cards as PDF (lib/pdf.ts: pdfkit with DejaVu Sans, fonts read once per process). */
const GREEN = '#14532d';
const GREY = '#475569';
const LIGHT = '#f1f5f9';

function fmt(n: number | null | undefined): string {
  if (n === null || n === undefined) return '–';
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0$/, '');
}

interface Column {
  label: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

/** A table row's height at a type size: roomy at 8 pt and up, tighter below (long cards). */
const rowHeight = (size: number) => size + (size >= 8 ? 7 : 5);

function drawTable(doc: PDFKit.PDFDocument, x: number, y: number, columns: Column[], rows: string[][], size = 8.5): number {
  const rowH = rowHeight(size);
  const pad = size >= 8 ? 4 : 3;
  const total = columns.reduce((a, c) => a + c.width, 0);
  doc.rect(x, y, total, rowH).fill(GREEN);
  let cx = x;
  doc.font('bold').fontSize(size).fillColor('#ffffff');
  for (const c of columns) {
    // A heading wider than its column (a long component label) takes a smaller type, never two lines.
    const fit = Math.max(5, Math.min(size, (size * (c.width - 6) * 0.97) / doc.fontSize(size).widthOfString(c.label)));
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
type PdfImage = { width: number; height: number };
type WithOpenImage = { openImage(src: Buffer): PdfImage };

/**
 * The school's logo, opened once per document (pdfkit embeds a Buffer again on every page) and only
 * when it is the small normalised version: anything bigger is left out.
 */
function openLogo(doc: PDFKit.PDFDocument, dataUrl: string): PdfImage | undefined {
  const bytes = logoForPdf(dataUrl);
  if (!bytes) return undefined;
  try {
    return (doc as unknown as WithOpenImage).openImage(bytes);
  } catch {
    // An unreadable logo never stops a report card.
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
 * columns narrow, so six components and 16 subjects still fit one A4 page.
 */
function subjectTable(card: ReportCard, width: number): { columns: Column[]; rows: string[][]; size: number; absent: boolean } {
  const parts = card.components.length > 1 ? card.components : [];
  const rest = (s: ReportCardSubject) => [
    s.grade,
    s.remark,
    s.position === null ? '–' : ordinal(s.position),
    formatAverage(s.class_average),
    fmt(s.class_highest),
    fmt(s.class_lowest),
  ];
  if (!parts.length) {
    return {
      columns: [
        { label: 'Subject', width: width * 0.27 },
        { label: 'Score', width: width * 0.08, align: 'right' },
        { label: 'Grade', width: width * 0.08, align: 'center' },
        { label: 'Remark', width: width * 0.15 },
        { label: 'Position', width: width * 0.1, align: 'right' },
        { label: 'Class avg', width: width * 0.11, align: 'right' },
        { label: 'Highest', width: width * 0.105, align: 'right' },
        { label: 'Lowest', width: width * 0.105, align: 'right' },
      ],
      rows: card.subjects.map((s) => [s.subject, s.absent.length ? ABSENT_MARK : fmt(s.score), ...rest(s)]),
      size: 8.5,
      absent: card.subjects.some((s) => s.absent.length > 0),
    };
  }
  // Fractions of the width, measured on DejaVu Sans: six components drop the type to 7 pt.
  const each = Math.min(0.065, 0.32 / parts.length);
  return {
    columns: [
      { label: 'Subject', width: width * (0.493 - each * parts.length) },
      ...parts.map((c): Column => ({ label: c.label, width: width * each, align: 'right' })),
      { label: 'Total', width: width * 0.057, align: 'right' },
      { label: 'Grade', width: width * 0.063, align: 'center' },
      { label: 'Remark', width: width * 0.092 },
      { label: 'Pos.', width: width * 0.05, align: 'right' },
      { label: 'Class avg', width: width * 0.094, align: 'right' },
      { label: 'Highest', width: width * 0.078, align: 'right' },
      { label: 'Lowest', width: width * 0.073, align: 'right' },
    ],
    rows: card.subjects.map((s) => [s.subject, ...parts.map((c) => componentCell(s, c.label)), fmt(s.score), ...rest(s)]),
    size: parts.length > 4 ? 7 : 8,
    absent: card.subjects.some((s) => s.absent.length > 0),
  };
}

function drawCard(doc: PDFKit.PDFDocument, card: ReportCard, logo: PdfImage | undefined): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  let y = doc.page.margins.top;

  // School header
  let textLeft = left;
  if (logo) {
    doc.image(logo as unknown as Buffer, left, y, { fit: [56, 56] });
    textLeft = left + 66;
  }
  doc
    .font('bold')
    .fontSize(16)
    .fillColor(GREEN)
    .text(card.school.name, textLeft, y, { width: width - (textLeft - left) });
  doc.font('body').fontSize(9).fillColor(GREY);
  if (card.school.motto) doc.text(`Motto: ${card.school.motto}`, textLeft, doc.y + 1, { width: width - (textLeft - left) });
  if (card.school.address) doc.text(card.school.address, textLeft, doc.y + 1, { width: width - (textLeft - left) });
  const contact = [card.school.phone, card.school.email].filter(Boolean).join(' · ');
  if (contact) doc.text(contact, textLeft, doc.y + 1, { width: width - (textLeft - left) });
  y = Math.max(doc.y, y + 56) + 8;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(1.5)
    .strokeColor(GREEN)
    .stroke();
  y += 8;

  doc
    .font('bold')
    .fontSize(12)
    .fillColor('#000000')
    .text(`Report Card — ${card.term_label}, ${card.session.name} Session`, left, y, { width, align: 'center' });
  y = doc.y + 8;

  // Student block
  const half = width / 2;
  const line = (label: string, value: string, x: number, yy: number) => {
    doc.font('bold').fontSize(9).text(`${label}: `, x, yy, { continued: true }).font('body').text(value);
  };
  line('Name', personName(card.student), left, y);
  line('Admission number', card.student.admission_number, left + half, y);
  y += 14;
  line('Class', card.student.student_class, left, y);
  line('Position', card.position_text, left + half, y);
  y += 14;
  line('Total', `${fmt(card.total)} (${card.subjects_taken} subjects)`, left, y);
  line('Average', `${formatAverage(card.average)} (class average ${formatAverage(card.class_average)})`, left + half, y);
  y += 20;

  // Everything above the signatures fits one page: with many subjects (and the third term's
  // cumulative table, and remarks) the tables take a smaller type and the remarks run on as one
  // paragraph, cut short if they still do not fit.
  const signatures = doc.page.height - doc.page.margins.bottom - 60;
  const bottom = signatures - 36;
  const table = subjectTable(card, width);
  const comments = card.subjects.filter((s) => s.teacher_remarks);
  const cumulativeRows = card.cumulative ? card.subjects.length + 3 : 0;
  const fixed = (table.absent ? 11 : 0) + (comments.length ? 18 : 0) + (card.cumulative ? 50 : 0);
  const needed = (size: number) =>
    (card.subjects.length + 1) * rowHeight(Math.min(table.size, size)) +
    (cumulativeRows ? (cumulativeRows + 1) * rowHeight(Math.min(8, size)) : 0) +
    fixed +
    Math.min(comments.length, 2) * 10;
  const size = [8.5, 8, 7.5, 7, 6.5, 6].find((z) => y + needed(z) <= bottom) ?? 6;

  y = drawTable(doc, left, y, table.columns, table.rows, Math.min(table.size, size));
  if (table.absent) {
    doc
      .font('body')
      .fontSize(7.5)
      .fillColor(GREY)
      .text(ASSESSMENT_MESSAGES.absentNote, left, y + 3, { width, lineBreak: false });
    doc.fillColor('#000000');
    y += 11;
  }
  if (comments.length) {
    y += 6;
    doc.font('bold').fontSize(8.5).text("Teachers' remarks", left, y);
    y = doc.y + 1;
    const room = bottom - y - (cumulativeRows ? (cumulativeRows + 1) * rowHeight(Math.min(8, size)) + 50 : 0);
    const lines = comments.map((s) => `${s.subject}: ${s.teacher_remarks}`);
    doc.font('body').fontSize(8);
    if (lines.reduce((h, t) => h + doc.heightOfString(t, { width }) + 1, 0) <= room) {
      for (const t of lines) doc.text(t, left, doc.y + 1, { width });
    } else {
      doc.fontSize(7.5).text(lines.join('  ·  '), left, y, { width, height: Math.max(room, 10), ellipsis: true });
    }
    y = Math.min(doc.y, bottom);
  }

  if (card.cumulative) {
    y += 12;
    doc.font('bold').fontSize(10).fillColor(GREEN).text('Cumulative (whole session)', left, y);
    doc.fillColor('#000000');
    y = doc.y + 4;
    y = drawTable(
      doc,
      left,
      y,
      [
        { label: 'Subject', width: width * 0.36 },
        { label: '1st term', width: width * 0.16, align: 'right' },
        { label: '2nd term', width: width * 0.16, align: 'right' },
        { label: '3rd term', width: width * 0.16, align: 'right' },
        { label: 'Average', width: width * 0.16, align: 'right' },
      ],
      [
        ...card.subjects.map((s) => [
          s.subject,
          fmt(s.term_scores?.['1st']),
          fmt(s.term_scores?.['2nd']),
          fmt(s.term_scores?.['3rd']),
          formatAverage(s.term_scores?.average),
        ]),
        ['Term total', ...card.cumulative.terms.map((t) => fmt(t.total)), ''],
        ['Term average', ...card.cumulative.terms.map((t) => formatAverage(t.average)), formatAverage(card.cumulative.annual_average)],
      ],
      Math.min(8, size),
    );
    y += 4;
    doc
      .font('bold')
      .fontSize(9)
      .text(`Annual average: ${formatAverage(card.cumulative.annual_average)}`, left, y);
    y = doc.y;
  }

  // Signatures
  y = Math.max(y + 36, signatures);
  doc.lineWidth(0.5).strokeColor('#000000');
  doc
    .moveTo(left, y)
    .lineTo(left + 180, y)
    .stroke();
  doc
    .moveTo(left + width - 180, y)
    .lineTo(left + width, y)
    .stroke();
  doc.font('body').fontSize(8.5).fillColor(GREY);
  doc.text("Class teacher's signature", left, y + 3, { width: 180 });
  doc.text("Principal's signature", left + width - 180, y + 3, { width: 180 });
  const revised = card.revised_at ? ` · ${RESULT_MESSAGES.revisedOn(card.revised_at.slice(0, 10))}` : '';
  doc.text(
    `Generated ${formatDateTime(card.generated_at, card.school.time_zone)}${revised}${card.released ? '' : ' · not yet released to students'}`,
    left,
    y + 20,
    { width, align: 'center' },
  );
}

/**
 * One PDF with one A4 page per report card. `compress: false` keeps the content readable (tests).
 * Pages are drawn one event-loop turn apart, so a class of cards never holds the loop for long;
 * callers bound how many run at once (ConcurrencyLimiter in results.routes.ts).
 */
export async function renderReportCards(cards: ReportCard[], opts: { compress?: boolean; title?: string } = {}): Promise<Buffer> {
  return renderPdf(
    {
      size: 'A4',
      margin: 36,
      autoFirstPage: false,
      compress: opts.compress ?? true,
      info: { Title: opts.title ?? 'Report cards', Producer: 'School portal', Creator: 'School portal' },
    },
    async (doc) => {
      const logos = new Map<string, PdfImage | undefined>();
      for (const [i, card] of cards.entries()) {
        if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        if (!logos.has(card.school.logo)) logos.set(card.school.logo, openLogo(doc, card.school.logo));
        doc.addPage();
        drawCard(doc, card, logos.get(card.school.logo));
      }
    },
  );
}
