import { describe, expect, it } from 'vitest';
import { renderPage } from './render-page';

// The report card rendered with a real card runs end to end in e2e/tests/report-card-flow.spec.ts
// (the served document carries it; readable with JavaScript off) and in `npm run bench:web`.

const me = (over: Record<string, unknown> = {}) => ({
  role: 'student',
  first_name: 'Ada',
  public_id: 'STU-0001',
  must_change_password: false,
  ...over,
});

/** An API that answers /me/ and records what else it was asked; everything else succeeds empty. */
function fakeApi(profile: Record<string, unknown>) {
  const asked: string[] = [];
  const api: typeof fetch = (input) => {
    const url = input as string;
    asked.push(url);
    const body = url.startsWith('/api/me/') ? profile : url.startsWith('/api/sessions/') ? [] : {};
    return Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
  };
  return { api, asked };
}

describe('the server’s page renderer', () => {
  it('renders only its own pages', async () => {
    const { api, asked } = fakeApi(me());
    expect(await renderPage('/ResultsCheck', api)).toBeNull();
    expect(asked).toEqual([]);
  });

  it('leaves a report card page that names no card to the app: its form would lose what was typed', async () => {
    for (const url of ['/report-card', '/report-card?session_id=2', '/report-card?term=1st']) {
      const { api, asked } = fakeApi(me());
      expect(await renderPage(url, api), url).toBeNull();
      expect(asked, url).toEqual(['/api/me/']);
    }
    // Staff name the student in the address.
    const { api } = fakeApi(me({ role: 'staff', public_id: 'STAFF-0001' }));
    expect(await renderPage('/report-card?session_id=2&term=1st', api)).toBeNull();
  });

  it('renders nothing for a one-time password, or when the API refuses the user', async () => {
    const { api, asked } = fakeApi(me({ must_change_password: true }));
    expect(await renderPage('/report-card?session_id=2&term=1st', api)).toBeNull();
    expect(asked).toEqual(['/api/me/']);
    const refused: typeof fetch = () => Promise.resolve(new Response('{"detail":"no"}', { status: 401 }));
    expect(await renderPage('/report-card?session_id=2&term=1st', refused)).toBeNull();
  });

  it('renders nothing when any of the page’s data is refused (the app shows the message)', async () => {
    const asked: string[] = [];
    const api: typeof fetch = (input) => {
      const url = input as string;
      asked.push(url);
      if (url.startsWith('/api/report-card/')) return Promise.resolve(new Response('{"code":"results_not_released"}', { status: 404 }));
      const body = url.startsWith('/api/me/') ? me() : url.startsWith('/api/sessions/') ? [] : {};
      return Promise.resolve(new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }));
    };
    expect(await renderPage('/report-card?session_id=2&term=1st', api)).toBeNull();
    expect(asked).toContain('/api/report-card/?admission_number=STU-0001&session_id=2&term=1st');
  });
});
