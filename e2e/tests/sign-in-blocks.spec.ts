import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, noSideways, signInViaApi, test } from '../fixtures';

/**
 * An account that got 5 wrong passwords from one address is blocked from that
 * address only; the admin sees the block and clears it from the admin menu. An address of its own
 * (X-Forwarded-For is not trusted here, so the blocks come from this browser's 127.0.0.1) and an
 * email nobody uses, so no other test's account is ever blocked.
 */
async function blockAnEmail(request: APIRequestContext, email: string) {
  for (let i = 0; i < 5; i++) {
    const r = await request.post('/api/student/login/', { data: { email, password: `Wrong-pass-${i}` } });
    expect(r.status()).toBe(401);
  }
  expect((await request.post('/api/student/login/', { data: { email, password: 'Wrong-pass-x' } })).status()).toBe(429);
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: '360 px phone', width: 360, height: 740 },
]) {
  test(`admin sees and clears a sign-in block from the admin menu (${viewport.name})`, async ({ page, request }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const email = `blocked-${viewport.width}-${Date.now()}@demo.school`;
    await blockAnEmail(request, email);

    await signInViaApi(page, request, 'admin');
    await page.goto('/adminHomePage');
    await page.getByRole('link', { name: /Sign-in Blocks/ }).click();
    await expect(page).toHaveURL(/\/sign-in-blocks$/);
    await expect(page.getByRole('heading', { name: 'Sign-in Blocks' })).toBeVisible();
    const row = page.getByTestId('sign-in-block').filter({ hasText: email });
    await expect(row).toBeVisible();
    await expect(row).toContainText('127.0.0.1');
    // Fits the phone: no sideways scrolling, the button is a full-size target.
    await noSideways(page);
    await expectAccessible(page);

    await row.getByRole('button', { name: 'Clear block' }).click();
    await expect(page.getByText('Sign-in block cleared.')).toBeVisible();
    await expect(row).toHaveCount(0);
    // The address may try again at once (a wrong password is a 401 again, not a 429).
    expect((await request.post('/api/student/login/', { data: { email, password: 'Wrong-pass-y' } })).status()).toBe(401);
    await expectAccessible(page);
  });
}

test('with no block in force the screen says so', async ({ page, request }) => {
  await signInViaApi(page, request, 'admin');
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const list = await request.get('/api/sign-in-blocks/', { headers: { authorization: `Bearer ${token}` } });
  for (const b of (await list.json()) as { email: string }[]) {
    await request.post('/api/sign-in-blocks/clear/', { headers: { authorization: `Bearer ${token}` }, data: { email: b.email } });
  }
  await page.goto('/sign-in-blocks');
  await expect(page.getByText('No account is blocked from signing in.')).toBeVisible();
  await expectAccessible(page);
});
