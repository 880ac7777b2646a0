import { expect, expectAccessible, noSideways, signInViaApi, test } from '../fixtures';
import { asAdmin, createArm, createStaff, createStudent, runTag, type OwnStaff, type OwnStudent } from '../school';

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
// Its own data (fixture school.ts): a JSS 1 arm of this run, a student in it and a staff member.
let ARM = '';
const CREDENTIALS = { staff: {} as OwnStaff, student: {} as OwnStudent };

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  ARM = await createArm(api, 'JSS 1', RUN);
  CREDENTIALS.student = await createStudent(api, ARM, RUN);
  CREDENTIALS.staff = await createStaff(api, RUN);
});

/**
 * Signed out at a screen and sent to sign in, a person may pick their sign-in from the page's own
 * choices or from the header's links: either way they come back to the screen they were at.
 */
test('signed out at a screen, a staff member who picks "Staff" in the header comes back to that screen (360 px)', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/broadsheet?term=1st');
  await expect(page).toHaveURL(/\/login/);
  await expectAccessible(page);

  // The header's menu on a phone, then its Staff link.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' }).click();
  await expect(page).toHaveURL(/\/StaffLogin\?next=/);
  await page.getByLabel('Email').fill(CREDENTIALS.staff.email);
  await page.getByLabel('Password', { exact: true }).fill(CREDENTIALS.staff.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/broadsheet\?term=1st$/);
  await noSideways(page);
});

test('after an expired session, the header keeps the way back on every sign-in link (360 px)', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto(`/login?expired=1&next=${encodeURIComponent('/score-sheet')}`);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [name, path] of [
    ['Admin', '/Admin'],
    ['Staff', '/StaffLogin'],
    ['Student', '/StudentLogin'],
  ] as const) {
    await expect(nav.getByRole('link', { name })).toHaveAttribute('href', `${path}?next=${encodeURIComponent('/score-sheet')}`);
  }
  // A link to the page's own return address only: an address elsewhere is never carried.
  await page.goto(`/login?next=${encodeURIComponent('//evil.example/x')}`);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' })).toHaveAttribute('href', '/StaffLogin');
  await expectAccessible(page);
});

test('a student signs in with the admission number from the slip, typed loosely, on a phone (360 px)', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  const signedIn = await request.post('/api/student/login/', {
    data: { email: CREDENTIALS.student.email, password: CREDENTIALS.student.password },
  });
  const admissionNumber = (await signedIn.json()).data.admission_number as string;
  await page.goto('/StudentLogin');
  const field = page.getByLabel('Email or admission number');
  await expect(field).toHaveAttribute('type', 'text');
  await expect(page.getByText('Sign in with your admission number or school email, and your password.')).toBeVisible();
  await expectAccessible(page);
  await field.fill(` ${admissionNumber.toLowerCase().replace(/-/g, ' ')} `);
  await page.getByLabel('Password', { exact: true }).fill(CREDENTIALS.student.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/StudentHomePage$/);
});

test('a new student signs in with the admission number and one-time password their slip shows (360 px)', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'admin');
  await page.goto('/StudentReg');
  const t = Date.now().toString(36);
  await page.getByLabel('First name').fill('Zainab');
  await page.getByLabel('Last name').fill(`Bello${t}`);
  await page.getByLabel('Email').fill(`zainab.${t}@e2e.school`);
  await page.getByLabel('Phone number').fill('0803 555 7788');
  await page.getByLabel('Gender').selectOption('F');
  await page.getByLabel('Date of birth').fill('2013-04-12');
  await page.getByLabel('Class', { exact: true }).selectOption(ARM);
  await page.getByLabel("Father's name").fill('Mr Bello');
  await page.getByLabel('Home address').fill('3 Market Road, Kano');
  await page.getByRole('button', { name: 'Register Student' }).click();
  const slip = page.getByTestId('sign-in-slip');
  await expect(slip).toContainText('Sign in with your admission number (or your email) and this one-time password.');
  await expectAccessible(page);
  const admission = /STU-\d{4}/.exec((await slip.textContent())!)![0];
  const otp = (await page.getByTestId('one-time-password').textContent())!.trim();

  await page.evaluate(() => localStorage.clear());
  await page.goto('/StudentLogin');
  await page.getByLabel('Email or admission number').fill(admission);
  await page.getByLabel('Password', { exact: true }).fill(otp);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/change-password$/);
});
