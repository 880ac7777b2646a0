import { ATTENDANCE_LABELS } from '../../packages/domain/src/attendance';
import { greyPng } from '../../apps/server/test/grey-png';
import { CARD_SECTION_TITLES as T } from '../../packages/domain/src/report-cards';
import { REPORT_MESSAGES } from '../../packages/domain/src/report-card-rules';
import type { ReportCard } from '../../packages/domain/src/report-cards';
import { expect, expectAccessible, noSideways, signInViaApi, test } from '../fixtures';
import { asAdmin, createArm, createStudent, runTag } from '../school';

// The card's layout with every section full (16 subjects of CA1/CA2/Exam, a photo, signature and
// stamp, long comments, the third term's cumulative table and promotion): readable on a 360 px phone
// with nothing cut off, and printed on one A4 page. The card is served from a fixture, so this checks
// the screen alone; report-card-flow.spec.ts runs the real card end to end. The student who signs in
// is the spec's own (fixture school.ts: a JSS 1 arm of this run).

const png = (w: number, h: number) => `data:image/png;base64,${greyPng(w, h).toString('base64')}`;
const SUBJECTS = [
  'English Language',
  'Mathematics',
  'Basic Science',
  'Basic Technology',
  'Social Studies',
  'Civic Education',
  'Christian Religious Studies',
  'Agricultural Science',
  'Home Economics',
  'Business Studies',
  'Computer Studies',
  'French',
  'Yoruba',
  'Physical and Health Education',
  'Cultural and Creative Arts',
  'Security Education',
];

function fullCard(over: Partial<ReportCard> = {}): ReportCard {
  return {
    school: {
      name: 'Demo Secondary School',
      motto: 'Knowledge and Service',
      address: '12 Allen Avenue, Ikeja, Lagos',
      logo: png(64, 64),
      phone: '0803 000 0000',
      email: 'info@demo.school',
    },
    student: {
      admission_number: 'STU-0001',
      first_name: 'Chiamaka',
      last_name: 'Oluwaseun-Abubakar',
      gender: 'F',
      student_class: 'JSS 1A',
      photo: png(120, 150),
    },
    session: { id: 2, name: '2025/2026' },
    term: '3rd',
    term_label: 'Third Term',
    components: [
      { name: 'Continuous Assessment 1', label: 'CA1', max: 20 },
      { name: 'Continuous Assessment 2', label: 'CA2', max: 20 },
      { name: 'Examination', label: 'Exam', max: 60 },
    ] as ReportCard['components'],
    subjects: SUBJECTS.map((subject, i) => ({
      subject,
      score: 60 + (i % 30),
      components: { CA1: 15, CA2: 15 + (i % 5), Exam: 30 + (i % 25) },
      absent: [],
      grade: 'B3',
      remark: 'Good',
      teacher_remarks: '',
      position: (i % 40) + 1,
      class_average: 58.25,
      class_highest: 95,
      class_lowest: 21,
      term_scores: { '1st': 55 + (i % 20), '2nd': 60 + (i % 15), '3rd': 60 + (i % 30), average: 61.33 },
    })),
    total: 1150,
    subjects_taken: 16,
    average: 71.88,
    class_average: 58.25,
    position: 5,
    class_size: 42,
    position_text: '5th out of 42',
    released: true,
    revisions: [],
    revised_at: null,
    cumulative: {
      terms: [
        { term: '1st', total: 1010, average: 63.13, subjects_taken: 16 },
        { term: '2nd', total: 1080, average: 67.5, subjects_taken: 16 },
        { term: '3rd', total: 1150, average: 71.88, subjects_taken: 16 },
      ],
      annual_average: 67.5,
    },
    status: 'released',
    attendance: { times_opened: 62, present: 58, absent: 4, source: 'form_teacher', unmarked: null },
    ratings: {
      labels: ['Poor', 'Fair', 'Good', 'Very good', 'Excellent'],
      domains: [
        {
          domain: 'affective',
          title: 'Affective domain',
          traits: ['Punctuality', 'Neatness', 'Politeness', 'Honesty', 'Self-control', 'Cooperation', 'Leadership', 'Attentiveness'].map(
            (name, i) => ({ name, rating: (i % 5) + 1 }),
          ),
        },
        {
          domain: 'psychomotor',
          title: 'Psychomotor skills',
          traits: ['Handwriting', 'Sports and games', 'Arts and crafts', 'Music'].map((name, i) => ({
            name,
            rating: i === 3 ? null : i + 2,
          })),
        },
      ],
    },
    subjects_passed: 15,
    subjects_failed: 1,
    grading_key: [
      { grade: 'A1', min: 75, max: 100, remark: 'Excellent' },
      { grade: 'B2', min: 70, max: 74, remark: 'Very good' },
      { grade: 'B3', min: 65, max: 69, remark: 'Good' },
      { grade: 'C4', min: 60, max: 64, remark: 'Credit' },
      { grade: 'C5', min: 55, max: 59, remark: 'Credit' },
      { grade: 'C6', min: 50, max: 54, remark: 'Credit' },
      { grade: 'D7', min: 45, max: 49, remark: 'Pass' },
      { grade: 'E8', min: 40, max: 44, remark: 'Pass' },
      { grade: 'F9', min: 0, max: 39, remark: 'Fail' },
    ],
    comments: {
      form_teacher: 'A careful and hardworking student who helps others in class and leads the reading club with real energy.',
      form_teacher_name: 'Grace Okafor',
      principal: 'A fine session. Keep up the good work and aim for the top three next session.',
    },
    sign_off: { signature: png(240, 80), stamp: png(120, 120) },
    next_term: { term_label: 'First Term', session_name: '2026/2027', begins: '2026-09-14', fees: 45000, outstanding: 12500.5 },
    promotion: { decision: 'promoted', label: 'Promoted', overridden: false, reason: '' },
    generated_at: '2026-07-20T10:00:00Z',
    ...over,
  };
}

