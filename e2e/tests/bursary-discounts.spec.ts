import { DISCOUNT_MESSAGES, DISCOUNT_SCREEN, type Discount } from '../../packages/domain/src/discounts';
import { DISCOUNT_SCREEN_LABELS as L } from '../../packages/domain/src/discount-screens';
import { MY_STATEMENT_SCREEN } from '../../packages/domain/src/bursary-screens';
import { formatNaira } from '../../packages/domain/src/money';
import { apiToken, expect, expectAccessible, noSideways, signInViaUi, test } from '../fixtures';
import { addFee, asAdmin, createArm, createStaff, createStudent, currentSessionId, runTag, statementOf } from '../school';

// Discounts and scholarships on a 360 px phone: the bursar gives a fresh JSS 3 student a sibling
// discount of 10 % on Tuition; the statement shows the discount line and the lower balance; the
// student, signed in, sees it on the payment form and on My Statement; the bursar revokes it with a
// reason and the balance returns. Axe and no sideways scroll on every step. Its own data: a JSS 3 arm
// of this run with Tuition for each term, a student in it and a bursar, all made through the API.

const PHONE = { width: 360, height: 740 };
const RUN = runTag();
const LABEL = 'Sibling discount, 10% on Tuition';
let BURSAR = { email: '', password: '' };
let PUPIL = { email: '', password: '' };

let admission = '';
let sessionId = 0;
let full = 0;

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  sessionId = await currentSessionId(api);
  const arm = await createArm(api, 'JSS 3', RUN);
  for (const [term, amount] of [
    ['1st', 45_000],
    ['2nd', 40_000],
    ['3rd', 40_000],
  ] as const) {
    await addFee(api, { arm: arm, sessionId, term: term, naira: amount });
  }
  // The student has chosen their own password, so the test can sign in as them.
  const pupil = await createStudent(api, arm, RUN, { first_name: 'Discount', gender: 'M', date_of_birth: '2011-03-01' });
  admission = pupil.admission_number;
  PUPIL = { email: pupil.email, password: pupil.password };
  BURSAR = await createStaff(api, RUN, ['bursar']);
  full = (await statementOf(request, admission, sessionId)).balance;
  expect(full).toBeGreaterThan(0);
});

