// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASSESSMENT_MESSAGES, DEFAULT_COMPONENTS, type AssessmentScheme } from '@portal/domain/assessment';
import { setTransport } from '../../../lib/api-client';
import { ToastProvider } from '../../../lib/toast';
import AssessmentSchemesPage from '../pages/assessment-schemes';

// The assessment scheme editor on its form schema, in a DOM against a fake server: what shows as it
// is typed, what a save attempt adds, and what is sent.

const scheme = (level: 'JSS' | 'SSS'): AssessmentScheme => ({
  level,
  session_id: 1,
  session_name: '2025/2026',
  components: [...DEFAULT_COMPONENTS],
  precision: 'one_decimal',
  is_default: true,
  component_results: 0,
  total_only_results: 0,
  updated_at: null,
});

const server = { writes: [] as { method: string; url: string; body: unknown }[] };
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function answer(input: RequestInfo | URL, init?: RequestInit): Response {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = init?.method ?? 'GET';
  const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
  if (method === 'GET' && url.includes('/sessions/')) return json(200, [{ id: 1, name: '2025/2026', is_current: true }]);
  if (method === 'GET' && url.includes('/assessment-schemes/')) return json(200, [scheme('JSS'), scheme('SSS')]);
  if (method === 'GET') return json(404, { detail: 'Not found.' });
  server.writes.push({ method, url, body });
  if (url.includes('/preview/'))
    return json(200, {
      level: 'SSS',
      session_id: 1,
      session_name: '2025/2026',
      total_only_results: 0,
      component_results: 0,
      structural: true,
      refused: false,
    });
  return json(200, { ...scheme('SSS'), message: ASSESSMENT_MESSAGES.schemeSaved('SSS', '2025/2026') });
}

const press = (el: HTMLElement) =>
  act(async () => {
    fireEvent.click(el);
    await Promise.resolve();
  });
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });

beforeEach(() => {
  server.writes = [];
  setTransport((input, init) => Promise.resolve(answer(input, init)));
});
afterEach(cleanup);

async function openSss() {
  const router = createMemoryRouter([{ path: '/assessment-schemes', element: <AssessmentSchemesPage /> }], {
    initialEntries: ['/assessment-schemes'],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return screen.findByRole('region', { name: 'Senior (SSS)' });
}

const errorsIn = (el: HTMLElement) =>
  within(el)
    .queryAllByTestId('field-error')
    .map((e) => e.textContent);

describe('the assessment scheme editor', () => {
  it("shows the sum's problem as it is typed; a blank row's problems only once a save was tried, then beside the fields too", async () => {
    const sss = await openSss();
    await press(within(sss).getByRole('button', { name: 'Add component' }));
    expect(within(sss).getByTestId('scheme-sum-SSS').textContent).toBe(ASSESSMENT_MESSAGES.schemeSum(100));
    expect(errorsIn(sss)).toEqual([]);
    type(within(sss).getByLabelText('Maximum SSS component 1'), '60');
    expect(within(sss).getByRole('alert').textContent).toBe(ASSESSMENT_MESSAGES.sumNot100(60));

    await press(within(sss).getByRole('button', { name: 'Save SSS scheme' }));
    expect(errorsIn(sss)).toEqual([ASSESSMENT_MESSAGES.nameRequired, ASSESSMENT_MESSAGES.labelInvalid, ASSESSMENT_MESSAGES.maxInvalid]);
    const alerts = within(sss)
      .getAllByRole('alert')
      .map((a) => a.textContent);
    expect(alerts).toEqual([
      ASSESSMENT_MESSAGES.sumNot100(60),
      [ASSESSMENT_MESSAGES.nameRequired, ASSESSMENT_MESSAGES.labelInvalid, ASSESSMENT_MESSAGES.maxInvalid].join('\n'),
    ]);
    expect(server.writes).toEqual([]);

    // An edit takes the save's list away; the live problems stay.
    type(within(sss).getByLabelText('Name SSS component 2'), 'Exam');
    expect(
      within(sss)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toEqual([ASSESSMENT_MESSAGES.sumNot100(60)]);
  });

  it('moves and removes rows, and sends the components in their order with the precision picked', async () => {
    const sss = await openSss();
    await press(within(sss).getByRole('button', { name: 'CA1 20 + CA2 20 + Exam 60' }));
    await press(within(sss).getByRole('button', { name: 'Move SSS component 3 up' }));
    expect(within(sss).getByLabelText<HTMLInputElement>('Short label SSS component 2').value).toBe('Exam');
    await press(within(sss).getByRole('button', { name: 'Remove SSS component 3' }));
    type(within(sss).getByLabelText('Maximum SSS component 1'), '40');
    type(within(sss).getByLabelText('Name SSS component 1'), ' First test ');
    fireEvent.click(within(sss).getByLabelText(ASSESSMENT_MESSAGES.precisionWhole));
    await press(within(sss).getByRole('button', { name: 'Save SSS scheme' }));
    expect(await screen.findByText(ASSESSMENT_MESSAGES.schemeSaved('SSS', '2025/2026'))).toBeTruthy();
    const body = {
      session_id: 1,
      components: [
        { name: 'First test', label: 'CA1', max: 40 },
        { name: 'Examination', label: 'Exam', max: 60 },
      ],
      precision: 'whole',
    };
    expect(server.writes.map((w) => w.body)).toEqual([body, body]);
  });
});
