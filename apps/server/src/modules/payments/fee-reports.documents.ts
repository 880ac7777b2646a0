import { FEE_REPORT_LABELS as L, formatDateTime, formatNaira, termLabel, type Debtor, type SchoolSettings } from '@portal/domain';
import { toCsvInSlices } from '../../lib/csv';
import { renderPdf } from '../../lib/pdf';
import { yieldToEventLoop } from '../../lib/yield';
import type { DebtorsReport } from './fee-reports.service';

/** Every debtor of the filter as CSV (formula-safe through toCsv), with a totals row; written in slices. */
export async function debtorsCsv(r: DebtorsReport): Promise<string> {
  const money = (n: number) => n.toFixed(2);
  return toCsvInSlices(
    [
      ...r.debtors.map((d) => [
        d.admission_number,
        d.full_name,
        d.student_class,
        money(d.due),
        money(d.discount),
        money(d.paid),
        money(d.balance),
        d.status,
        d.days_overdue,
        d.last_paid_on ?? '',
        money(d.brought_forward),
      ]),
      ['Totals', L.debtors(r.debtors.length), '', '', '', '', money(r.total_balance), '', '', '', ''],
    ],
    // brought_forward (decision 041) is counted in due (arrears) or paid (credit); last, so older readers keep their columns.
    [
      'admission_number',
      'full_name',
      'class',
      'due',
      'discount',
      'paid',
      'balance',
      'status',
      'days_overdue',
      'last_paid_on',
      'brought_forward',
    ],
  );
}

/** The title of the list, its CSV and its PDF. */
export function debtorsTitle(r: DebtorsReport): string {
  return L.debtorsTitle(r.scope, r.session.name, r.term ? termLabel(r.term) : null);
}

interface Column {
  label: string;
  width: number;
  align: 'left' | 'right';
  value: (d: Debtor) => string;
}
// A4 landscape (770 pt between the margins): since the brought-forward column (issue 34) a portrait
// page cut the names short.
const COLUMNS: Column[] = [
  { label: L.admissionNumber, width: 80, align: 'left', value: (d) => d.admission_number },
  { label: L.name, width: 190, align: 'left', value: (d) => d.full_name },
  { label: L.class, width: 80, align: 'left', value: (d) => d.student_class },
  // Brought forward from the previous session (decision 041): counted in Due (a credit in Paid).
  { label: L.broughtForward, width: 70, align: 'right', value: (d) => (d.brought_forward ? formatNaira(d.brought_forward) : '') },
  { label: L.due, width: 75, align: 'right', value: (d) => formatNaira(d.due) },
  { label: L.paid, width: 75, align: 'right', value: (d) => formatNaira(d.paid) },
  { label: L.balance, width: 75, align: 'right', value: (d) => formatNaira(d.balance) },
  { label: L.days, width: 40, align: 'right', value: (d) => String(d.days_overdue) },
  { label: L.lastPaid, width: 70, align: 'right', value: (d) => d.last_paid_on ?? '' },
];
const ROW = 14;
const PAD = 3;
/** Rows drawn between two turns of the event loop (a page holds about 50; one took 15 to 75 ms loaded). */
export const ROWS_PER_TURN = 20;

/**
 * Every debtor of the filter on A4: the school's header (as on receipts), the title, a table whose
 * header row repeats on every page, the total, and "Page i of n" on each page. Rows are drawn
 * `ROWS_PER_TURN` (and a page at most) to a turn of the event loop, and the buffered pages are written
 * a few to a turn (lib/pdf.ts); callers bound how many PDFs render at once (deps.pdfRenders).
 */
export function debtorsPdf(r: DebtorsReport, school: SchoolSettings, opts: { compress?: boolean; now?: Date } = {}): Promise<Buffer> {
  const title = debtorsTitle(r);
  return renderPdf(
    {
      size: 'A4',
      layout: 'landscape',
      margin: 36,
      bufferPages: true,
      compress: opts.compress ?? true,
      info: { Title: title, Author: school.school_name },
    },
    async (doc) => {
      const left = doc.page.margins.left;
      const width = doc.page.width - left - doc.page.margins.right;
      const bottom = () => doc.page.height - doc.page.margins.bottom - 16;

      doc.font('bold').fontSize(15).text(school.school_name, { align: 'center' });
      doc.font('body').fontSize(9).fillColor('#444').text(school.motto, { align: 'center' });
      doc.text([school.address, school.phone, school.email].filter(Boolean).join(' · '), { align: 'center' });
      doc.moveDown(0.8);
      doc.fillColor('#000').font('bold').fontSize(12).text(title, { align: 'center' });
      doc
        .font('body')
        .fontSize(9)
        .text(
          `${L.debtors(r.debtors.length)} · ${L.totalOwed}: ${formatNaira(r.total_balance)} · ${L.printed(formatDateTime(opts.now ?? new Date(), school.time_zone))}`,
          { align: 'center' },
        );
      doc.moveDown(0.8);

      const cells = (values: string[], y: number, font: 'body' | 'bold') => {
        let x = left;
        doc.font(font).fontSize(8);
        COLUMNS.forEach((c, i) => {
          doc.text(values[i]!, x + PAD, y + 3, {
            width: c.width - 2 * PAD,
            align: c.align,
            lineBreak: false,
            height: ROW - 3,
            ellipsis: true,
          });
          x += c.width;
        });
      };
      const header = () => {
        const y = doc.y;
        doc.rect(left, y, width, ROW).fill('#e8edf3').fillColor('#000');
        cells(
          COLUMNS.map((c) => c.label),
          y,
          'bold',
        );
        doc.y = y + ROW;
      };
      header();
      for (const [i, d] of r.debtors.entries()) {
        if (doc.y + ROW > bottom()) {
          doc.addPage();
          await yieldToEventLoop();
          doc.y = doc.page.margins.top;
          header();
        } else if (i % ROWS_PER_TURN === 0) await yieldToEventLoop();
        const y = doc.y;
        if (i % 2 === 1) doc.rect(left, y, width, ROW).fill('#f6f7f9').fillColor('#000');
        cells(
          COLUMNS.map((c) => c.value(d)),
          y,
          'body',
        );
        doc.y = y + ROW;
      }
      if (doc.y + ROW > bottom()) {
        doc.addPage();
        doc.y = doc.page.margins.top;
      }
      const y = doc.y;
      doc
        .moveTo(left, y)
        .lineTo(left + width, y)
        .stroke('#999');
      cells(['', L.total, '', '', '', '', formatNaira(r.total_balance), '', ''], y, 'bold');

      // The page numbers in a turn of their own (one line a page).
      await yieldToEventLoop();
      const range = doc.bufferedPageRange();
      for (let p = range.start; p < range.start + range.count; p++) {
        doc.switchToPage(p);
        const margin = doc.page.margins.bottom;
        // Writing inside the bottom margin would otherwise open a new page.
        doc.page.margins.bottom = 0;
        doc
          .font('body')
          .fontSize(8)
          .fillColor('#555')
          .text(L.pageOf(p - range.start + 1, range.count), left, doc.page.height - margin - 10, {
            width,
            align: 'center',
            lineBreak: false,
          });
        doc.page.margins.bottom = margin;
      }
    },
  );
}
