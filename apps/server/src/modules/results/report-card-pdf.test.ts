import { describe, expect, it } from 'vitest';
import {
  CARD_SECTION_TITLES,
  DEFAULT_REPORT_SETTINGS,
  DEFAULT_JSS_SCALE,
  RATING_DOMAIN_LABELS,
  RATING_DOMAINS,
  type ReportCard,
  type ReportCardSubject,
} from '@portal/domain';
import { greyPng } from '../../../test/grey-png';
import { pdfPageCount, pdfText } from '../../../test/pdf-text';
import { renderReportCards } from './pdf';

const png = (w: number, h: number) => `data:image/png;base64,${greyPng(w, h).toString('base64')}`;
const LABELS = ['CA1', 'CA2', 'CA3', 'Project', 'Test', 'Exam'];

/** A full third-term card: every section filled, `n` subjects of six components, long comments. */
export function fullCard(n: number, term: '1st' | '3rd' = '3rd'): ReportCard {
  const components = LABELS.map((label, i) => ({ name: label, label, max: i === 5 ? 50 : 10 }));
  const subjects: ReportCardSubject[] = Array.from({ length: n }, (_, i) => ({
    subject: `Subject number ${i + 1} with a long name`,
    score: 60 + (i % 30),
    components: Object.fromEntries(LABELS.map((l, k) => [l, k === 5 ? 40 : 8])),
    absent: [],
    grade: 'B',
    remark: 'Very good',
    teacher_remarks: '',
    position: (i % 40) + 1,
    class_average: 61.25,
    class_highest: 98,
    class_lowest: 21,
    ...(term === '3rd' ? { term_scores: { '1st': 55, '2nd': 66.5, '3rd': 60 + (i % 30), average: 63.17 } } : {}),
  }));
  return {
    school: {
      name: 'Role Models College',
      motto: 'Raising role models',
      address: '12 Unity Road, Ikeja, Lagos',
      logo: png(200, 200),
      phone: '0803 000 0000',
      email: 'office@rolemodels.sch.ng',
      time_zone: 'Africa/Lagos',
    },
    student: {
      admission_number: 'RMC/2025/0001',
      first_name: 'Chiamaka',
      last_name: 'Obi-Nwachukwu',
      gender: 'F',
      student_class: 'JSS 1A',
      photo: png(240, 300),
    },
    session: { id: 1, name: '2025/2026' },
    term,
    term_label: term === '3rd' ? 'Third Term' : 'First Term',
    components,
    subjects,
    total: 1200,
    subjects_taken: n,
    average: 75,
    class_average: 61.2,
    position: 5,
    class_size: 42,
    position_text: '5th out of 42',
    released: true,
    revisions: [],
    revised_at: '2026-07-20T10:00:00.000Z',
    cumulative:
      term === '3rd'
        ? {
            terms: [
              { term: '1st', total: 1100, average: 68.75, subjects_taken: n },
              { term: '2nd', total: 1150, average: 71.88, subjects_taken: n },
              { term: '3rd', total: 1200, average: 75, subjects_taken: n },
            ],
            annual_average: 71.88,
          }
        : null,
    status: 'released',
    attendance: { times_opened: 120, present: 115, absent: 5, source: 'form_teacher' },
    ratings: {
      labels: [...DEFAULT_REPORT_SETTINGS.rating_labels],
      domains: RATING_DOMAINS.map((domain) => ({
        domain,
        title: RATING_DOMAIN_LABELS[domain],
        traits: DEFAULT_REPORT_SETTINGS.traits[domain].map((t, i) => ({ name: t.name, rating: i % 2 ? null : 4 })),
      })),
    },
    subjects_passed: n - 1,
    subjects_failed: 1,
    grading_key: [...DEFAULT_JSS_SCALE],
    comments: {
      form_teacher: 'A diligent and well-behaved student who works hard in class. '.repeat(6).slice(0, 400),
      form_teacher_name: 'Grace Okafor',
      principal: 'An excellent result that shows real effort; keep it up next session. '.repeat(6).slice(0, 400),
    },
    sign_off: { signature: png(300, 100), stamp: png(150, 150) },
    next_term: { term_label: 'First Term', session_name: '2026/2027', begins: '2026-09-14', fees: 85000, outstanding: 12500 },
    promotion: term === '3rd' ? { decision: 'promoted', label: 'Promoted', overridden: false, reason: '' } : null,
    generated_at: '2026-07-21T09:00:00.000Z',
  };
}

describe('report card PDF', () => {
  it('prints every section, in order, on one A4 page for 16 subjects of six components (third term)', async () => {
    const pdf = await renderReportCards([fullCard(16)], { compress: false });
    expect(pdfPageCount(pdf)).toBe(1);
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    const order = [
      'Role Models College',
      'Report Card',
      CARD_SECTION_TITLES.numberInClass,
      CARD_SECTION_TITLES.attendance,
      CARD_SECTION_TITLES.timesOpened,
      CARD_SECTION_TITLES.present,
      CARD_SECTION_TITLES.absent,
      'Subject number 16',
      CARD_SECTION_TITLES.summary,
      CARD_SECTION_TITLES.passed,
      CARD_SECTION_TITLES.failed,
      CARD_SECTION_TITLES.cumulative,
      CARD_SECTION_TITLES.annualAverage,
      CARD_SECTION_TITLES.promotion,
      'Affective domain',
      'Psychomotor skills',
      CARD_SECTION_TITLES.gradingKey,
      CARD_SECTION_TITLES.ratingKey,
      CARD_SECTION_TITLES.comments,
      CARD_SECTION_TITLES.formTeacherComment,
      CARD_SECTION_TITLES.principalComment,
      CARD_SECTION_TITLES.nextTerm,
      CARD_SECTION_TITLES.nextTermBegins,
      CARD_SECTION_TITLES.nextTermFees,
      CARD_SECTION_TITLES.outstanding,
      CARD_SECTION_TITLES.signature,
      CARD_SECTION_TITLES.stamp,
      CARD_SECTION_TITLES.revised,
    ];
    let at = -1;
    for (const t of order) {
      const i = text.indexOf(t, at + 1);
      expect(i, `${t} after position ${at}`).toBeGreaterThan(at);
      at = i;
    }
    expect(text).toContain('Grace Okafor');
    expect(text).toContain('Promoted');
    expect(text).toContain('₦85,000.00');
    expect(text).toContain('₦12,500.00');
    // Logo, photo, signature and stamp are drawn (four image XObjects).
    expect((pdf.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length).toBeGreaterThanOrEqual(4);
  });

  it('runs to two pages above 16 subjects, with the heading repeated and no subject row split', async () => {
    for (const n of [17, 24]) expect(pdfPageCount(await renderReportCards([fullCard(n)], { compress: false }))).toBe(2);
    // A table longer than a page: its heading row is drawn again on the next page, every row whole.
    const big = await renderReportCards([fullCard(70)], { compress: false });
    expect(pdfPageCount(big)).toBeGreaterThanOrEqual(2);
    const text = pdfText(big);
    expect(text.match(/^Subject$/gm)).toHaveLength(2);
    for (let i = 1; i <= 70; i++) expect(text.match(new RegExp(`Subject number ${i}\\s`, 'g'))).toHaveLength(1);
  });

  it('prints an arm as one PDF, each card on its own page(s)', async () => {
    const cards = [fullCard(12, '1st'), fullCard(16), fullCard(20)];
    const pdf = await renderReportCards(cards, { compress: false });
    expect(pdfPageCount(pdf)).toBe(1 + 1 + 2);
  });
});
