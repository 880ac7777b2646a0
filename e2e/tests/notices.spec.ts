import type { Page } from '@playwright/test';
import { formatNaira, koboToNaira } from '../../packages/domain/src/money';
import { NOTICE_TEMPLATE_MESSAGES, NOTICE_KIND_PLACEHOLDERS } from '../../packages/domain/src/notice-templates';
import {
  BLAST_COUNT_LABELS,
  BLAST_STATUS_LABELS,
  NOTICE_SCREEN_LABELS as L,
  NOTICE_SCREEN_MESSAGES as M,
  NOTICE_SCREENS as S,
} from '../../packages/domain/src/notice-screens';
import { NOTICE_KIND_LABELS, NOTICE_MESSAGES } from '../../packages/domain/src/notices';
import { PARENT_SCREEN_LABELS } from '../../packages/domain/src/parent-screens';
import { expect, expectAccessible, noSideways, openFromAdminMenu, PHONE, signInViaApi, test } from '../fixtures';
import { asAdmin, createArm, createParent, createStudent, runTag, setNoticeSettings, type OwnParent } from '../school';

// Notices on the web (issue 33, items 6-8): the admin edits a template (a placeholder the kind does not
// have is refused with its message, then a good text is saved), composes a notice to an arm's parents,
// sees the estimate (recipients, units, cost), sends it, pauses and resumes it and watches the counts
// move to sent (the fake SMS provider of the test server, its worker in-process); a parent of that arm
// (created, linked and invited through the admin API) opens the inbox on a 360 px phone, reads the
// notice and opts out of absence notices (payment receipts stay on). Axe on each screen, no sideways
// scroll. Its own data (school.ts): a JSS 1 arm of this run, two students, a parent each.

const RUN = runTag();
let ARM = '';
let PARENT: OwnParent;
const MESSAGE = `Mid-term break starts Friday ${RUN}. School resumes on Monday.`;

/** No quiet hours (start equal to end), so the SMS go out whatever the hour the test runs. */
const NO_QUIET_HOURS = { quiet_start: '00:00', quiet_end: '00:00' };
/** The school's price of one SMS unit (₦5): the estimate's cost is the units times it. */
const UNIT_COST_KOBO = 500;

async function checkScreen(page: Page) {
  await noSideways(page);
  await expectAccessible(page);
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const api = await asAdmin(request);
  ARM = await createArm(api, 'JSS 1', RUN);
  const pupils = [await createStudent(api, ARM, `${RUN}A`), await createStudent(api, ARM, `${RUN}B`)];
  PARENT = await createParent(api, RUN, { arm: ARM, admissionNumbers: [pupils[0]!.admission_number] });
  await createParent(api, `${RUN}B`, { arm: ARM, admissionNumbers: [pupils[1]!.admission_number] });
  // A slow send rate keeps the notice sending long enough to pause it; quiet hours away from now.
  await setNoticeSettings(api, {
    ...NO_QUIET_HOURS,
    daily_cap_per_parent: 50,
    send_rate_per_minute: 1,
    sms_unit_cost_kobo: UNIT_COST_KOBO,
  });
});

test.afterAll(async ({ request }) => {
  await setNoticeSettings(await asAdmin(request), { send_rate_per_minute: 600, quiet_start: '21:00', quiet_end: '07:00' });
});

test('the admin edits a template: an unknown placeholder is refused at the field, a good text is saved', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'admin');
  await openFromAdminMenu(page, S.templates.label);
  await page.getByLabel(L.kind).selectOption('absent_today');
  const sms = page.getByLabel(L.smsBody);
  await sms.fill('{school}: {student_name} missed school today, says {teacher}.');
  await page.getByRole('button', { name: L.saveTemplate }).click();
  await expect(page.getByTestId('field-error')).toHaveText(
    NOTICE_TEMPLATE_MESSAGES.unknownPlaceholder('teacher', NOTICE_KIND_PLACEHOLDERS.absent_today),
  );
  await expect(sms).toHaveAttribute('aria-invalid', 'true');
  await checkScreen(page);

  const good = `{school}: {student_name} ({arm}) was absent today, {date}. ${RUN}`;
  await sms.fill(good);
  await expect(page.getByTestId('sms-count')).toHaveAttribute('data-encoding', 'GSM-7');
  await page.getByRole('button', { name: L.saveTemplate }).click();
  await expect(page.getByText(NOTICE_TEMPLATE_MESSAGES.templateSaved)).toBeVisible();
  await page.reload();
  await page.getByLabel(L.kind).selectOption('absent_today');
  await expect(page.getByLabel(L.smsBody)).toHaveValue(good);
});

