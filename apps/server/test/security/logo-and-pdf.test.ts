import { randomBytes } from 'node:crypto';
import { Migrator } from 'kysely';
import jpeg from 'jpeg-js';
import pg from 'pg';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SCHOOL_SETTINGS, GENERAL_MESSAGES, LOGO_MESSAGES, LOGO_STORED_PIXELS, SUBJECTS } from '@portal/domain';
import { createDatabase, migrateToLatest } from '../../src/db/index';
import { StaticMigrationProvider } from '../../src/db/migrations/index';
import { ConcurrencyLimiter } from '../../src/lib/limiter';
import { imageSize } from '../../src/lib/images';
import { greyPng } from '../grey-png';
import { renderReportCards } from '../../src/modules/results/pdf';
import { createResults } from '../../src/db/factories';
import {
  createSession,
  createStudent,
  createTestContext,
  describeEachDatabase,
  signInAdmin,
  type SignedIn,
  type TestContext,
} from '../helpers';

/**
 * A crafted logo (a 6000×6000 PNG is a few kilobytes) made every report-card PDF
 * decode 144 MB of pixels. Uploads are measured, refused beyond 2048 px, decoded once and stored as
 * a PNG of at most 256 px; PDFs embed that one small image once per document; and PDF rendering is
 * bounded per process, so a crowd fetching cards waits (or gets 503) while the rest stays responsive.
 */

/** A valid grey PNG of any size, as a data URL (the logo field's form). */
function greyPngUrl(width: number, height: number): string {
  return `data:image/png;base64,${greyPng(width, height).toString('base64')}`;
}
/** A colourful RGBA PNG with a transparent corner. */
function colourPng(width: number, height: number): string {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      png.data[i] = x % 256;
      png.data[i + 1] = y % 256;
      png.data[i + 2] = 120;
      png.data[i + 3] = x < 10 && y < 10 ? 0 : 255;
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}
function photoJpeg(width: number, height: number): string {
  const data = Buffer.alloc(width * height * 4, 200);
  return `data:image/jpeg;base64,${jpeg.encode({ width, height, data }, 80).data.toString('base64')}`;
}
function sizeOf(dataUrl: string) {
  const m = /^data:image\/(png|jpeg);base64,(.+)$/.exec(dataUrl)!;
  return { type: m[1], ...imageSize(Buffer.from(m[2]!, 'base64'), m[1] as 'png' | 'jpeg') };
}
/** Widths of the image objects a PDF embeds (object dictionaries stay readable when streams are compressed). */
function imageWidths(pdf: Buffer): number[] {
  return [...pdf.toString('latin1').matchAll(/\/Subtype \/Image[^>]*?\/Width (\d+)|\/Width (\d+)[^>]*?\/Subtype \/Image/g)].map((m) =>
    Number(m[1] ?? m[2]),
  );
}

