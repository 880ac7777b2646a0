import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, expect, expectAccessible, noSideways, PHONE, signInViaApi, signInViaUi, test } from '../fixtures';
import {
  asAdmin,
  createArm,
  createStaff,
  createStudent,
  currentSessionId,
  enterScores,
  runTag,
  type AdminApi,
  type OwnStaff,
} from '../school';

/** People: new sign-ins, import dates, admission number format and withdrawal. Every test creates the records it changes. */

// Its own data (fixture school.ts): a JSS 1 arm and a JSS 2 arm of this run (registrations, import rows
// and the withdrawn student go there) and a teacher of this run who imports and withdraws.
const RUN = runTag();
let seq = 0;
const tag = () => `${Date.now().toString(36)}i${(seq++).toString(36)}`;
let JSS1 = '';
let JSS2 = '';
let teacher: OwnStaff;

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  JSS1 = await createArm(api, 'JSS 1', RUN);
  JSS2 = await createArm(api, 'JSS 2', RUN);
  teacher = await createStaff(api, RUN);
});

async function registerByForm(page: Page, first: string, last: string, email: string) {
  await page.goto('/StudentReg');
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill(last);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone number').fill('0803 555 1234');
  await page.getByLabel('Date of birth').fill('2012-02-10');
  await page.getByLabel('Class', { exact: true }).selectOption(JSS1);
  await page.getByLabel("Father's name").fill('Mr Parent');
  await page.getByLabel('Home address').fill('7 Bank Road, Ilorin');
  await page.getByRole('button', { name: 'Register Student' }).click();
  await expect(page.getByTestId('registration-success')).toContainText(`${first} ${last} registered successfully`);
  return (await page.getByTestId('one-time-password').textContent())!.trim();
}

/** A student of this run in the JSS 2 arm, first name Temi, who has chosen their password. */
async function createTemi(api: AdminApi) {
  const t = tag();
  const last_name = `Withdraw${t}`;
  return { ...(await createStudent(api, JSS2, `${RUN}${t}`, { first_name: 'Temi', last_name })), last_name };
}

async function setAdmissionFormat(request: APIRequestContext, format: string) {
  const token = await apiToken(request, 'admin');
  const current = await (await request.get('/api/settings/')).json();
  const res = await request.put('/api/settings/', {
    headers: { authorization: `Bearer ${token}` },
    data: { ...current, admission_number_format: format },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("slips of the day's form registrations stay together, print at once, and leave with sign-out", async ({ page, request }) => {
  const t = tag();
  await signInViaUi(page, 'admin');
  const first = await registerByForm(page, 'Ada', `First${t}`, `ada.${t}@e2e.school`);
  const second = await registerByForm(page, 'Bola', `Second${t}`, `bola.${t}@e2e.school`);
  expect(first).not.toBe(second);

  await page.getByRole('link', { name: "Today's sign-in slips" }).click();
  await expect(page.getByRole('heading', { name: "Today's New Sign-ins" })).toBeVisible();
  const slips = page.getByTestId('sign-in-slip');
  await expect(slips.filter({ hasText: `Ada First${t}` }).getByTestId('slip-password')).toHaveText(first);
  await expect(slips.filter({ hasText: `Bola Second${t}` }).getByTestId('slip-password')).toHaveText(second);
  await expect(page.getByRole('button', { name: 'Print sign-in slips' }).first()).toBeVisible();
  await expectAccessible(page);

  // The first slip still works after the second registration.
  const login = await request.post('/api/student/login/', { data: { email: `ada.${t}@e2e.school`, password: first } });
  expect(login.status()).toBe(200);

  // Sign-out clears the kept passwords: after signing in again the accounts are listed without them.
  await page.getByRole('button', { name: 'Logout' }).click();
  // Sign-out first tells the server, then clears storage: wait for it rather than race it.
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('newSignInPasswords'))).toBeNull();
  await signInViaUi(page, 'admin');
  await page.goto('/new-sign-ins');
  await expect(page.getByTestId('accounts-without-slip')).toContainText(`Bola Second${t}`);
  await expect(page.getByText(second)).toHaveCount(0);
});

test('the import preview lists only importable rows, names an impossible date, and counts grammatically', async ({ page, request }) => {
  const t = tag();
  const header =
    'first_name,last_name,email,phone_number,gender,date_of_birth,student_class,fathers_name,fathers_phone,mothers_name,mothers_phone,home_address';
  const rows = [
    `Kelechi,Nwosu,kelechi.${t}@e2e.school,08031110001,M,31/02/2010,${JSS1},Mr Nwosu,,,,1 Aba Road`,
    `Halima,Musa,halima.${t}@e2e.school,08031110002,F,2011-03-04,${JSS1},Mr Musa,,,,2 Kano Road`,
  ];
  await signInViaApi(page, request, 'staff', teacher);
  await page.goto('/import/students');
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'rows.csv', mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\n')) });
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByTestId('import-summary')).toHaveText('2 rows in the file; 1 ready to import.');
  const errors = page.getByRole('table', { name: /Errors/ });
  await expect(errors.getByRole('row').nth(1)).toHaveText(/2\s*Date of birth\s*31\/02\/2010 is not a date that exists/);
  await expect(errors).not.toContainText('(YYYY-MM-DD)');
  const firstRows = page.getByRole('table', { name: 'First rows ready to import' });
  await expect(firstRows.getByRole('row')).toHaveCount(2);
  await expect(firstRows).toContainText('Halima');
  await expect(firstRows).not.toContainText('Kelechi');
  await expect(page.getByRole('button', { name: 'Import 1 student', exact: true })).toBeDisabled();
  await expectAccessible(page);
});