test('the bursar gives a sibling discount, the student sees it on the payment form and statement, the bursar revokes it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);

  // The bursar finds Discounts in the Bursary menu and opens the student.
  await signInViaUi(page, 'staff', BURSAR);
  await page.getByRole('link', { name: new RegExp(`^${DISCOUNT_SCREEN.label}`) }).click();
  await expect(page).toHaveURL(/\/bursary\/discounts$/);
  await expectAccessible(page);
  await page.getByLabel(L.admissionNumber).fill(admission);
  await page.getByRole('button', { name: L.open }).click();
  await expect(page.getByTestId('discount-student')).toContainText(`Pupil${RUN}`);
  await expect(page.getByTestId('discount-balance')).toHaveText(formatNaira(full));
  await expect(page.getByText('No discounts for this student in this session.')).toBeVisible();
  await expectAccessible(page);
  await noSideways(page);

  // The reason is required; then 10 % on Tuition.
  const form = page.getByRole('form', { name: L.giveTitle });
  await form.getByLabel(L.kind).selectOption('sibling');
  await form.getByLabel(L.percentField).fill('10');
  await form.getByRole('checkbox', { name: 'Tuition' }).check();
  await form.getByRole('button', { name: L.give }).click();
  await expect(form.getByTestId('field-error')).toHaveText(DISCOUNT_MESSAGES.reasonRequired);
  await expectAccessible(page);
  await form.getByLabel(L.reason).fill('Elder brother in JSS 3A');
  await noSideways(page);
  await form.getByRole('button', { name: L.give }).click();
  await expect(page.getByTestId('toast-success')).toContainText(DISCOUNT_MESSAGES.given(LABEL, `Discount Pupil${RUN}`));
  const row = page.getByTestId('discount-row').filter({ hasText: LABEL });
  await expect(row).toHaveAttribute('data-state', 'active');

  const discounted = await statementOf(page.request, admission, sessionId);
  expect(discounted.discounts).toBeGreaterThan(0);
  expect(discounted.balance).toBe(full - discounted.discounts);
  await expect(row.getByTestId('discount-value')).toHaveText(formatNaira(discounted.discounts));
  await expect(page.getByTestId('discount-balance')).toHaveText(formatNaira(discounted.balance));
  await expectAccessible(page);
  await noSideways(page);

  // The statement: a discount line per term of Tuition and the lower balance.
  await page.goto(`/bursary/statement?admission_number=${admission}&session_id=${sessionId}`);
  const lines = page.getByTestId('statement-line');
  await expect(lines.and(page.locator('[data-kind="discount"]')).first()).toContainText(LABEL);
  await expect(page.getByTestId('statement-discounts')).toHaveText(formatNaira(discounted.discounts));
  await expect(page.getByTestId('statement-balance')).toHaveText(formatNaira(discounted.balance));
  await expectAccessible(page);
  await noSideways(page);

  // The student, signed in, sees it on the payment form and on My Statement.
  const pupilContext = await browser.newContext({ viewport: PHONE });
  const pupil = await pupilContext.newPage();
  await signInViaUi(pupil, 'student', PUPIL);
  await pupil.goto('/PaymentForm');
  await expect(pupil.getByTestId('fees-discounts')).toContainText(`${LABEL}: ${formatNaira(-discounted.discounts)}`);
  await expect(pupil.getByTestId('fees-outstanding')).toHaveText(formatNaira(discounted.balance));
  await expectAccessible(pupil);
  await noSideways(pupil);
  await pupil.goto(MY_STATEMENT_SCREEN.to);
  await expect(pupil.getByTestId('statement-line').and(pupil.locator('[data-kind="discount"]')).first()).toContainText(LABEL);
  await expect(pupil.getByTestId('statement-balance')).toHaveText(formatNaira(discounted.balance));
  await expectAccessible(pupil);
  await noSideways(pupil);

  // The bursar revokes it with a reason: it stays listed, marked revoked, and the balance returns.
  await page.goto(`${DISCOUNT_SCREEN.to}?admission_number=${admission}&session_id=${sessionId}`);
  await row.getByRole('button', { name: `${L.revoke}: ${LABEL}` }).click();
  const panel = row.getByTestId('revoke-panel');
  await panel.getByRole('button', { name: L.confirmRevoke }).click();
  await expect(panel.getByTestId('field-error')).toHaveText(DISCOUNT_MESSAGES.revokeReasonRequired);
  await expectAccessible(page);
  await panel.getByLabel(L.revokeReason).fill('Brother left the school');
  await panel.getByRole('button', { name: L.confirmRevoke }).click();
  await expect(page.getByTestId('toast-success')).toContainText(DISCOUNT_MESSAGES.revoked);
  await expect(row).toHaveAttribute('data-state', 'revoked');
  await expect(row.getByTestId('discount-revoked')).toContainText('Brother left the school');
  await expect(row.getByTestId('discount-value')).toHaveText(formatNaira(0));
  await expect(page.getByTestId('discount-balance')).toHaveText(formatNaira(full));
  await expectAccessible(page);
  await noSideways(page);
  expect((await statementOf(page.request, admission, sessionId)).balance).toBe(full);

  await pupil.goto('/PaymentForm');
  await expect(pupil.getByTestId('fees-outstanding')).toHaveText(formatNaira(full));
  await expect(pupil.getByTestId('fees-discounts')).toHaveCount(0);
  // A student cannot reach the discounts API, not even for themself.
  const listed = await pupil.request.get(`/api/bursary/discounts/?admission_number=${admission}`, {
    headers: { authorization: `Bearer ${await apiToken(pupil.request, 'student', PUPIL)}` },
  });
  expect(listed.status()).toBe(403);
  await pupilContext.close();
  const all = (await (
    await page.request.get(`/api/bursary/discounts/?admission_number=${admission}&include_revoked=true`, {
      headers: { authorization: `Bearer ${await apiToken(page.request, 'admin')}` },
    })
  ).json()) as Discount[];
  expect(all.map((d) => [d.label, d.revoke_reason])).toEqual([[LABEL, 'Brother left the school']]);
});