describeEachDatabase('logo upload and PDF rendering', (dialect) => {
  let ctx: TestContext;
  let admin: SignedIn;
  let sessionId: number;
  let admissionNumbers: string[];

  beforeAll(async () => {
    // The PDF limiter is what these tests measure: the heavy-report limits (2 an arm's cards per
    // user, one at a time per process: heavy-reports.test.ts) are set out of its way.
    ctx = await createTestContext(dialect, {
      pdfRender: { concurrency: 2, waitMs: 60_000 },
      heavyReports: { perUser: 8, concurrency: 8, queue: 20, waitMs: 60_000 },
    });
    admin = await signInAdmin(ctx);
    sessionId = (await createSession(ctx.handle.db, '2025/2026', true)).id;
    admissionNumbers = [];
    for (let i = 0; i < 4; i++) {
      const s = await createStudent(ctx.handle.db, {
        email: `logo-${i}@test.school`,
        password: 'Correct-Horse-9',
        firstName: `Pupil${i}`,
        lastName: 'Okon',
        arm: 'JSS 2A',
      });
      admissionNumbers.push(s.admissionNumber);
      await createResults(
        ctx.handle.db,
        SUBJECTS.slice(0, 6).map((subject, k) => ({
          studentId: s.id,
          sessionId,
          term: '1st' as const,
          arm: 'JSS 2A' as const,
          subject,
          score: 40 + i * 5 + k,
        })),
      );
    }
  }, 60_000);
  afterAll(() => ctx.close());

  const putLogo = (logo: string) =>
    ctx.app.inject({ method: 'PUT', url: '/api/settings/', headers: admin.auth, payload: { ...DEFAULT_SCHOOL_SETTINGS, logo } });
  const storedLogo = async () => (await ctx.app.inject({ method: 'GET', url: '/api/settings/' })).json<{ logo: string }>().logo;

  describe('upload', () => {
    it('refuses a 6000×6000 PNG (a few kilobytes) with a clear message, and keeps the old logo', async () => {
      expect((await putLogo(colourPng(40, 40))).statusCode).toBe(200);
      const before = await storedLogo();
      const huge = greyPngUrl(6000, 6000);
      expect(huge.length).toBeLessThan(300_000);
      const decode = vi.spyOn(PNG.sync, 'read');
      const res = await putLogo(huge);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ logo: [LOGO_MESSAGES.tooLarge] });
      expect(decode).not.toHaveBeenCalled(); // measured from the header, never decoded
      decode.mockRestore();
      expect(await storedLogo()).toBe(before);
    });

    it('stores a big PNG as a PNG of at most 256 px, keeping its proportions', async () => {
      const decode = vi.spyOn(PNG.sync, 'read');
      const res = await putLogo(colourPng(1000, 800));
      expect(res.statusCode, res.body).toBe(200);
      // Decoded once, on upload (the refusal above is told apart by this same spy).
      expect(decode).toHaveBeenCalledTimes(1);
      decode.mockRestore();
      const logo = res.json<{ logo: string }>().logo;
      expect(sizeOf(logo)).toEqual({ type: 'png', width: LOGO_STORED_PIXELS, height: 205 });
      expect(await storedLogo()).toBe(logo);
      // Saving the settings again with the stored logo keeps it as it is.
      const again = await putLogo(logo);
      expect(again.json<{ logo: string }>().logo).toBe(logo);
    });

    it('turns a JPEG into a small PNG, and refuses what is not a readable image', async () => {
      const res = await putLogo(photoJpeg(600, 300));
      expect(res.statusCode, res.body).toBe(200);
      expect(sizeOf(res.json<{ logo: string }>().logo)).toEqual({ type: 'png', width: 256, height: 128 });
      const broken = await putLogo(`data:image/png;base64,${Buffer.from('not a png at all, really').toString('base64')}`);
      expect(broken.json()).toEqual({ logo: [LOGO_MESSAGES.unreadable] });
      const truncated = greyPngUrl(300, 300).slice(0, 120);
      expect((await putLogo(truncated.replace(/=+$/, ''))).statusCode).toBe(400);
      // Removing the logo still works.
      expect((await putLogo('')).json<{ logo: string }>().logo).toBe('');
    });
  });

  describe('PDFs', () => {
    it('embed the small stored logo, once per document', async () => {
      expect((await putLogo(colourPng(1200, 1200))).statusCode).toBe(200);
      const one = await ctx.app.inject({
        method: 'GET',
        url: `/api/report-card/pdf/?session_id=${sessionId}&term=1st&admission_number=${admissionNumbers[0]}`,
        headers: admin.auth,
      });
      expect(one.statusCode, one.body).toBe(200);
      // The logo and its transparency mask (the test logo has a transparent corner).
      expect(imageWidths(one.rawPayload)).toEqual([256, 256]);
      const cls = await ctx.app.inject({
        method: 'GET',
        url: `/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=JSS 2A`,
        headers: admin.auth,
      });
      expect(cls.statusCode).toBe(200);
      expect(imageWidths(cls.rawPayload)).toEqual([256, 256]); // four pages, the logo embedded once
    });

    it('leave out a stored logo that is not the small version (never decoding it)', async () => {
      const card = (
        await ctx.app.inject({
          method: 'GET',
          url: `/api/report-card/?session_id=${sessionId}&term=1st&admission_number=${admissionNumbers[0]}`,
          headers: admin.auth,
        })
      ).json();
      // Left out, not decoded and drawn: the PDF holds no image at all.
      const pdf = await renderReportCards([{ ...card, school: { ...card.school, logo: greyPngUrl(6000, 6000) } }]);
      expect(imageWidths(pdf)).toEqual([]);
    });

    it('render at most two at once; the others wait their turn and all succeed', async () => {
      const limiter = (ctx.app as unknown as { pdfRenders: ConcurrencyLimiter }).pdfRenders;
      limiter.peak = 0;
      const urls = Array.from({ length: 8 }, (_, i) =>
        i % 2
          ? `/api/report-cards/pdf/?session_id=${sessionId}&term=1st&student_class=JSS 2A`
          : `/api/report-card/pdf/?session_id=${sessionId}&term=1st&admission_number=${admissionNumbers[i % 4]}`,
      );
      const answers = await Promise.all(urls.map((url) => ctx.app.inject({ method: 'GET', url, headers: admin.auth })));
      expect(answers.map((a) => a.statusCode)).toEqual(urls.map(() => 200));
      expect(limiter.peak).toBe(2);
      expect(limiter.active).toBe(0);
    });
  });
});

