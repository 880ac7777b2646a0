// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SchoolCalendarView } from '@portal/domain/attendance';
import { termDatesSchema } from '@portal/domain/attendance-calendar';
import { ATTENDANCE_MESSAGES } from '@portal/domain/attendance-rules';
import { ATTENDANCE_SCREEN_LABELS as L, ATTENDANCE_SCREEN_MESSAGES as M } from '@portal/domain/attendance-screens';
import { setTransport } from '../../../lib/api-client';
import { ToastProvider } from '../../../lib/toast';
import SchoolCalendarPage from './school-calendar';

// The school calendar's settings and term forms in a DOM against a fake server: what is checked
// before sending, what is sent, and where a refusal shows.

const CAL: SchoolCalendarView = {
  session_id: 1,
  session_name: '2025/2026',
  settings: { periods_per_day: 1, saturday_classes: false },
  terms: [
    { session_id: 1, term: '1st', starts_on: '2025-09-08', ends_on: '2025-12-12', school_days: 70, registers: 0 },
    { session_id: 1, term: '2nd', starts_on: null, ends_on: null, school_days: null, registers: 0 },
    { session_id: 1, term: '3rd', starts_on: null, ends_on: null, school_days: null, registers: 0 },
  ],
  events: [{ id: 7, name: 'Sports day', kind: 'school_day', starts_on: '2025-10-04', ends_on: '2025-10-04' }],
  today: '2025-09-15',
};

/** What the fake server was sent, and the answer it gives a write (ok unless told). */
const server = { writes: [] as { method: string; url: string; body: unknown }[], refuse: null as null | Record<string, string[]> };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function answer(input: RequestInfo | URL, init?: RequestInit): Response {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = init?.method ?? 'GET';
  const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
  if (method === 'GET' && url.includes('/sessions/')) return json(200, [{ id: 1, name: '2025/2026', is_current: true }]);
  if (method === 'GET' && url.includes('/attendance/calendar/')) return json(200, CAL);
  if (method === 'GET') return json(404, { detail: 'Not found.' });
  server.writes.push({ method, url, body });
  return server.refuse ? json(400, server.refuse) : json(200, body);
}

/** Clicks and lets the form's checks and the request settle. */
const press = (el: HTMLElement) =>
  act(async () => {
    fireEvent.click(el);
    await Promise.resolve();
  });

beforeEach(() => {
  server.writes = [];
  server.refuse = null;
  setTransport((input, init) => Promise.resolve(answer(input, init)));
});
afterEach(cleanup);

async function openCalendar() {
  const router = createMemoryRouter([{ path: '/school-calendar', element: <SchoolCalendarPage /> }], {
    initialEntries: ['/school-calendar?session_id=1'],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return screen.findByRole('form', { name: L.settings });
}

describe('the school calendar forms', () => {
  it('settings: sends the registers a day as a number and Saturdays as a yes or no, and says so', async () => {
    const form = await openCalendar();
    fireEvent.change(within(form).getByLabelText(L.periodsPerDay), { target: { value: '2' } });
    fireEvent.click(within(form).getByLabelText(L.saturdayClasses));
    await press(within(form).getByRole('button', { name: L.saveSettings }));
    expect(server.writes).toEqual([
      { method: 'PUT', url: expect.stringContaining('/attendance/settings/'), body: { periods_per_day: 2, saturday_classes: true } },
    ]);
    expect(await screen.findByText(M.settingsSaved)).toBeTruthy();
  });

  it('settings: a refusal shows under its field, and the focus stays on the button', async () => {
    const form = await openCalendar();
    server.refuse = { periods_per_day: [ATTENDANCE_MESSAGES.periodsLocked] };
    const save = within(form).getByRole('button', { name: L.saveSettings });
    save.focus();
    await press(save);
    expect(await within(form).findByText(ATTENDANCE_MESSAGES.periodsLocked)).toBeTruthy();
    expect(within(form).getByLabelText(L.periodsPerDay).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(save);
  });

  it('a term: dates the schema refuses are not sent, its messages show under the fields', async () => {
    await openCalendar();
    const term = screen.getByTestId('term-2nd');
    const save = within(term).getByRole('button', { name: `${L.saveTerm}: Second Term` });
    await press(save);
    const expected = termDatesSchema.safeParse({ session_id: 1, term: '2nd', starts_on: '', ends_on: '' }).error!.issues;
    const starts = expected.find((i) => i.path[0] === 'starts_on')!.message;
    await waitFor(() =>
      expect(
        within(term)
          .getAllByTestId('field-error')
          .map((e) => e.textContent),
      ).toContain(starts),
    );
    expect(server.writes).toEqual([]);
    // An end before the start: the schema's own message, under the last day.
    fireEvent.change(within(term).getByLabelText(`${L.startsOn}: Second Term`), { target: { value: '2026-01-10' } });
    fireEvent.change(within(term).getByLabelText(`${L.endsOn}: Second Term`), { target: { value: '2026-01-05' } });
    await press(save);
    expect(await within(term).findByText(ATTENDANCE_MESSAGES.termEndBeforeStart)).toBeTruthy();
    expect(server.writes).toEqual([]);
  });

  it('a term: valid dates are sent with the session and term, and the toast names the term', async () => {
    await openCalendar();
    const term = screen.getByTestId('term-2nd');
    fireEvent.change(within(term).getByLabelText(`${L.startsOn}: Second Term`), { target: { value: '2026-01-05' } });
    fireEvent.change(within(term).getByLabelText(`${L.endsOn}: Second Term`), { target: { value: '2026-04-02' } });
    await press(within(term).getByRole('button', { name: `${L.saveTerm}: Second Term` }));
    expect(server.writes).toEqual([
      {
        method: 'PUT',
        url: expect.stringContaining('/attendance/terms/'),
        body: { session_id: 1, term: '2nd', starts_on: '2026-01-05', ends_on: '2026-04-02' },
      },
    ]);
    expect(await screen.findByText(M.termSaved('Second Term'))).toBeTruthy();
  });

  it('the events table: each column heads its cells and names them for the phone layout', async () => {
    await openCalendar();
    const table = screen.getByTestId('events');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([L.eventName, L.eventKind, L.startsOn, L.endsOn, L.deleteEvent]);
    const row = within(table).getByRole('row', { name: /Sports day/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => [c.getAttribute('data-label'), c.textContent]),
    ).toEqual([
      [L.eventKind, 'Extra school day'],
      [L.startsOn, expect.stringContaining('2025')],
      [L.endsOn, expect.stringContaining('2025')],
      [null, L.deleteEvent],
    ]);
  });
});
