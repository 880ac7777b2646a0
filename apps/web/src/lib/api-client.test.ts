import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@portal/domain/auth-constants';
import { api, ApiError } from './api-client';
import { setSigningOut } from './auth-store';

/**
 * The client's silent token refresh, in Node: `fetch`, local storage and `window.location` are
 * stand-ins (no DOM library is installed), the client code is the real one.
 */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
}

type Call = { url: string; method: string; authorization?: string; body?: unknown };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('api client: silent token refresh', () => {
  let calls: Call[];
  let assign: ReturnType<typeof vi.fn>;
  /** What the refresh endpoint answers; the API accepts only the access token it last issued. */
  let refreshAnswer: () => Promise<Response>;
  let validAccess: string;

  beforeEach(() => {
    vi.useFakeTimers();
    calls = [];
    assign = vi.fn();
    validAccess = 'access-2';
    let issued = 1;
    refreshAnswer = () => {
      issued++;
      return Promise.resolve(json(200, { access: `access-${issued}`, refresh: `refresh-${issued}` }));
    };
    vi.stubGlobal('localStorage', new MemoryStorage());
    vi.stubGlobal('sessionStorage', new MemoryStorage());
    vi.stubGlobal('window', { location: { origin: 'http://portal.test', pathname: '/results', search: '?term=1st', assign } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const headers = (init.headers ?? {}) as Record<string, string>;
        const call: Call = { url, method: init.method ?? 'GET', authorization: headers.authorization };
        if (typeof init.body === 'string') call.body = JSON.parse(init.body);
        calls.push(call);
        if (calls.length > 20) throw new Error('runaway requests');
        // Let concurrent callers overlap, as real network calls do (a turn of the queue, no time).
        await Promise.resolve();
        if (url === '/api/token/refresh/') return refreshAnswer();
        if (headers.authorization !== `Bearer ${validAccess}`) return json(401, { detail: 'Token expired' });
        return json(200, { ok: true, url });
      }),
    );
    // A signed-in staff member whose access token has expired.
    localStorage.setItem(STORAGE_KEYS.accessToken, 'access-1');
    localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh-1');
    localStorage.setItem(STORAGE_KEYS.staffInfo, JSON.stringify({ staffId: 'STAFF-0001', name: 'Grace' }));
  });

  afterEach(async () => {
    // The client forgets its finished refresh on the next turn of the event loop.
    await vi.advanceTimersByTimeAsync(5);
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const apiCalls = () => calls.filter((c) => c.url !== '/api/token/refresh/');
  const refreshCalls = () => calls.filter((c) => c.url === '/api/token/refresh/');

  it('on a 401 refreshes the tokens once, keeps them, and repeats the request with the new access token', async () => {
    await expect(api.get('/results/', { query: { term: '1st' } })).resolves.toEqual({ ok: true, url: '/api/results/?term=1st' });
    expect(refreshCalls()).toEqual([
      { url: '/api/token/refresh/', method: 'POST', authorization: undefined, body: { refresh: 'refresh-1' } },
    ]);
    expect(apiCalls().map((c) => c.authorization)).toEqual(['Bearer access-1', 'Bearer access-2']);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-2');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-2');
    expect(assign).not.toHaveBeenCalled();
  });

  it('shares one refresh between requests that fail at the same time (a refresh token is single-use)', async () => {
    const answers = await Promise.all([api.get('/results/'), api.get('/sessions/'), api.post('/results/', { score: 1 })]);
    expect(answers.map((a) => (a as { ok: boolean }).ok)).toEqual([true, true, true]);
    expect(refreshCalls()).toHaveLength(1);
    expect(apiCalls().filter((c) => c.authorization === 'Bearer access-2')).toHaveLength(3);
  });

  it('refreshes again when the new access token expires in turn', async () => {
    await api.get('/results/');
    await vi.advanceTimersByTimeAsync(5);
    validAccess = 'access-3';
    await expect(api.get('/results/')).resolves.toMatchObject({ ok: true });
    expect(refreshCalls().map((c) => c.body)).toEqual([{ refresh: 'refresh-1' }, { refresh: 'refresh-2' }]);
  });

  it('when the refresh is refused, ends the session and sends the user to their sign-in, to come back here', async () => {
    refreshAnswer = () => Promise.resolve(json(401, { detail: 'Token is invalid or expired' }));
    const err = await api.get('/results/').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.staffInfo)).toBeNull();
    expect(assign).toHaveBeenCalledWith(`/StaffLogin?expired=1&next=${encodeURIComponent('/results?term=1st')}`);
  });

  it('a call refused while this page signs out (the server revoked the tokens first) is not an expired session', async () => {
    refreshAnswer = () => Promise.resolve(json(401, { detail: 'Token is invalid or expired' }));
    setSigningOut(true);
    try {
      const err = await api.get('/results/').catch((e: unknown) => e);
      expect((err as ApiError).status).toBe(401);
    } finally {
      setSigningOut(false);
    }
    // Without the check it was sent to "/StaffLogin?expired=1&next=…" while the sign-out went to the sign-in.
    expect(assign).not.toHaveBeenCalled();
  });

  it('requests refused together with a refused refresh all send the user to their own sign-in, not the role chooser', async () => {
    refreshAnswer = () => Promise.resolve(json(401, { detail: 'Token is invalid or expired' }));
    await Promise.all([api.get('/results/'), api.get('/classes/'), api.get('/subjects/')].map((p) => p.catch(() => null)));
    expect(assign.mock.calls.length).toBeGreaterThan(0);
    for (const [url] of assign.mock.calls) expect(url).toBe(`/StaffLogin?expired=1&next=${encodeURIComponent('/results?term=1st')}`);
  });

  it('treats a refresh that cannot reach the server as refused', async () => {
    refreshAnswer = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(api.get('/results/')).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(assign).toHaveBeenCalledTimes(1);
  });

  it('repeats a request only once: a second 401 after a good refresh is the answer', async () => {
    validAccess = 'never-valid';
    const err = await api.get('/results/').catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(401);
    expect(refreshCalls()).toHaveLength(1);
    expect(apiCalls()).toHaveLength(2);
  });

  it('does not refresh for sign-in calls, nor without a refresh token', async () => {
    await expect(api.post('/staff/login/', { email: 'a@b.c', password: 'x' }, { anonymous: true })).rejects.toMatchObject({
      status: 401,
    });
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    await expect(api.get('/results/')).rejects.toMatchObject({ status: 401 });
    expect(refreshCalls()).toEqual([]);
    expect(apiCalls()).toHaveLength(2);
    expect(apiCalls()[0]!.authorization).toBeUndefined();
    expect(assign).not.toHaveBeenCalled();
  });
});
