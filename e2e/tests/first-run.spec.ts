import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ADMISSION_PAGE } from '../../packages/domain/src/admission-constants';
import { SETUP_STEPS } from '../../packages/domain/src/first-run';
import { SESSION_END_MENU_TITLE } from '../../packages/domain/src/session-end-screens';
import { freePort } from '../../apps/server/test/free-port';
import { apiToken, expect, expectAccessible, noSideways, PHONE, signInViaApi, test } from '../fixtures';
import { asAdmin, createFormClass, currentSessionId, runTag } from '../school';

// On a 360 px phone: a new install's first-run checklist (a server of
// its own on an empty database), the portal's own admission page edited and viewed, and a teacher's
// home that starts with their classes (its own: a teacher of this run who teaches Mathematics to a
// JSS 1 arm of this run, with a student, and is its form teacher).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test.describe('a new install (a server of its own on an empty database)', () => {
  // A port the system hands out (32768 and up): E2E_PORT + 1000 was 4190 for E2E_PORT=3190, a port
  // fetch and Chromium refuse to use ("bad port", the Fetch standard's list), so the hook waited for nothing.
  let base = '';
  const admin = { email: 'first@new.school', password: 'First-Run-Pass-1' };
  let server: ChildProcess | undefined;
  let dataDir = '';

  test.beforeAll(async () => {
    // Migrations on an empty database and the first admin's argon2id hash: over a minute on a machine
    // loaded by the unit suite beside this one (it failed at 60 s once so).
    test.setTimeout(180_000);
    dataDir = mkdtempSync(path.join(tmpdir(), 'portal-first-run-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The compiled server the suite's webServer built, without the demo school.
    const env: NodeJS.ProcessEnv = { ...process.env };
    // An empty SQLite install: no demo school, no shared PostgreSQL.
    delete env.DATABASE_URL;
    const started = spawn(process.execPath, ['--enable-source-maps', path.join(root, 'apps/server/dist/main.js')], {
      env: {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        // The demo school is on by default outside production.
        DEMO_DATA: '0',
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        ...(process.env.E2E_WEB_DIST ? { WEB_DIST: path.resolve(process.env.E2E_WEB_DIST) } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = started;
    // A server that stops says why, at once, instead of a wait for nothing; one that never gets ready
    // says what it logged (warnings go to stdout) and what readiness last answered.
    let said = '';
    const keep = (chunk: Buffer) => void (said = (said + chunk.toString()).slice(-4000));
    started.stdout?.on('data', keep);
    started.stderr?.on('data', keep);
    let lastAnswer = 'no answer yet';
    for (const deadline = Date.now() + 170_000; Date.now() < deadline;) {
      if (started.exitCode !== null) throw new Error(`the new install stopped (exit ${started.exitCode}):\n${said}`);
      const ok = await fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(5_000) }).then(
        async (r) => {
          lastAnswer = `${r.status} ${await r.text()}`;
          return r.ok;
        },
        (err: unknown) => {
          lastAnswer = String(err instanceof Error && err.cause ? err.cause : err);
          return false;
        },
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the new install was not ready at ${base} (last answer: ${lastAnswer}):\n${said}`);
  });
  test.afterAll(() => {
    server?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('calls itself by a neutral name and walks the admin through set-up in order, ticking each step', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto(`${base}/`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to School portal');
    await expect(page.locator('body')).not.toContainText('Role Models College');
    await expect(page.getByRole('link', { name: 'Admission process' })).toHaveAttribute('href', '/admission');

    await page.goto(`${base}/Admin`);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/adminHomePage$/);

    const list = page.getByTestId('setup-checklist');
    await expect(list.getByRole('heading', { name: 'Set up your school' })).toBeVisible();
    // The checklist is the first thing under the welcome, in the school's order.
    const titles = await list.locator('li p.font-semibold').allInnerTexts();
    expect(titles.map((t) => t.replace(/\s*\((Done|To do)\)$/, ''))).toEqual(SETUP_STEPS.map((s) => s.title));
    // The spec's classes and subjects come with the install; nothing else is done yet.
    await expect(page.getByTestId('setup-progress')).toHaveText('1 of 9 steps done');
    await expect(page.getByTestId('setup-step-classes')).toHaveAttribute('data-done', 'true');
    await expect(page.getByTestId('setup-step-school')).toHaveAttribute('data-done', 'false');
    await expect(page.getByRole('button', { name: 'Hide this checklist' })).toHaveCount(0);
    await noSideways(page);
    await expectAccessible(page);

    // The tiles below follow the same order under headings.
    const headings = await page.locator('#admin-menu h2').allInnerTexts();
    expect(headings.slice(0, 9)).toEqual([
      'School details',
      'Session and calendar',
      'Classes and subjects',
      'Assessment and grading',
      'Staff',
      'Students',
      'Teaching assignments',
      'Fees',
      'Report cards',
    ]);
    // The end of the session (issue 34) comes once a year: its group is the last.
    expect(headings.at(-1)).toBe(SESSION_END_MENU_TITLE);

    // Step 1 links to its screen; saving the school's name ticks it.
    await page.getByTestId('setup-step-school').getByRole('link', { name: 'School Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await page.getByLabel('School name').fill('Hilltop Academy');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    await page.goto(`${base}/adminHomePage`);
    await expect(page.getByTestId('setup-step-school')).toHaveAttribute('data-done', 'true');
    await expect(page.getByTestId('setup-progress')).toHaveText('2 of 9 steps done');
    await expect(page.getByRole('banner')).toContainText('Hilltop Academy');
  });
});

test('the admission page: the admin edits its text in the settings, anyone reads it as plain text', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  const headers = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
  await signInViaApi(page, request, 'admin');
  try {
    await page.goto('/settings/admission');
    await expect(page.getByLabel('How to apply')).toHaveValue(DEFAULT_ADMISSION_PAGE.how_to_apply);
    await page.getByLabel('Requirements').fill('Birth certificate\n<img src=x onerror="document.title=\'owned\'"> two photos');
    await page.getByLabel('Dates').fill('Entrance test: 14 June\nInterviews: 21 June');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Save admission page' }).click();
    await expect(page.getByText('Admission page saved')).toBeVisible();

    // A visitor: the home page links the page; markup shows as the characters typed, line breaks kept.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto('/');
    await page.getByRole('link', { name: 'Admission process' }).click();
    await expect(page).toHaveURL(/\/admission$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Admission process' })).toBeVisible();
    const requirements = page.getByTestId('admission-requirements');
    await expect(requirements).toContainText('<img src=x onerror="document.title=\'owned\'"> two photos');
    await expect(page.locator('main img')).toHaveCount(0);
    expect(await page.title()).not.toBe('owned');
    const dates = await page.getByTestId('admission-dates').boundingBox();
    expect(dates!.height).toBeGreaterThan(30);
    await noSideways(page);
    await expectAccessible(page);
  } finally {
    await request.put('/api/admission/', { headers, data: DEFAULT_ADMISSION_PAGE });
  }
});

test('a teacher’s home starts with their classes: scores to enter and the register, on the first screen', async ({ page, request }) => {
  const api = await asAdmin(request);
  const sessionId = await currentSessionId(api);
  const { teacher } = await createFormClass(api, 'JSS 1', runTag(), { sessionId, students: 1, teaches: 'Mathematics' });
  await page.setViewportSize(PHONE);
  await signInViaApi(page, request, 'staff', teacher);
  await page.goto('/staffHomePage');
  const first = page.locator('main h2').first();
  await expect(first).toContainText('My classes');
  const classes = page.getByTestId('teacher-classes');
  await expect(classes.getByRole('link', { name: /Enter scores/ }).first()).toBeVisible();
  // On the first screen of a phone, before any register or delete screen.
  const box = await classes.boundingBox();
  expect(box!.y).toBeLessThan(PHONE.height);
  await expect(page.getByRole('navigation', { name: 'My classes' }).getByRole('link', { name: /My Classes/ })).toBeVisible();
  const order = await page.locator('main h2').allInnerTexts();
  expect(order.findIndex((t) => t.startsWith('My classes'))).toBeLessThan(order.indexOf('Student Management'));
  await noSideways(page);
  await expectAccessible(page);

  await classes
    .getByRole('link', { name: /Enter scores/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/score-sheet\?/);
});