const PHONE = { width: 360, height: 740 };

test('a full third-term card reads on a 360 px phone with nothing cut off, and prints on one A4 page', async ({ page, request }) => {
  const card = fullCard();
  await page.route('**/api/report-card/?**', (route) => route.fulfill({ json: card }));
  const api = await asAdmin(request);
  const RUN = runTag();
  const student = await createStudent(api, await createArm(api, 'JSS 1', RUN), RUN);
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'student', student);
  await page.goto('/report-card?session_id=2&term=3rd');
  const article = page.getByRole('article', { name: 'Report card' });
  await expect(article).toBeVisible();
  // Where the attendance came from shows on screen (not in print).
  await expect(page.getByTestId('card-attendance-source')).toHaveText(ATTENDANCE_LABELS.fromFormTeacher);
  for (const words of [
    'Knowledge and Service',
    '0803 000 0000',
    'Third Term, 2025/2026',
    `${T.numberInClass}: 42`,
    `${T.timesOpened}: 62`,
    '5th out of 42',
    `${T.passed}: 15`,
    'Affective domain',
    'Psychomotor skills',
    '5 = Excellent',
    'F9: 0–39 Fail',
    "Form teacher's comment (Grace Okafor)",
    card.comments.principal,
    '14 September 2026',
    '₦45,000.00',
    '₦12,500.50',
    T.cumulative,
    `${T.annualAverage}: 67.50`,
    'Promoted',
  ])
    await expect(article).toContainText(words);
  await expect(page.getByTestId('card-photo')).toBeVisible();
  await expect(page.getByRole('img', { name: T.signature })).toBeVisible();
  await expect(page.getByRole('img', { name: T.stamp })).toBeVisible();
  await noSideways(page);
  await expectAccessible(page);

  // Print: one A4 page for 16 subjects with every section.
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
  expect((pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length).toBe(1);
});

test('staff see an unreleased card’s status; a card not dated yet says “To be announced”; a revised card says so', async ({
  page,
  request,
}) => {
  const card = fullCard({
    status: 'submitted',
    released: false,
    cumulative: null,
    promotion: null,
    term: '2nd',
    term_label: 'Second Term',
    next_term: { term_label: 'Third Term', session_name: '2025/2026', begins: null, fees: null, outstanding: 0 },
    revised_at: '2026-05-02T09:00:00Z',
    revisions: [{ subject: 'Mathematics', at: '2026-05-02T09:00:00Z', reason: 'Exam script remarked' }],
  });
  await page.route('**/api/report-card/?**', (route) => route.fulfill({ json: card }));
  await signInViaApi(page, request, 'admin');
  await page.goto('/report-card?admission_number=STU-0001&session_id=2&term=2nd');
  await expect(page.getByTestId('card-status')).toContainText('Submitted: not yet released');
  await expect(page.getByTestId('card-next-term-begins')).toHaveText(REPORT_MESSAGES.toBeAnnounced);
  await expect(page.getByTestId('card-next-term')).toContainText(REPORT_MESSAGES.notSet);
  await expect(page.getByTestId('revised')).toContainText('Revised on 2026-05-02');
  await expect(page.getByTestId('card-cumulative')).toHaveCount(0);
  await expect(page.getByTestId('card-promotion')).toHaveCount(0);
  await expectAccessible(page);
});
