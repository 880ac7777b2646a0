// Report cards as PDF (lib/pdf.ts: pdfkit with DejaVu Sans, fonts read once per process): the card's
// layout, block by block; the drawing parts (tables, images, the subjects table) are in pdf-parts.ts.
import {
  ASSESSMENT_MESSAGES,
  ATTENDANCE_LABELS,
  formatAverage,
  formatDateTime,
  RESULT_MESSAGES,
  CARD_SECTION_TITLES,
  LOGO_STORED_PIXELS,
  DEFAULT_TIME_ZONE,
  formatDay,
  schoolDayOf,
  formatNaira,
  REPORT_MESSAGES,
  termLabel,
  type ReportCard,
  personName,
} from '@portal/domain';
import { renderPdf } from '../../lib/pdf';
import { yieldToEventLoop } from '../../lib/yield';
import {
  GREEN,
  GREY,
  fmt,
  rowHeight,
  drawTable,
  openImage,
  subjectTable,
  Flow,
  flowTable,
  type Images,
  sectionTitle,
  ratingRows,
  type Column,
  type PdfImage,
} from './pdf-parts';

const T = CARD_SECTION_TITLES;

/** The card's blocks in school-term.md's order, each with its height at a type size and how to draw it. */
function blocks(doc: PDFKit.PDFDocument, card: ReportCard, width: number, images: Images) {
  const table = subjectTable(card, width);
  const remarks = card.subjects.filter((s) => s.teacher_remarks);
  const gradingKey = `${T.gradingKey}: ${card.grading_key.map((b) => `${b.grade} ${fmt(b.min)}–${fmt(b.max)} ${b.remark}`).join(' · ')}`;
  const ratingKey = `${T.ratingKey}: ${card.ratings.labels.map((l, i) => `${i + 1} ${l}`).join(' · ')}`;
  const formLabel = `${T.formTeacherComment}${card.comments.form_teacher_name ? ` (${card.comments.form_teacher_name})` : ''}: `;
  const formText = `${formLabel}${card.comments.form_teacher || '–'}`;
  const principalText = `${T.principalComment}: ${card.comments.principal || '–'}`;
  const textHeight = (t: string, size: number) => doc.font('body').fontSize(size).heightOfString(t, { width });
  const domains = card.ratings.domains;
  const ratingRowsCount = Math.max(0, ...domains.map((d) => Math.ceil(d.traits.length / 2)));
  const money = (n: number | null) => (n === null ? REPORT_MESSAGES.notSet : formatNaira(n));
  const nextLines = [
    `${T.nextTermBegins} (${card.next_term.term_label}${card.next_term.session_name ? `, ${card.next_term.session_name}` : ''}): ${
      card.next_term.begins ? formatDay(card.next_term.begins) : REPORT_MESSAGES.toBeAnnounced
    }`,
    `${T.nextTermFees}: ${money(card.next_term.fees)}`,
    `${T.outstanding}: ${formatNaira(card.next_term.outstanding)}`,
  ];

  type Block = { height: (z: number) => number; draw: (flow: Flow, z: number) => void; subjects?: true };
  const left = doc.page.margins.left;
  const list: Block[] = [];

  // 3. Attendance
  list.push({
    height: (z) => z + 8,
    draw: (flow, z) => {
      const a = card.attendance;
      doc
        .font('bold')
        .fontSize(z + 0.5)
        .text(`${T.attendance}:  `, left, flow.y, { continued: true });
      // Times the register never marked are said: they must not read as presence.
      const unmarked = a.unmarked === null ? '' : `  ·  ${ATTENDANCE_LABELS.timesNotMarked} ${a.unmarked}`;
      doc
        .font('body')
        .text(`${T.timesOpened} ${fmt(a.times_opened)}  ·  ${T.present} ${fmt(a.present)}  ·  ${T.absent} ${fmt(a.absent)}${unmarked}`);
      flow.y += z + 8;
    },
  });
  // 4. Subjects (the third term's per-subject cumulative columns are part of it)
  list.push({
    subjects: true,
    height: (z) =>
      (card.subjects.length + 1) * rowHeight(Math.min(table.size, z)) + (table.absent ? 11 : 0) + (remarks.length ? 2 * (z + 2) + 4 : 0),
    draw: (flow, z) => {
      flowTable(doc, flow, left, table.columns, table.rows, Math.min(table.size, z));
      if (table.absent) {
        flow.need(11);
        doc
          .font('body')
          .fontSize(7)
          .fillColor(GREY)
          .text(ASSESSMENT_MESSAGES.absentNote, left, flow.y + 2, { width, lineBreak: false });
        doc.fillColor('#000000');
        flow.y += 11;
      }
      if (remarks.length) {
        const h = 2 * (z + 2);
        flow.need(h + 4);
        doc
          .font('body')
          .fontSize(z)
          .text(`Teachers' remarks: ${remarks.map((s) => `${s.subject}: ${s.teacher_remarks}`).join('  ·  ')}`, left, flow.y + 3, {
            width,
            height: h,
            ellipsis: true,
          });
        flow.y += h + 4;
      }
    },
  });
  // 5. Summary
  const summary = [
    `Total ${fmt(card.total)} (${card.subjects_taken} subjects)`,
    `Average ${formatAverage(card.average)}`,
    `Position ${card.position_text}`,
    `Class average ${formatAverage(card.class_average)}`,
    `${T.numberInClass} ${card.class_size}`,
    `${T.passed} ${card.subjects_passed}`,
    `${T.failed} ${card.subjects_failed}`,
  ].join('  ·  ');
  list.push({
    height: (z) => z + 5 + textHeight(summary, z + 0.5),
    draw: (flow, z) => {
      flow.y = sectionTitle(doc, T.summary, left, flow.y, z + 1);
      doc
        .font('body')
        .fontSize(z + 0.5)
        .text(summary, left, flow.y, { width });
      flow.y = doc.y;
    },
  });
  // 6 and 7. Ratings, the two domains side by side.
  if (domains.length) {
    list.push({
      height: (z) => z + 5 + (ratingRowsCount + 1) * rowHeight(z),
      draw: (flow, z) => {
        const gap = 10;
        const half = (width - gap) / 2;
        const cols: Column[] = [
          { label: 'Trait', width: half * 0.36 },
          { label: 'Rating', width: half * 0.14, align: 'center' },
          { label: 'Trait', width: half * 0.36 },
          { label: 'Rating', width: half * 0.14, align: 'center' },
        ];
        const y0 = flow.y;
        let end = y0;
        domains.forEach((d, i) => {
          const x = left + i * (half + gap);
          const y = sectionTitle(doc, d.title, x, y0, z + 1);
          end = Math.max(end, drawTable(doc, x, y, cols, ratingRows(d.traits), z));
        });
        flow.y = end;
      },
    });
  }
  // 8. Keys
  list.push({
    height: (z) => textHeight(gradingKey, z) + textHeight(ratingKey, z) + 4,
    draw: (flow, z) => {
      doc
        .font('body')
        .fontSize(z)
        .fillColor(GREY)
        .text(gradingKey, left, flow.y + 2, { width });
      doc.text(ratingKey, left, doc.y, { width });
      doc.fillColor('#000000');
      flow.y = doc.y + 2;
    },
  });
  // 9. Comments
  list.push({
    height: (z) => z + 5 + textHeight(formText, z + 0.5) + textHeight(principalText, z + 0.5) + 2,
    draw: (flow, z) => {
      flow.y = sectionTitle(doc, T.comments, left, flow.y, z + 1);
      doc
        .font('bold')
        .fontSize(z + 0.5)
        .text(formLabel, left, flow.y, { width, continued: true });
      doc.font('body').text(card.comments.form_teacher || '–');
      doc.font('bold').text(`${T.principalComment}: `, left, doc.y + 2, { width, continued: true });
      doc.font('body').text(card.comments.principal || '–');
      flow.y = doc.y;
    },
  });
  // 10 and 11. Next term on the left, the principal's signature and the stamp on the right.
  const signature = images(card.sign_off.signature);
  const stamp = images(card.sign_off.stamp);
  list.push({
    height: (z) => Math.max(3 * (z + 4) + z + 5, 58),
    draw: (flow, z) => {
      const y0 = flow.y;
      let y = sectionTitle(doc, T.nextTerm, left, y0, z + 1);
      doc.font('body').fontSize(z + 0.5);
      for (const l of nextLines) {
        doc.text(l, left, y, { width: width * 0.55, lineBreak: false, ellipsis: true });
        y += z + 4;
      }
      const boxW = 110;
      const sx = left + width - 2 * boxW - 10;
      const tx = left + width - boxW;
      if (signature) doc.image(signature as unknown as Buffer, sx, y0, { fit: [boxW, 36], align: 'center', valign: 'bottom' });
      if (stamp) doc.image(stamp as unknown as Buffer, tx, y0, { fit: [boxW, 44], align: 'center', valign: 'center' });
      doc.lineWidth(0.5).strokeColor('#000000');
      doc
        .moveTo(sx, y0 + 40)
        .lineTo(sx + boxW, y0 + 40)
        .stroke();
      doc.font('body').fontSize(7.5).fillColor(GREY);
      doc.text(T.signature, sx, y0 + 43, { width: boxW, align: 'center', lineBreak: false });
      doc.text(T.stamp, tx, y0 + 47, { width: boxW, align: 'center', lineBreak: false });
      doc.fillColor('#000000');
      flow.y = Math.max(y, y0 + 58);
    },
  });
  // 12 (third term): the session's totals and averages, then the decision.
  const cumulative = card.cumulative;
  if (cumulative) {
    list.push({
      height: (z) => z + 5 + 3 * rowHeight(z) + z + 5,
      draw: (flow, z) => {
        flow.y = sectionTitle(doc, T.cumulative, left, flow.y, z + 1);
        const w = width / 5;
        flow.y = drawTable(
          doc,
          left,
          flow.y,
          [
            { label: '', width: w },
            ...cumulative.terms.map((t): Column => ({ label: termLabel(t.term), width: w, align: 'right' })),
            { label: T.annualAverage, width: w, align: 'right' },
          ],
          [
            ['Total', ...cumulative.terms.map((t) => fmt(t.total)), ''],
            ['Average', ...cumulative.terms.map((t) => formatAverage(t.average)), formatAverage(cumulative.annual_average)],
          ],
          z,
        );
        doc
          .font('bold')
          .fontSize(z + 0.5)
          .text(`${T.annualAverage}: ${formatAverage(cumulative.annual_average)}`, left, flow.y + 3, { lineBreak: false });
        flow.y += z + 5;
      },
    });
  }
  const promotion = card.promotion;
  if (promotion) {
    const text = `${promotion.label}${promotion.overridden && promotion.reason ? ` (${promotion.reason})` : ''}`;
    list.push({
      height: (z) => z + 8,
      draw: (flow, z) => {
        doc
          .font('bold')
          .fontSize(z + 1)
          .text(`${T.promotion}:  `, left, flow.y + 2, { continued: true });
        doc.font('body').text(text, { lineBreak: false });
        flow.y += z + 8;
      },
    });
  }
  return list;
}

