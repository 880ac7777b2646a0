import type { Page } from '@playwright/test';
import { ATTENDANCE_MESSAGES } from '../../packages/domain/src/attendance-rules';
import { termLabel } from '../../packages/domain/src/constants';
import {
  ROLLOVER_COPY_LABELS as COPY,
  ROLLOVER_LABELS as L,
  ROLLOVER_MESSAGES as M,
  ROLLOVER_SCREEN as S,
  type RolloverPreview,
} from '../../packages/domain/src/rollover';
import { expect, expectAccessible, noSideways, PHONE, signInViaApi, test } from '../fixtures';
import { asAdmin, okJson } from '../school';

// Starting the next session on the web (issue 34 item 5, decision 040): the admin opens
// /session-rollover, sees the proposed name, the three terms a year on and each copy's count, edits the
// name and the dates (a session far in the future, so the demo school's own sessions are untouched and
// it does not become current), unticks one copy, sets a fee increase and starts it: the summary says
// what was copied (the unticked copy 0), and the new session's calendar holds the old one's events. On a laptop the same name is refused (409, the domain's
// message) and terms out of order get the calendar's message at the field. Axe on each screen, no
// sideways scroll on a 360 px phone.

const Y = 2900 + Math.floor(Math.random() * 900);
const NAME = `${Y}/${Y + 1}`;
const TERMS = [
  { starts_on: `${Y}-09-07`, ends_on: `${Y}-12-11`, next: `${Y + 1}-01-04` },
  { starts_on: `${Y + 1}-01-04`, ends_on: `${Y + 1}-04-02`, next: `${Y + 1}-04-26` },
  { starts_on: `${Y + 1}-04-26`, ends_on: `${Y + 1}-07-23`, next: `${Y + 1}-09-13` },
];
const TERM_NAMES = ['1st', '2nd', '3rd'] as const;
let preview: RolloverPreview;
type Calendar = { events: { name: string; kind: string; starts_on: string }[] };
/** The holidays of the session the preview starts from. */
let holidays: Calendar['events'];

test.beforeAll(async ({ request }) => {
  const api = await asAdmin(request);
  preview = await okJson<RolloverPreview>(await api.request.get('/api/session-rollover/preview/', { headers: api.headers }));
  const from = await okJson<Calendar>(
    await api.request.get(`/api/attendance/calendar/?session_id=${preview.from_session.id}`, { headers: api.headers }),
  );
  holidays = from.events.filter((e) => e.kind === 'holiday');
  expect(holidays.length).toBeGreaterThan(0);
});

async function fillTerms(page: Page, terms: typeof TERMS) {
  for (const [i, t] of terms.entries()) {
    const label = termLabel(TERM_NAMES[i]!);
    await page.getByLabel(L.termStarts(label), { exact: true }).fill(t.starts_on);
    await page.getByLabel(L.termEnds(label), { exact: true }).fill(t.ends_on);
    await page.getByLabel(L.nextTermBegins(label), { exact: true }).fill(t.next);
  }
}

