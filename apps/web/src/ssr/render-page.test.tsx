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

  it('renders at the same time for different users never mix their API calls (one transport per request)', async () => {
    const users = Array.from({ length: 20 }, (_, k) => `STU-${String(k + 1).padStart(4, '0')}`);
    const calls = users.map(() => [] as string[]);
    await Promise.all(
      users.map((publicId, k) => {
        const api: typeof fetch = async (input) => {
          const url = input as string;
          calls[k]!.push(url);
          // Answers interleave: each user's waits a different number of turns of the event loop (no time).
          for (let turn = 0; turn < (k * 7) % 5; turn++) await new Promise((r) => setImmediate(r));
          if (url.startsWith('/api/report-card/')) return new Response('{}', { status: 404 });
          const body = url.startsWith('/api/me/') ? me({ public_id: publicId }) : url.startsWith('/api/sessions/') ? [] : {};
          return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
        };
        return renderPage('/report-card?session_id=2&term=1st', api);
      }),
    );
    for (const [k, publicId] of users.entries()) {
      const cards = calls[k]!.filter((u) => u.startsWith('/api/report-card/'));
      expect(cards, publicId).toEqual([`/api/report-card/?admission_number=${publicId}&session_id=2&term=1st`]);
      expect(calls[k], publicId).toHaveLength(4); // me, settings, sessions, card: all of them here, none elsewhere
    }
  });
});