/** Header and student block (1 and 2): drawn first on the card's first page; returns where they end. */
function drawHeader(doc: PDFKit.PDFDocument, card: ReportCard, logo: PdfImage | undefined, photo: PdfImage | undefined): number {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  let y = doc.page.margins.top;
  let textLeft = left;
  if (logo) {
    doc.image(logo as unknown as Buffer, left, y, { fit: [50, 50] });
    textLeft = left + 60;
  }
  const w = width - (textLeft - left);
  doc.font('bold').fontSize(15).fillColor(GREEN).text(card.school.name, textLeft, y, { width: w, lineBreak: false, ellipsis: true });
  doc.font('body').fontSize(8.5).fillColor(GREY);
  const sub = [card.school.motto ? `Motto: ${card.school.motto}` : '', card.school.address].filter(Boolean).join('  ·  ');
  if (sub) doc.text(sub, textLeft, doc.y + 1, { width: w, lineBreak: false, ellipsis: true });
  const contact = [card.school.phone, card.school.email].filter(Boolean).join(' · ');
  if (contact) doc.text(contact, textLeft, doc.y + 1, { width: w, lineBreak: false, ellipsis: true });
  y = Math.max(doc.y, y + (logo ? 50 : 0)) + 5;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(1.5)
    .strokeColor(GREEN)
    .stroke();
  y += 6;
  doc
    .font('bold')
    .fontSize(11.5)
    .fillColor('#000000')
    .text(`Report Card — ${card.term_label}, ${card.session.name} Session`, left, y, { width, align: 'center' });
  y = doc.y + 5;

  // Student block, the photo on the right.
  const photoW = 48;
  const photoH = 58;
  const textW = width - photoW - 10;
  const half = textW / 2;
  const line = (label: string, value: string, x: number, yy: number) => {
    doc.font('bold').fontSize(8.5).text(`${label}: `, x, yy, { continued: true, width: half, lineBreak: false }).font('body').text(value);
  };
  const y0 = y;
  line('Name', personName(card.student), left, y);
  line('Admission number', card.student.admission_number, left + half, y);
  y += 13;
  line('Class', card.student.student_class, left, y);
  line(T.numberInClass, String(card.class_size), left + half, y);
  y += 13;
  line('Position', card.position_text, left, y);
  line('Average', formatAverage(card.average), left + half, y);
  y += 13;
  const px = left + width - photoW;
  if (photo) doc.image(photo as unknown as Buffer, px, y0, { fit: [photoW, photoH], align: 'center', valign: 'center' });
  doc.lineWidth(0.5).strokeColor('#94a3b8').rect(px, y0, photoW, photoH).stroke();
  return Math.max(y, y0 + photoH) + 6;
}

