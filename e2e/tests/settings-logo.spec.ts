import { deflateSync } from 'node:zlib';
import { LOGO_MESSAGES } from '@portal/domain/settings-constants';
import { expect, expectAccessible, signInViaApi, test } from '../fixtures';

/** Logos in the browser: a huge logo is refused with its message; a big one is stored small. */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(4 + body.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 4 + body.length);
  return out;
}
/** A valid grey PNG: zero rows compress to almost nothing, so even 6000×6000 is a small file. */
function greyPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc((width + 1) * height), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

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
