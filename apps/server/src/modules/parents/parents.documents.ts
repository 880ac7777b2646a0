import { formatNigerianPhone, type ParentSlip } from '@portal/domain';
import { renderPdf } from '../../lib/pdf';
import { yieldToEventLoop } from '../../lib/yield';

/** Slips per A4 page: two columns of four, cut along the lines. */
const COLUMNS = 2;
const ROWS = 4;

/**
 * The invitation slips as an A4 PDF (like the students' sign-in slips): the school, the parent's
 * name, the phone they sign in with, the one-time password, the children, and where to sign in.
 */
export function parentSlipsPdf(slips: readonly ParentSlip[], school: { name: string; signInAt: string }): Promise<Buffer> {
  return renderPdf({ size: 'A4', margin: 24, info: { Title: 'Parent sign-in slips', Author: school.name } }, async (doc) => {
    const { width, height } = doc.page;
    const m = 24;
    const w = (width - 2 * m) / COLUMNS;
    const h = (height - 2 * m) / ROWS;
    for (let i = 0; i < slips.length; i++) {
      const onPage = i % (COLUMNS * ROWS);
      if (i && !onPage) {
        doc.addPage();
        await yieldToEventLoop();
      }
      const s = slips[i]!;
      const x = m + (onPage % COLUMNS) * w;
      const y = m + Math.floor(onPage / COLUMNS) * h;
      doc.save().dash(3, { space: 3 }).lineWidth(0.5).strokeColor('#999').rect(x, y, w, h).stroke().restore();
      const inner = { width: w - 24, lineBreak: true, ellipsis: true };
      doc.font('bold').fontSize(11).fillColor('#000').text(school.name, x + 12, y + 12, { ...inner, height: 28 });
      doc.font('body').fontSize(9).fillColor('#444').text('Parent portal sign-in', x + 12, doc.y + 2, inner);
      doc.moveDown(0.4);
      doc.font('bold').fontSize(10).fillColor('#000').text(s.name, x + 12, doc.y, { ...inner, height: 26 });
      doc.font('body').fontSize(9).text(`Phone (sign-in): ${formatNigerianPhone(s.phone)}`, x + 12, doc.y + 2, inner);
      doc.font('bold').fontSize(12).text(`One-time password: ${s.password}`, x + 12, doc.y + 4, inner);
      doc
        .font('body')
        .fontSize(8)
        .text(`Children: ${s.children.join('; ') || '-'}`, x + 12, doc.y + 4, { ...inner, height: 40 });
      doc
        .fontSize(8)
        .fillColor('#444')
        .text(`Sign in at ${school.signInAt}. You will choose your own password at first sign-in.`, x + 12, doc.y + 4, {
          ...inner,
          height: 24,
        });
    }
  });
}
