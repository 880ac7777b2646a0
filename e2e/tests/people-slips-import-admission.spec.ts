import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, expect, expectAccessible, signInViaApi, signInViaUi, test } from '../fixtures';

/** People: new sign-ins, import dates, admission number format and withdrawal. Every test creates the records it changes. */

let seq = 0;
const tag = () => `${Date.now().toString(36)}i${(seq++).toString(36)}`;

async function registerByForm(page: Page, first: string, last: string, email: string) {
  await page.goto('/StudentReg');
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill(last);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone number').fill('0803 555 1234');
  await page.getByLabel('Date of birth').fill('2012-02-10');
  await page.getByLabel('Class', { exact: true }).selectOption('JSS 1B');
  await page.getByLabel("Father's name").fill('Mr Parent');
  await page.getByLabel('Home address').fill('7 Bank Road, Ilorin');
  await page.getByRole('button', { name: 'Register Student' }).click();
  await expect(page.getByTestId('registration-success')).toContainText(`${first} ${last} registered successfully`);
  return (await page.getByTestId('one-time-password').textContent())!.trim();
}

async function createStudent(request: APIRequestContext, token: string) {
  const t = tag();
  const res = await request.post('/api/students/', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      first_name: 'Temi',
      last_name: `Withdraw${t}`,
      email: `temi.${t}@e2e.school`,
      phone_number: '08031234567',
      date_of_birth: '2011-06-01',
      student_class: 'JSS 2B',
      fathers_name: 'Mr Lawal',
      home_address: '3 Ring Road, Ibadan',
      password: 'Temi-Own-Pass-2026',
      confirm_password: 'Temi-Own-Pass-2026',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { admission_number: string; email: string; last_name: string };
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
    `Kelechi,Nwosu,kelechi.${t}@e2e.school,08031110001,M,31/02/2010,JSS 1A,Mr Nwosu,,,,1 Aba Road`,
    `Halima,Musa,halima.${t}@e2e.school,08031110002,F,2011-03-04,JSS 1A,Mr Musa,,,,2 Kano Road`,
  ];
  await signInViaApi(page, request, 'staff');
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

    const token = await apiToken(request, 'admin');
    const st = await createStudent(request, token);
    expect(st.admission_number).toMatch(/^RMC\/\d{4}\/\d{4}$/);
    // The demo school's first student kept the old number.
    const old = await request.get('/api/students/STU-0001/', { headers: { authorization: `Bearer ${token}` } });
    expect(old.status()).toBe(200);

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
  await page.setViewportSize({ width: 360, height: 740 });
  const token = await apiToken(request, 'admin');
  const st = await createStudent(request, token);
  // Give the student a result, so withdrawing is the offered default.
  const sessions = (await (await request.get('/api/sessions/', { headers: { authorization: `Bearer ${token}` } })).json()) as {
    id: number;
    is_current: boolean;
  }[];
  const session = sessions.find((s) => s.is_current) ?? sessions[0]!;
  const saved = await request.post('/api/results/', {
    headers: { authorization: `Bearer ${await apiToken(request, 'staff')}` },
    data: {
      admission_number: st.admission_number,
      session_id: session.id,
      term: '1st',
      student_class: 'JSS 2B',
      subjects: [{ name: 'Mathematics', score: 71 }],
    },
  });
  expect(saved.status(), await saved.text()).toBe(201);

  await signInViaApi(page, request, 'staff');
  await page.goto(`/DeleteStudent/${encodeURIComponent(st.admission_number)}`);
  await expect(page.getByText('1 result, 0 payments')).toBeVisible();
  const choices = page.getByTestId('withdraw-or-delete');
  await expect(choices).toContainText('Withdraw (recommended when a student leaves)');
  await expect(choices).toContainText('Delete (only for a record created by mistake)');
  await expectAccessible(page);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);

  // Delete's confirmation explains the difference and offers withdrawing instead.
  await page.getByRole('button', { name: 'Delete Student' }).click();
  await expect(page.getByText('1 result will be deleted and 0 payments will no longer be linked to this student.')).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Withdraw instead' }).click();
  await expect(page.getByRole('button', { name: 'Yes, withdraw' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Yes, withdraw' }).click();
  await expect(page.getByText(/has been withdrawn\. The record is kept\./)).toBeVisible();
  await expect(page.getByText(/^Withdrawn \(\d{4}-\d{2}-\d{2}\)$/)).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);

  // The kept record is read-only: an update says why it is refused.
  await page.goto('/UpdateStudentDetails');
  await page.getByLabel('Admission number').fill(st.admission_number);
  await page.getByLabel('Admission number').blur();
  await expect(page.getByLabel('First name')).toHaveValue('Temi');
  await page.getByLabel('First name').fill('Changed');
  await page.getByRole('button', { name: 'Update Student' }).click();
  await expect(page.getByText(/This student has been withdrawn: the record is kept read-only/).first()).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);

  // The student's sign-in says why it is refused.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/StudentLogin');
  await page.getByLabel('Email').fill(st.email);
  await page.getByLabel('Password', { exact: true }).fill('Temi-Own-Pass-2026');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText(/has been withdrawn from the school/)).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await expectAccessible(page);

  // Readmitted, the student signs in again.
  await signInViaApi(page, request, 'admin');
  await page.goto(`/DeleteStudent/${encodeURIComponent(st.admission_number)}`);
  await page.getByRole('button', { name: 'Readmit Student' }).click();
  await expect(page.getByText(/has been readmitted/)).toBeVisible();
  const again = await request.post('/api/student/login/', { data: { email: st.email, password: 'Temi-Own-Pass-2026' } });
  expect(again.status()).toBe(200);
});
