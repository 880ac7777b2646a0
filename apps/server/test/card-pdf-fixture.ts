import {
  DEFAULT_REPORT_SETTINGS,
  DEFAULT_JSS_SCALE,
  RATING_DOMAIN_LABELS,
  RATING_DOMAINS,
  type ReportCard,
  type ReportCardSubject,
} from '@portal/domain';
import { greyPng } from './grey-png';

const png = (w: number, h: number) => `data:image/png;base64,${greyPng(w, h).toString('base64')}`;
const LABELS = ['CA1', 'CA2', 'CA3', 'Project', 'Test', 'Exam'];

/** A full card for the PDF tests (third term by default): every section filled, `n` subjects of six components, long comments. */
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
    attendance: { times_opened: 120, present: 115, absent: 5, source: 'form_teacher', unmarked: null },
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
