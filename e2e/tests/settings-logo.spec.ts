import { LOGO_MESSAGES } from '@portal/domain/settings-constants';
import { expect, expectAccessible, signInViaApi, test } from '../fixtures';
import { greyPng } from '../../apps/server/test/grey-png';

/** Logos in the browser: a huge logo is refused with its message; a big one is stored small. */

test('admin uploads logos: a 6000×6000 one is refused with a clear message, a big one is kept at 256 px', async ({ page, request }) => {
  await signInViaApi(page, request, 'admin');
  await page.goto('/settings');
  const input = page.getByLabel('Logo (PNG, JPEG or SVG, under 200 KB)');
  const save = page.getByRole('button', { name: 'Save settings' });

  await input.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: greyPng(6000, 6000) });
  await save.click();
  await expect(page.getByText(LOGO_MESSAGES.tooLarge)).toBeVisible();
  await expectAccessible(page);

  await input.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: greyPng(1000, 500) });
  await save.click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  const logo = page.getByAltText('Current logo');
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([256, 128]);

  // Leave the demo school as it was for the other tests.
  await page.getByRole('button', { name: 'Remove logo' }).click();
  await save.click();
  await expect(page.getByText('Settings saved').first()).toBeVisible();
  await expect(logo).toHaveCount(0);
});