test('the admin sends a notice to an arm: estimate, send, pause, resume, counts move to sent', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'admin');
  await openFromAdminMenu(page, S.blasts.label);
  await checkScreen(page);
  await page.getByTestId('new-blast').click();
  await expect(page.getByRole('heading', { name: L.newBlast, level: 1 })).toBeVisible();

  await page.getByLabel(L.audience).selectOption('arm');
  await page.getByLabel(L.arm).selectOption(ARM);
  await page.getByLabel(L.subject).fill(`Mid-term break ${RUN}`);
  await page.getByLabel(L.body).fill(MESSAGE);
  await expect(page.getByTestId('sms-count')).toHaveAttribute('data-units', '1');
  await page.getByRole('button', { name: L.estimate }).click();
  await expect(page.getByTestId('estimate-recipients')).toHaveText('2');
  await expect(page.getByTestId('estimate-units')).toHaveText('2');
  await expect(page.getByTestId('estimate-cost')).toContainText('₦');
  await checkScreen(page);

  // Changing the text asks for a new estimate before sending.
  await page.getByLabel(L.body).fill(`${MESSAGE} Thank you.`);
  await expect(page.getByText(L.estimateAgain)).toBeVisible();
  await expect(page.getByRole('button', { name: L.send, exact: true })).toHaveCount(0);
  await page.getByLabel(L.body).fill(MESSAGE);
  await page.getByRole('button', { name: L.estimate }).click();

  const cost = (await page.getByTestId('estimate-cost').textContent())!;
  await page.getByRole('button', { name: L.send, exact: true }).click();
  await expect(page.getByRole('alertdialog')).toContainText(L.confirmSend(2, cost));
  await page.getByRole('button', { name: L.confirmSendButton }).click();
  await expect(page).toHaveURL(/\/notice-blasts\/\d+$/);
  const status = page.getByTestId('blast-status');
  await expect(status).toHaveText(BLAST_STATUS_LABELS.sending);
  await checkScreen(page);

  await page.getByRole('button', { name: L.pause }).click();
  await expect(status).toHaveText(BLAST_STATUS_LABELS.paused);
  await expect(page.getByRole('button', { name: L.resume })).toBeVisible();
  // Faster now, so the rest goes out while the test watches.
  await setNoticeSettings(await asAdmin(page.request), { send_rate_per_minute: 600 });
  await page.getByRole('button', { name: L.resume }).click();
  await expect(status).not.toHaveText(BLAST_STATUS_LABELS.paused);
  // The counts move on their own (the page asks again every 2 s while sending): every SMS sent.
  const count = async (k: string) => Number(await page.getByTestId(`count-${k}`).textContent());
  const waiting = async () => (await count('queued')) + (await count('held'));
  await expect.poll(waiting, { timeout: 90_000, intervals: [1_000] }).toBe(0);
  // Two parents, by SMS and in the portal: four messages out, none failed.
  expect((await count('sent')) + (await count('delivered'))).toBe(4);
  await expect(page.getByTestId('count-failed')).toHaveText('0');
  await expect(page.getByTestId('blast-counts')).toContainText(BLAST_COUNT_LABELS.sent);
  await expect(status).toHaveText(BLAST_STATUS_LABELS.done);

  // The log lists the arm's messages.
  await openFromAdminMenu(page, S.messages.label);
  await page.getByLabel(L.filterKind).selectOption('custom');
  await expect(page.getByTestId('message-log')).toBeVisible();
  await checkScreen(page);
});

test('a parent reads the notice on a phone and opts out of absence notices', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/ParentLogin');
  await page.getByLabel(PARENT_SCREEN_LABELS.loginField).fill(PARENT.phone);
  await page.getByLabel('Password', { exact: true }).fill(PARENT.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/ParentHomePage$/);
  // The top bar's bell says how many are unread and opens the inbox.
  await expect(page.getByTestId('unread-badge')).toBeVisible();
  await page.getByTestId('notices-link').click();
  await expect(page.getByRole('heading', { name: S.inbox.label, level: 1 })).toBeVisible();
  const notice = page.getByTestId('notice').filter({ hasText: RUN }).first();
  await expect(notice).toHaveAttribute('data-unread', 'true');
  await expect(page.getByTestId('unread-badge')).toBeVisible();
  await checkScreen(page);
  await notice.getByRole('button', { name: new RegExp(L.markRead) }).click();
  await expect(notice).toHaveAttribute('data-unread', 'false');

  await page.getByRole('link', { name: S.preferences.label }).click();
  await expect(page.getByRole('heading', { name: S.preferences.label, level: 1 })).toBeVisible();
  const receipts = page.getByLabel(NOTICE_KIND_LABELS.payment_received);
  await expect(receipts).toBeChecked();
  await expect(receipts).toBeDisabled();
  await expect(page.getByText(NOTICE_MESSAGES.cannotOptOut(NOTICE_KIND_LABELS.payment_received))).toBeVisible();
  await checkScreen(page);
  await page.getByLabel(NOTICE_KIND_LABELS.absent_today).uncheck();
  await page.getByRole('button', { name: L.savePreferences }).click();
  await expect(page.getByText(M.preferencesSaved)).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(NOTICE_KIND_LABELS.absent_today)).not.toBeChecked();
  await expect(page.getByLabel(NOTICE_KIND_LABELS.absent_streak)).toBeChecked();
});

// Last, so that its failure does not make a new worker build new data for the tests above.
test("the estimate's cost is the units times the school's SMS unit cost", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'admin');
  await page.goto(`${S.blasts.to}/new`);
  await page.getByLabel(L.audience).selectOption('arm');
  await page.getByLabel(L.arm).selectOption(ARM);
  await page.getByLabel(L.body).fill(MESSAGE);
  await page.getByRole('button', { name: L.estimate }).click();
  await expect(page.getByTestId('estimate-units')).toHaveText('2');
  // Two parents, one unit each, at the school's ₦5 a unit.
  await expect(page.getByTestId('estimate-cost')).toHaveText(formatNaira(koboToNaira(2 * UNIT_COST_KOBO)));
});