describe('ConcurrencyLimiter', () => {
  it('answers 503 to a request that waited too long, while health stays quick', async () => {
    const ctx = await createTestContext('sqlite', { pdfRender: { concurrency: 1, waitMs: 1500 } });
    try {
      const admin = await signInAdmin(ctx);
      const sessionId = (await createSession(ctx.handle.db, '2025/2026', true)).id;
      const s = await createStudent(ctx.handle.db, {
        email: 'wait@test.school',
        password: 'Correct-Horse-9',
        firstName: 'Ada',
        lastName: 'Eze',
        arm: 'JSS 1A',
      });
      await createResults(ctx.handle.db, [{ studentId: s.id, sessionId, term: '1st', arm: 'JSS 1A', subject: SUBJECTS[0], score: 70 }]);
      const limiter = (ctx.app as unknown as { pdfRenders: ConcurrencyLimiter }).pdfRenders;
      let release!: () => void;
      const held = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
      const url = `/api/report-card/pdf/?session_id=${sessionId}&term=1st&admission_number=${s.admissionNumber}`;
      // The queued request's wait runs out on a stepped clock, not a slept one.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const waiting = ctx.app.inject({ method: 'GET', url, headers: admin.auth });
      for (let i = 0; limiter.waiting === 0 && i < 400; i++) await new Promise((r) => setImmediate(r));
      expect(limiter.waiting).toBe(1);
      // Health answers while a render holds the only slot and a PDF request is queued behind it.
      const health = await ctx.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(limiter.waiting).toBe(1);
      await vi.advanceTimersByTimeAsync(1500);
      vi.useRealTimers();
      const refused = await waiting;
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ detail: GENERAL_MESSAGES.serviceUnavailable });
      release();
      await held;
      expect((await ctx.app.inject({ method: 'GET', url, headers: admin.auth })).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
      await ctx.close();
    }
  });

  it('runs tasks in order, never more than the limit, and refuses beyond the queue', async () => {
    const limiter = new ConcurrencyLimiter(2, 10_000, 3);
    const order: number[] = [];
    const gates: (() => void)[] = [];
    const tasks = Array.from({ length: 5 }, (_, i) =>
      limiter.run(
        () =>
          new Promise<number>((resolve) => {
            order.push(i);
            gates[i] = () => resolve(i);
          }),
      ),
    );
    await expect(limiter.run(() => Promise.resolve(99))).rejects.toMatchObject({ statusCode: 503 });
    expect(limiter.active).toBe(2);
    expect(limiter.waiting).toBe(3);
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setImmediate(r));
      gates[i]!();
      await tasks[i];
    }
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.peak).toBe(2);
  });
});

describeEachDatabase('migration 0010: logos stored by an earlier release', (dialect) => {
  it('replaces a 6000×6000 logo by the small PNG and keeps the original under its own key', async () => {
    const url = process.env.TEST_DATABASE_URL;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    if (dialect === 'postgres') await adminQuery(url!, `create schema ${schema}`);
    const handle = dialect === 'postgres' ? createDatabase(url!, { pgSchema: schema, pgPoolSize: 2 }) : createDatabase('sqlite::memory:');
    try {
      const migrator = new Migrator({
        db: handle.db,
        provider: new StaticMigrationProvider(dialect),
        ...(dialect === 'postgres' ? { migrationTableSchema: schema } : {}),
      });
      const before = await migrator.migrateTo('0005_indexes');
      expect(before.error).toBeUndefined();
      const original = JSON.stringify({ ...DEFAULT_SCHOOL_SETTINGS, school_name: 'Old School', logo: greyPngUrl(6000, 6000) });
      await handle.db.insertInto('settings').values({ key: 'school', value: original }).execute();
      await migrateToLatest(handle);
      const rows = await handle.db.selectFrom('settings').selectAll().orderBy('key').execute();
      const school = JSON.parse(rows.find((r) => r.key === 'school')!.value) as { school_name: string; logo: string };
      expect(school.school_name).toBe('Old School');
      expect(sizeOf(school.logo)).toEqual({ type: 'png', width: 256, height: 256 });
      expect(rows.find((r) => r.key === 'school_logo_before_0010')?.value).toBe(original);
    } finally {
      await handle.destroy();
      if (dialect === 'postgres') await adminQuery(url!, `drop schema ${schema} cascade`);
    }
  }, 30_000);
});

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(text);
  await client.end();
}
