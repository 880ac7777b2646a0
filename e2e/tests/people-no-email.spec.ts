import type { APIRequestContext } from '@playwright/test';
import { AUTH_MESSAGES } from '../../packages/domain/src/auth-constants';
import { STUDENT_CONTACT_HINT } from '../../packages/domain/src/people-constants';
import { TEACHING_MESSAGES } from '../../packages/domain/src/teaching';
import { apiToken, expect, expectAccessible, noSideways, signInViaApi, test } from '../fixtures';
import { asAdmin, createArm, runTag } from '../school';

// On a 360 px phone: the admin registers a pupil with neither email nor phone
// (the slip names the admission number as the sign-in id, and the pupil signs in with it); and on
// the offerings screen sets one subject's offering for three levels in one action, after a refused
// attempt that changed nothing. French in SSS, which the demo school does not offer, is put back.

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
/** The pupil's arm: this run's own (fixture school.ts). */
let ARM = '';
const SENIOR = ['SSS 1', 'SSS 2', 'SSS 3'] as const;

async function french(request: APIRequestContext, headers: Record<string, string>): Promise<number> {
  const res = await request.get('/api/teaching/structure/', { headers });
  const s = (await res.json()) as { subjects: { id: number; name: string }[] };
  return s.subjects.find((x) => x.name === 'French')!.id;
}

test.use({ viewport: PHONE });

test.beforeAll(async ({ request }) => {
  ARM = await createArm(await asAdmin(request), 'JSS 1', RUN);
});

test.afterAll(async ({ request }) => {
  const headers = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
  const id = await french(request, headers);
  await request.put(`/api/teaching/subjects/${id}/offerings/`, { headers, data: { offering: 'none', levels: SENIOR } });
});

test('a pupil is registered without email or phone and signs in with the admission number', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signInViaApi(page, request, 'admin');
  await page.goto('/StudentReg');
  await expect(page.getByRole('heading', { name: 'Student Registration' })).toBeVisible();
  await expect(page.getByText(STUDENT_CONTACT_HINT)).toBeVisible();

  await page.getByLabel('First name').fill('Zainab');
  await page.getByLabel('Last name').fill(`Musa${RUN}`);
  await page.getByLabel('Gender').selectOption('F');
  await page.getByLabel('Date of birth').fill('2014-04-02');
  await page.getByLabel('Class', { exact: true }).selectOption(ARM);
  await page.getByLabel("Father's name").fill('Alhaji Musa');
  await page.getByLabel("Father's phone").fill('0803 777 1234');
  await page.getByLabel('Home address').fill('5 Zaria Road, Kano');
  await page.getByRole('button', { name: 'Register Student' }).click();

  const success = page.getByTestId('registration-success');
  await expect(success).toContainText(`Student Zainab Musa${RUN} registered successfully`);
  const message = (await success.getByTestId('alert-success').first().textContent())!.trim();
  const admission = /admission number: (\S+?)\.?$/.exec(message)?.[1] ?? '';
  expect(admission).not.toBe('');
  const otp = (await page.getByTestId('one-time-password').textContent())!.trim();
  const slip = page.getByTestId('sign-in-slip');
  await expect(slip).toContainText(admission);
  await expect(slip).not.toContainText('Email');
  await expect(slip).toContainText(AUTH_MESSAGES.slipStudentSignInNoEmail);
  await expect(page.getByText('Email is required')).toHaveCount(0);
  await expect(page.getByText('Phone number is required')).toHaveCount(0);
  await noSideways(page);
  await expectAccessible(page);

  // The pupil signs in with the number on the slip.
  const pupil = await page.context().browser()!.newContext({ baseURL: test.info().project.use.baseURL, viewport: PHONE });
  const p = await pupil.newPage();
  await p.goto('/StudentLogin');
  await p.getByLabel('Email or admission number').fill(admission.toLowerCase());
  await p.getByLabel('Password', { exact: true }).fill(otp);
  await p.getByRole('button', { name: 'Login' }).click();
  await expect(p.getByLabel('Current password')).toBeVisible();
  await pupil.close();
});

test('the admin sets French for SSS 1 to 3 in one action, after a refused attempt that changed nothing', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signInViaApi(page, request, 'admin');
  await page.goto('/classes-subjects');
  await expect(page.getByRole('heading', { name: 'Classes and Subjects', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'Set one subject for several class levels' });
  await form.getByLabel('Subject').selectOption({ label: 'French' });

  // Stream is for senior levels only: with JSS 3 among the levels, the whole change is refused.
  await form.getByLabel('Offering').selectOption('stream');
  for (const level of ['JSS 3', ...SENIOR]) await form.getByLabel(level, { exact: true }).check();
  await form.getByRole('button', { name: 'Apply to the chosen levels' }).click();
  await expect(form.getByText(TEACHING_MESSAGES.streamOfferingSenior('French', 'JSS 3'))).toBeVisible();
  for (const level of SENIOR) await expect(page.getByLabel(`French in ${level}`)).toHaveValue('no');
  await noSideways(page);
  await expectAccessible(page);

  // Elective in the three senior levels: one action, every column cell follows.
  await form.getByLabel('JSS 3', { exact: true }).uncheck();
  await form.getByLabel('Offering').selectOption('elective');
  await form.getByRole('button', { name: 'Apply to the chosen levels' }).click();
  await expect(page.getByText(TEACHING_MESSAGES.offeringsSetForLevels('French', 'Elective', [...SENIOR]))).toBeVisible();
  for (const level of SENIOR) await expect(page.getByLabel(`French in ${level}`)).toHaveValue('elective');
  await noSideways(page);
  await expectAccessible(page);
});