/** Subjects beyond this many may take a second page; up to it, the card is one A4 page. */
export const ONE_PAGE_SUBJECTS = 16;

function drawCard(doc: PDFKit.PDFDocument, card: ReportCard, images: Images): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const flow = new Flow(doc);
  flow.y = drawHeader(doc, card, images(card.school.logo, LOGO_STORED_PIXELS), images(card.student.photo));
  const list = blocks(doc, card, width, images);
  const gap = 6;
  const footer = 12;
  // One page: the largest type at which every block fits. Longer cards keep a readable type and run
  // on to a second page, a block (or a table row) never split.
  const total = (z: number) => list.reduce((h, b) => h + b.height(z) + gap, 0) + footer;
  const room = flow.bottom - flow.y;
  const size = card.subjects.length <= ONE_PAGE_SUBJECTS ? ([8, 7.5, 7, 6.5, 6, 5.5].find((z) => total(z) <= room) ?? 5.5) : 7.5;
  for (const b of list) {
    if (!b.subjects) flow.need(b.height(size));
    b.draw(flow, size);
    flow.y += gap;
  }
  flow.need(footer);
  const revised = card.revised_at
    ? ` · ${T.revised}: ${RESULT_MESSAGES.revisedOn(schoolDayOf(card.revised_at, card.school.time_zone ?? DEFAULT_TIME_ZONE))}`
    : '';
  doc
    .font('body')
    .fontSize(7)
    .fillColor(GREY)
    .text(
      `Generated ${formatDateTime(card.generated_at, card.school.time_zone)}${revised}${card.released ? '' : ' · not yet released to students'}`,
      left,
      flow.y,
      { width, align: 'center', lineBreak: false },
    );
  doc.fillColor('#000000');
}

