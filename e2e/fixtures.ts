import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';

export const ADMIN = { email: 'admin@e2e.school', password: 'Admin-E2E-Pass-1' };
export type Role = 'admin' | 'staff' | 'student';
/** An account's sign-in. */
export interface Creds {
  email: string;
  password: string;
}
/**
 * Who signs in as `R`: the admin by default; staff and students always with an account the spec made
 * (school.ts createStaff, createStudent), never one of the demo school's.
 */
type Account<R extends Role> = R extends 'admin' ? [creds?: Creds] : [creds: Creds];
export const LOGIN_PATH: Record<Role, string> = { admin: '/Admin', staff: '/StaffLogin', student: '/StudentLogin' };
export const HOME_PATH: Record<Role, string> = { admin: '/adminHomePage', staff: '/staffHomePage', student: '/StudentHomePage' };

/** Signs in through the real login screen. */
export async function signInViaUi<R extends Role>(page: Page, role: R, ...[creds = ADMIN]: Account<R>): Promise<void> {
  await page.goto(LOGIN_PATH[role]);
  await submitSignIn(page, creds);
  await expect(page).toHaveURL(new RegExp(`${HOME_PATH[role]}$`));
}

/** Fills the login screen already open (e.g. one reached with a `next` address) and presses Login. */
export async function submitSignIn(page: Page, creds: Creds): Promise<void> {
  await page.getByLabel('Email').fill(creds.email);
  await page.getByLabel('Password', { exact: true }).fill(creds.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Signs in through the API and puts the tokens where the app keeps them (fast setup). */
export async function signInViaApi<R extends Role>(
  page: Page,
  request: APIRequestContext,
  role: R,
  ...[creds = ADMIN]: Account<R>
): Promise<{ access: string }> {
  const res = await request.post(`/api/${role}/login/`, { data: creds });
  expect(res.status(), await res.text()).toBe(200);
  const data = (await res.json()).data;
  await page.goto('/login');
  await page.evaluate(
    ({ role, data }) => {
      // One role record at a time, as a real sign-in leaves it.
      for (const key of ['adminInfo', 'staffInfo', 'studentInfo', 'mustChangePassword']) localStorage.removeItem(key);
      localStorage.setItem('accessToken', data.access);
      localStorage.setItem('refreshToken', data.refresh);
      if (role === 'admin') localStorage.setItem('adminInfo', JSON.stringify({ username: data.username, name: data.first_name }));
      if (role === 'staff') localStorage.setItem('staffInfo', JSON.stringify({ staffId: data.staff_id, name: data.first_name }));
      if (role === 'student')
        localStorage.setItem('studentInfo', JSON.stringify({ admissionNumber: data.admission_number, name: data.first_name }));
    },
    { role, data },
  );
  return { access: data.access };
}

/** From the admin's home, follows `name` in the admin menu to its screen (titled `name`). */
export async function openFromAdminMenu(page: Page, name: string): Promise<void> {
  await page.goto('/adminHomePage');
  await page
    .locator('#admin-menu')
    .getByRole('link', { name: new RegExp(name) })
    .click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

/** The phone every screen is checked on. */
export const PHONE = { width: 360, height: 740 };

/** How most screen tests begin: on a 360 px phone, `role` signed in (through the API), at `path`. */
export async function openOnPhone<R extends Role>(page: Page, role: R, path: string, ...[creds = ADMIN]: Account<R>): Promise<void> {
  await page.setViewportSize(PHONE);
  await signInViaApi<Role>(page, page.request, role, creds);
  await page.goto(path);
}

/** An API token for setting up data from a test. */
export async function apiToken<R extends Role>(request: APIRequestContext, role: R, ...[creds = ADMIN]: Account<R>): Promise<string> {
  const res = await request.post(`/api/${role}/login/`, { data: creds });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data.access as string;
}

/** axe: no serious or critical violation on the current page. */
export async function expectAccessible(page: Page): Promise<void> {
  // Colours still changing (a button's 150 ms transition after a click) are measured at their end:
  // axe reads computed colours, and halfway between two they can fail contrast. Spinners' endless
  // animations are not transitions, so they are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')})`,
    ),
  ).toEqual([]);
}

/** How far the page scrolls sideways, in pixels (0 or less when a 360 px phone shows it whole). */
export function sideways(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** The page does not scroll sideways. */
export async function noSideways(page: Page): Promise<void> {
  expect(await sideways(page)).toBeLessThanOrEqual(0);
}

/** Pastes `text` into the input labelled `aria` as the browser would (a block of cells fills a grid). */
export async function pasteText(page: Page, aria: string, text: string): Promise<void> {
  await page.getByLabel(aria, { exact: true }).focus();
  await page.evaluate(
    ({ aria, text }) => {
      const el = document.querySelector<HTMLInputElement>(`input[aria-label="${aria}"]`)!;
      const data = new DataTransfer();
      data.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    { aria, text },
  );
}

export const test = base;
export { expect };

/** The school's current class names, in the order every class select lists them. */
export async function schoolClasses(request: APIRequestContext, token: string): Promise<string[]> {
  const res = await request.get('/api/classes/', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { name: string; retired: boolean }[]).filter((a) => !a.retired).map((a) => a.name);
}

/** The subjects a student takes this term (their level, stream and own choices), in report-card order. */
export async function studentSubjects(request: APIRequestContext, token: string, admissionNumber: string): Promise<string[]> {
  const res = await request.get(`/api/teaching/students/${admissionNumber}/subjects/`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { subjects: string[] }).subjects;
}
