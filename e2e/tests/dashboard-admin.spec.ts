import { formatNaira } from '@portal/domain/money';
import { DASHBOARD_MESSAGES as M, type AdminDashboard } from '@portal/domain/dashboard-admin';
import { apiToken, expect, expectAccessible, noSideways, signInViaApi, test } from '../fixtures';

/**
 * The admin home's dashboard (issue 36): the term at a glance above the menu, on a desktop and a
 * 360 px phone, accessible and never wider than the screen; each chart's "Show numbers" table
 * holds the figures the API answers; every screen of the menu is still one tap away. Reads only.
 */
for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: '360 px phone', width: 360, height: 740 },
]) {
  test(`the admin's dashboard: charts, their numbers and the menu (${viewport.name})`, async ({ page, request }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const token = await apiToken(request, 'admin');
    const res = await request.get('/api/dashboards/admin/', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status(), await res.text()).toBe(200);
    const d = (await res.json()) as AdminDashboard;

    await signInViaApi(page, request, 'admin');
    await page.goto('/adminHomePage');
    const dash = page.getByTestId('admin-dashboard');
    await expect(dash.getByRole('heading', { name: /The term at a glance/ })).toBeVisible();
    await expect(dash.getByTestId('dash-attendance')).toBeVisible();
    await expect(dash.getByTestId('dash-cards')).toBeVisible();
    await expect(dash.getByTestId('dash-accounts')).toBeVisible();
    // The menu stays below the dashboard, every screen one tap away.
    await expect(page.getByRole('heading', { name: 'All screens' })).toBeVisible();
    await expect(page.locator('#admin-menu').getByRole('link', { name: /School Settings/ })).toBeVisible();
    await noSideways(page);
    await expectAccessible(page);

    // Attendance: the table view has a row per arm with the API's figures.
    const att = dash.getByTestId('dash-attendance');
    await att.getByRole('button', { name: 'Show numbers' }).click();
    const attRows = att.getByTestId('dash-attendance-table').locator('tbody tr');
    await expect(attRows).toHaveCount(d.attendance.arms.length);
    for (const [i, a] of d.attendance.arms.entries()) {
      await expect(attRows.nth(i).locator('th')).toHaveText(a.student_class);
      if (a.marked) await expect(attRows.nth(i).locator('td').nth(0)).toHaveText(String(a.present));
    }
    await expect(att.getByRole('button', { name: 'Show chart' })).toBeVisible();

    // Report cards: the count of arms per status.
    const cards = dash.getByTestId('dash-cards');
    await cards.getByRole('button', { name: 'Show numbers' }).click();
    for (const status of ['draft', 'submitted', 'approved', 'released'] as const) {
      const label = status[0]!.toUpperCase() + status.slice(1);
      const n = d.report_cards.filter((a) => a.status === status).length;
      await expect(
        cards
          .getByTestId('dash-cards-table')
          .locator('tr', { has: page.locator('th', { hasText: label }) })
          .locator('td')
          .first(),
      ).toHaveText(String(n));
    }

    if (d.term) {
      // Fees: the table's total row is the API's (the collection summary's) expected and collected.
      const fees = dash.getByTestId('dash-fees');
      await expect(fees.getByTestId('dash-fees-summary')).toContainText(formatNaira(d.fees.collected));
      await expect(fees.getByTestId('dash-debtors')).toContainText(`${d.fees.debtors.count} debtors`);
      await fees.getByRole('button', { name: 'Show numbers' }).click();
      const all = fees.getByTestId('dash-fees-table').locator('tr', { has: page.locator('th', { hasText: /^All$/ }) });
      await expect(all.locator('td')).toHaveText([formatNaira(d.fees.expected), formatNaira(d.fees.collected)]);
      // Score entry: a cell per arm and subject, each linking to its sheet.
      if (d.score_entry.cells.length) {
        const c = d.score_entry.cells[0]!;
        const cell = dash.getByRole('link', {
          name: `${c.student_class} ${c.subject}: ${c.entered} of ${c.expected} entered`,
          exact: false,
        });
        await expect(cell).toHaveAttribute('href', /\/score-sheet\?/);
      }
    }
    // The numbers views open: still accessible, still no sideways scroll.
    await noSideways(page);
    await expectAccessible(page);
    // A laptop window narrowed (or a phone turned): the charts never push the page sideways, not
    // even in the moment before they measure their new box.
    if (viewport.width > 360) {
      await page.setViewportSize({ width: 360, height: 740 });
      await noSideways(page);
    }
  });
}

test('the admin picks another term on a 360 px phone: its figures, kept in the address, and back to today’s', async ({ page, request }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const token = await apiToken(request, 'admin');
  const headers = { authorization: `Bearer ${token}` };
  const sessions = (await (await request.get('/api/sessions/', { headers })).json()) as { id: number; name: string; is_current: boolean }[];
  const session = sessions.find((s) => s.is_current)!;
  const res = await request.get(`/api/dashboards/admin/?session_id=${session.id}&term=1st`, { headers });
  expect(res.status(), await res.text()).toBe(200);
  const first = (await res.json()) as AdminDashboard;
  const today = (await (await request.get('/api/dashboards/admin/', { headers })).json()) as AdminDashboard;

  await signInViaApi(page, request, 'admin');
  await page.goto('/adminHomePage');
  const dash = page.getByTestId('admin-dashboard');
  const picker = dash.getByLabel(M.termShown);
  await expect(picker).toHaveValue('');
  await expect(picker.locator('option', { hasText: M.todaysTerm })).toHaveCount(1);

  await picker.selectOption({ label: `${session.name}, First Term` });
  await expect(dash.getByRole('heading', { name: `${M.adminTitle} · ${session.name}, 1st term` })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`[?&]session_id=${session.id}&term=1st`));
  await expect(dash.getByTestId('dash-fees-summary')).toContainText(formatNaira(first.fees.collected));
  await noSideways(page);
  await expectAccessible(page);

  // A reload keeps the term picked.
  await page.reload();
  await expect(dash.getByRole('heading', { name: `${M.adminTitle} · ${session.name}, 1st term` })).toBeVisible();
  await expect(dash.getByLabel(M.termShown)).toHaveValue(`${session.id}|1st`);

  // Back to today's term.
  await dash.getByLabel(M.termShown).selectOption('');
  const title = `${M.adminTitle}${today.session ? ` · ${today.session.name}${today.term ? `, ${today.term} term` : ''}` : ''}`;
  await expect(dash.getByRole('heading', { name: title, exact: true })).toBeVisible();
  await expect(page).not.toHaveURL(/session_id=/);
});
