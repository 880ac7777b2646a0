import { ADMIN, HOME_PATH, LOGIN_PATH, expect, expectAccessible, signInViaApi, signInViaUi, test, type Role } from '../fixtures';
import { asAdmin, createArm, createStaff, createStudent, runTag } from '../school';

// The staff member and the student who sign in are this run's own (fixture school.ts), in an arm of its own.
const RUN = runTag();
const CREDENTIALS: Record<Role, { email: string; password: string }> = {
  admin: ADMIN,
  staff: { email: '', password: '' },
  student: { email: '', password: '' },
};

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  const own = (p: { email: string; password: string }) => ({ email: p.email, password: p.password });
  CREDENTIALS.staff = own(await createStaff(api, RUN));
  CREDENTIALS.student = own(await createStudent(api, await createArm(api, 'JSS 1', RUN), RUN));
});

test.describe('public pages', () => {
  test('home page presents the school', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Welcome to');
    await expect(page.getByText('raising role models').first()).toBeVisible();
    for (const fact of ['1999', '2002', '2008']) await expect(page.getByText(fact, { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Junior Secondary School' })).toBeVisible();
    // The portal's own admission page, linked out of the box.
    await expect(page.getByRole('link', { name: 'Admission process' })).toHaveAttribute('href', '/admission');
    await expect(page.getByRole('heading', { name: 'Code of conduct' })).toBeVisible();
    await expect(page.locator('ol li')).toHaveCount(4);
    await expectAccessible(page);
  });

  test('shared header links to the three sign-ins, with a menu toggle on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toBeVisible();
    await toggle.click();
    await page.getByRole('link', { name: 'Staff', exact: true }).click();
    await expect(page).toHaveURL(/\/StaffLogin$/);
    await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();
    await expectAccessible(page);
  });

  test('unknown paths show the not-found illustration', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('img', { name: /open book/ })).toBeVisible();
    await expectAccessible(page);
  });

  test('/login lets the user choose a role', async ({ page }) => {
    await page.goto('/login');
    await page
      .getByRole('link', { name: /Student/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/StudentLogin$/);
  });
});

const MENUS: Record<Role, string[]> = {
  admin: [
    'Upload Results',
    'Register Student',
    'Register Staff',
    'Check Class Results',
    'Student Information',
    'Staff Details',
    'Update Results',
    'Update Staff Details',
    'Update Student Details',
    'Delete Staff',
    'Delete Student',
    'Delete Results',
    'Check a Result',
  ],
  staff: [
    'Register Student',
    'Student Information',
    'Update Student Details',
    'Delete Student',
    'Find a Student',
    'Upload Results',
    'Check Class Results',
    'Update Results',
    'Delete Results',
    'Check a Result',
    'Staff Details',
    'Find a Staff Member',
  ],
  student: ['Pay Fees', 'View My Profile', 'View All My Results', 'Check Current Result'],
};

for (const role of ['admin', 'staff', 'student'] as const) {
  test(`${role} signs in, sees the home page and menus, is refused other homes, and logs out`, async ({ page }) => {
    await page.goto(LOGIN_PATH[role]);
    await expectAccessible(page);
    await page.getByLabel('Email').fill(CREDENTIALS[role].email);
    await page.getByLabel('Password', { exact: true }).fill(CREDENTIALS[role].password);
    // The password toggle shows and hides the password.
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(new RegExp(`${HOME_PATH[role]}$`));
    await expect(page.getByTestId('welcome-message')).toContainText('Welcome');
    for (const label of MENUS[role]) await expect(page.getByRole('link', { name: label }).first()).toBeVisible();
    await expectAccessible(page);

    const stored = await page.evaluate(() => ({
      a: localStorage.getItem('accessToken'),
      r: localStorage.getItem('refreshToken'),
      info: localStorage.getItem('adminInfo') ?? localStorage.getItem('staffInfo') ?? localStorage.getItem('studentInfo'),
    }));
    expect(stored.a && stored.r && stored.info).toBeTruthy();

    // Another role's home sends this user back to their own.
    const other = role === 'admin' ? '/StudentHomePage' : '/adminHomePage';
    await page.goto(other);
    await expect(page).toHaveURL(new RegExp(`${HOME_PATH[role]}$`));

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(new RegExp(`${LOGIN_PATH[role]}$`));
    const after = await page.evaluate(() => localStorage.getItem('accessToken'));
    expect(after).toBeNull();
    // The revoked token no longer works on the server.
    await page.goto(HOME_PATH[role]);
    await expect(page).toHaveURL(/\/login$/);
  });
}

test('wrong password shows the error banner and re-enables the form', async ({ page }) => {
  await page.goto('/Admin');
  await page.getByLabel('Email').fill('admin@e2e.school');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
  await expectAccessible(page);
});

test('admin home: Show/Hide Menu shows staff and students side by side', async ({ page, request }) => {
  await signInViaApi(page, request, 'admin');
  await page.goto('/adminHomePage');
  await page.getByRole('button', { name: 'Hide Menu' }).click();
  await expect(page.getByTestId('people-overview')).toBeVisible();
  await page.getByRole('button', { name: 'Show Menu' }).click();
  await expect(page.locator('#admin-menu').getByRole('link', { name: 'Register Staff' })).toBeVisible();
});

test('admin edits the school settings and the login header shows them', async ({ page, request }) => {
  await signInViaApi(page, request, 'admin');
  await page.goto('/settings');
  await page.getByLabel('Motto').fill('raising role models');
  await page.getByLabel('School name').fill('Role Models College Ikeja');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expectAccessible(page);
  await page.goto('/StudentLogin');
  await expect(page.getByRole('banner')).toContainText('Role Models College Ikeja');
  await signInViaUi(page, 'admin');
});

test('an expired access token is refreshed silently and the request retried', async ({ page, request }) => {
  await signInViaApi(page, request, 'staff', CREDENTIALS.staff);
  const before = await page.evaluate(() => localStorage.getItem('refreshToken'));
  // Replace the access token with one the server will refuse (401), as if it had expired.
  await page.evaluate(() => localStorage.setItem('accessToken', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.invalidsignature00'));
  await page.goto('/change-password');
  await page.getByLabel('Current password').fill('definitely-wrong');
  await page.getByLabel('New password', { exact: true }).fill('A-Brand-New-Pass-9');
  await page.getByLabel('Confirm new password').fill('A-Brand-New-Pass-9');
  await page.getByRole('button', { name: 'Change password' }).click();
  // The retried request reached the server with a fresh token: it answers about the password, not the session.
  await expect(page.getByText('Current password is incorrect.')).toBeVisible();
  const after = await page.evaluate(() => ({ refresh: localStorage.getItem('refreshToken'), access: localStorage.getItem('accessToken') }));
  expect(after.refresh).not.toBe(before);
  expect(after.access).not.toContain('invalidsignature');
  await expectAccessible(page);
});

test('a student opening an admin page is sent to their own home', async ({ page, request }) => {
  await signInViaApi(page, request, 'student', CREDENTIALS.student);
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/StudentHomePage$/);
});

test('signed-out users opening a protected page go to the role chooser', async ({ page }) => {
  await page.goto('/adminHomePage');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});