/**
 * One PDF of report cards, each starting on a new A4 page (one page up to 16 subjects). `compress:
 * false` keeps the content readable (tests). Cards are drawn one event-loop turn apart, and the
 * document is ended in slices (lib/pdf.ts), so a class never holds the loop for long; callers
 * bound how many run at once (ConcurrencyLimiter in results.routes.ts).
 */
export async function renderReportCards(cards: ReportCard[], opts: { compress?: boolean; title?: string } = {}): Promise<Buffer> {
  return renderPdf(
    {
      size: 'A4',
      margin: 32,
      autoFirstPage: false,
      compress: opts.compress ?? true,
      info: { Title: opts.title ?? 'Report cards', Producer: 'School portal', Creator: 'School portal' },
    },
    async (doc) => {
      const opened = new Map<string, PdfImage | undefined>();
      const images: Images = (dataUrl, maxPixels) => {
        if (!dataUrl) return undefined;
        if (!opened.has(dataUrl)) opened.set(dataUrl, openImage(doc, dataUrl, maxPixels));
        return opened.get(dataUrl);
      };
      for (const card of cards) {
        // A turn before the first card too: the cards' computing (classCards) is not drawn in the same turn.
        await yieldToEventLoop();
        doc.addPage();
        drawCard(doc, card, images);
      }
    },
  );
}