test('on a 360 px phone: the preview, edited, started with one copy unticked and a fee increase; the summary', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signInViaApi(page, page.request, 'admin');
  await page.goto(S.to);
  await expect(page.getByRole('heading', { name: S.label, level: 1 })).toBeVisible();
  await expect(page.getByLabel(L.name)).toHaveValue(preview.name);
  await expect(page.getByLabel(L.termStarts(termLabel('1st')), { exact: true })).toHaveValue(preview.terms[0]!.starts_on);
  await expect(page.getByText(L.copyCount(preview.copies.fee_items.count)).first()).toBeVisible();
  await expect(page.getByLabel(COPY.form_teachers)).toBeChecked();
  await expect(page.getByLabel(COPY.calendar_events)).toBeChecked();
  await expect(page.getByText(L.calendarEventsHint)).toBeVisible();
  await expect(page.getByLabel(L.makeCurrent)).not.toBeChecked();
  await noSideways(page);
  await expectAccessible(page);

  await page.getByLabel(L.name).fill(NAME);
  await fillTerms(page, TERMS);
  await page.getByLabel(COPY.form_teachers).uncheck();
  await page.getByLabel(L.feeIncrease).fill('10');
  await page.getByRole('button', { name: L.start }).click();

  await expect(page.getByRole('heading', { name: L.resultTitle })).toBeVisible();
  await expect(page.getByText(M.notCurrent(NAME))).toBeVisible();
  await expect(page.getByText(L.copiedRow(COPY.form_teachers, 0))).toBeVisible();
  await expect(page.getByText(L.copiedRow(COPY.fee_items, preview.copies.fee_items.count))).toBeVisible();
  await expect(page.getByText(L.copiedRow(COPY.teaching_assignments, preview.copies.teaching_assignments.count))).toBeVisible();
  await expect(page.getByText(L.copiedRow(COPY.calendar_events, preview.copies.calendar_events.count))).toBeVisible();
  await noSideways(page);
  await expectAccessible(page);

  // The new session exists, not current; the current one is where it was.
  const api = await asAdmin(page.request);
  const sessions = await okJson<{ id: number; name: string; is_current: boolean }[]>(
    await api.request.get('/api/sessions/', { headers: api.headers }),
  );
  expect(sessions.find((s) => s.name === NAME)?.is_current).toBe(false);
  expect(sessions.find((s) => s.name === preview.from_session.name)?.is_current).toBe(true);
  // Its calendar has the previous session's events; each holiday on its day and month, in the new years.
  const id = sessions.find((s) => s.name === NAME)!.id;
  const moved = await okJson<Calendar>(await api.request.get(`/api/attendance/calendar/?session_id=${id}`, { headers: api.headers }));
  expect(moved.events).toHaveLength(preview.copies.calendar_events.count);
  for (const h of holidays)
    expect(moved.events.filter((e) => e.kind === 'holiday' && e.name === h.name).map((e) => e.starts_on.slice(4))).toContain(
      h.starts_on.slice(4),
    );
});

test('on a laptop: a name the school has is refused with its message; terms out of order get the calendar’s message', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInViaApi(page, page.request, 'admin');
  await page.goto(S.to);
  await expect(page.getByLabel(L.name)).toHaveValue(preview.name);
  await expectAccessible(page);

  // The name the phone test took.
  await page.getByLabel(L.name).fill(NAME);
  await fillTerms(
    page,
    TERMS.map((t) => ({
      starts_on: t.starts_on.replace(String(Y), String(Y + 2)).replace(String(Y + 1), String(Y + 3)),
      ends_on: t.ends_on.replace(String(Y), String(Y + 2)).replace(String(Y + 1), String(Y + 3)),
      next: t.next.replace(String(Y), String(Y + 2)).replace(String(Y + 1), String(Y + 3)),
    })),
  );
  await page.getByRole('button', { name: L.start }).click();
  await expect(page.getByText(M.nameTaken(NAME))).toBeVisible();

  // A 2nd term starting before the 1st: the calendar's message under the 2nd term's start.
  const other = `${Y + 5}/${Y + 6}`;
  await page.getByLabel(L.name).fill(other);
  const z = Y + 5;
  await fillTerms(page, [
    { starts_on: `${z}-09-07`, ends_on: `${z}-12-11`, next: `${z + 1}-01-04` },
    { starts_on: `${z}-08-03`, ends_on: `${z}-08-28`, next: `${z}-09-07` },
    { starts_on: `${z + 1}-04-26`, ends_on: `${z + 1}-07-23`, next: `${z + 1}-09-13` },
  ]);
  await page.getByRole('button', { name: L.start }).click();
  const starts2 = page.getByLabel(L.termStarts(termLabel('2nd')), { exact: true });
  await expect(starts2).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('field-error')).toHaveText(ATTENDANCE_MESSAGES.termOrder(`${termLabel('1st')} of ${other}`));
  await expectAccessible(page);
});