test('the admission number format is a setting; new numbers use it, lookups with slashes work, old numbers stay', async ({
  page,
  request,
}) => {
  // A student admitted before the format changes keeps their number.
  const api = await asAdmin(request);
  const old = await createTemi(api);
  expect(old.admission_number).toMatch(/^STU-\d{4}$/);
  try {
    await signInViaApi(page, request, 'admin');
    await page.goto('/settings');
    const field = page.getByLabel('Admission number format');
    await expect(field).toHaveValue('STU-{NNNN}');
    await field.fill('RMC/{YYYY}');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText(/needs one counter/)).toBeVisible();
    await field.fill('RMC/{YYYY}/{NNNN}');
    await expect(page.getByTestId('admission-format-example')).toHaveText(`Example: RMC/${new Date().getFullYear()}/0012`);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved').first()).toBeVisible();

    const st = await createTemi(api);
    expect(st.admission_number).toMatch(/^RMC\/\d{4}\/\d{4}$/);
    // The student admitted before the change kept the old number.
    const kept = await request.get(`/api/students/${old.admission_number}/`, { headers: api.headers });
    expect(kept.status()).toBe(200);

    // Lookups accept the new number, slashes and all: find, then the detail page by URL.
    await page.goto('/CheckAStudentData');
    await page
      .getByLabel(/admission number/i)
      .first()
      .fill(st.admission_number.toLowerCase());
    await page
      .getByRole('button', { name: /search|find/i })
      .first()
      .click();
    await expect(page.getByText(st.last_name).first()).toBeVisible();
    await page.goto(`/students/${encodeURIComponent(st.admission_number)}`);
    await expect(page.getByText(st.admission_number, { exact: true }).first()).toBeVisible();
  } finally {
    await setAdmissionFormat(request, 'STU-{NNNN}');
  }
});

test('on a 360 px phone, a student with records is withdrawn (the default), cannot sign in, and is readmitted', async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  const api = await asAdmin(request);
  const st = await createTemi(api);
  // Give the student a result, so withdrawing is the offered default.
  const sessionId = await currentSessionId(api);
  await enterScores(api, { sessionId, term: '1st', arm: JSS2, admission: st.admission_number, scores: { Mathematics: 71 } });

  await signInViaApi(page, request, 'staff', teacher);
  await page.goto(`/DeleteStudent/${encodeURIComponent(st.admission_number)}`);
  await expect(page.getByText('1 result, 0 payments')).toBeVisible();
  const choices = page.getByTestId('withdraw-or-delete');
  await expect(choices).toContainText('Withdraw (recommended when a student leaves)');
  await expect(choices).toContainText('Delete (only for a record created by mistake)');
  await expectAccessible(page);
  await noSideways(page);

  // Delete's confirmation explains the difference and offers withdrawing instead.
  await page.getByRole('button', { name: 'Delete Student' }).click();
  await expect(page.getByText('1 result will be deleted and 0 payments will no longer be linked to this student.')).toBeVisible();
  await noSideways(page);
  await page.getByRole('button', { name: 'Withdraw instead' }).click();
  await expect(page.getByRole('button', { name: 'Yes, withdraw' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Yes, withdraw' }).click();
  await expect(page.getByText(/has been withdrawn\. The record is kept\./)).toBeVisible();
  await expect(page.getByText(/^Withdrawn \(\d{4}-\d{2}-\d{2}\)$/)).toBeVisible();
  await noSideways(page);

  // The kept record is read-only: an update says why it is refused.
  await page.goto('/UpdateStudentDetails');
  await page.getByLabel('Admission number').fill(st.admission_number);
  await page.getByLabel('Admission number').blur();
  await expect(page.getByLabel('First name')).toHaveValue('Temi');
  await page.getByLabel('First name').fill('Changed');
  await page.getByRole('button', { name: 'Update Student' }).click();
  await expect(page.getByText(/This student has been withdrawn: the record is kept read-only/).first()).toBeVisible();
  await noSideways(page);

  // The student's sign-in says why it is refused.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/StudentLogin');
  await page.getByLabel('Email').fill(st.email);
  await page.getByLabel('Password', { exact: true }).fill(st.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(/has been withdrawn from the school/)).toBeVisible();
  await noSideways(page);
  await expectAccessible(page);

  // Readmitted, the student signs in again.
  await signInViaApi(page, request, 'admin');
  await page.goto(`/DeleteStudent/${encodeURIComponent(st.admission_number)}`);
  await page.getByRole('button', { name: 'Readmit Student' }).click();
  await expect(page.getByText(/has been readmitted/)).toBeVisible();
  const again = await request.post('/api/student/login/', { data: { email: st.email, password: st.password } });
  expect(again.status()).toBe(200);
});
