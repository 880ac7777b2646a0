// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SaveFailure } from './row-outbox';
import { useAutosaveRows } from './use-autosave-rows';

// The autosave engine as a screen meets it: a row of text inputs on `useAutosaveRows`, in a DOM,
// with fake timers and a fake server. Its rules in detail are row-outbox.test.ts's; here, what the
// hook adds: rendering, the online event, the page-close warning and saving when the screen goes.

interface Stored {
  text: string;
  version: number;
}

const NETWORK = new Error('network');
const CONFLICT = new Error('conflict');

/** The fake server: every send is recorded; `failWith` makes the next sends fail. */
const server = {
  stored: new Map<string, Stored>(),
  sends: [] as { key: string; text: string; version: number }[],
  failWith: null as Error | null,
};

function send(key: string, text: string, base: Stored): Promise<Stored> {
  server.sends.push({ key, text, version: base.version });
  if (server.failWith) return Promise.reject(server.failWith);
  const now = server.stored.get(key) ?? { text: '', version: 0 };
  if (now.version !== base.version) return Promise.reject(CONFLICT);
  const next = { text, version: now.version + 1 };
  server.stored.set(key, next);
  return Promise.resolve(next);
}

const KEYS = ['a', 'b'];

function Sheet() {
  const rows = useAutosaveRows<string, Stored>({
    rows: LOADED,
    send,
    debounceMs: 2500,
    rules: {
      valid: () => true,
      unchanged: (v, b) => v === b.text,
      stored: (b) => b.version > 0,
      version: (b) => b.version,
      failure: (e): SaveFailure<Stored> =>
        e === CONFLICT
          ? { kind: 'conflict', message: 'changed', theirs: server.stored.get('a') }
          : e === NETWORK
            ? { kind: 'transient', message: 'Network error' }
            : { kind: 'refused', message: 'No' },
    },
  });
  return (
    <>
      {KEYS.map((k) => {
        const r = rows.rows[k];
        if (!r) return null;
        return (
          <div key={k} data-testid={`row-${k}`}>
            <input aria-label={`text ${k}`} value={r.value} onChange={(e) => rows.edit(k, () => e.target.value)} />
            <span data-testid={`status-${k}`}>{r.status}</span>
            {r.status === 'conflict' && (
              <>
                <button type="button" onClick={() => rows.rebase(k, r.theirs!)}>
                  Keep mine {k}
                </button>
                <button type="button" onClick={() => rows.rebase(k, r.theirs!, r.theirs!.text, false)}>
                  Use theirs {k}
                </button>
              </>
            )}
          </div>
        );
      })}
      <p data-testid="counts">
        {rows.unsaved} unsaved, {rows.failed} failed
      </p>
    </>
  );
}

/** Loaded once (a new array would be a reload). */
const LOADED = KEYS.map((key) => ({ key, value: '', base: { text: '', version: 0 } }));

const type = (k: string, text: string) => fireEvent.change(screen.getByLabelText(`text ${k}`), { target: { value: text } });
const statusOf = (k: string) => screen.getByTestId(`status-${k}`).textContent;
const valueOf = (k: string) => screen.getByLabelText<HTMLInputElement>(`text ${k}`).value;
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeEach(() => {
  vi.useFakeTimers();
  server.stored.clear();
  server.sends = [];
  server.failWith = null;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

describe('useAutosaveRows on a screen', () => {
  it('debounces: one send 2.5 s after the last edit, with the latest value, the typing shown at once', async () => {
    render(<Sheet />);
    type('a', 'Go');
    expect(valueOf('a')).toBe('Go');
    await advance(0);
    expect(statusOf('a')).toBe('unsaved');
    await advance(1500);
    type('a', 'Good');
    await advance(2499);
    expect(server.sends).toEqual([]);
    await advance(1);
    expect(server.sends).toEqual([{ key: 'a', text: 'Good', version: 0 }]);
    expect(statusOf('a')).toBe('saved');
    expect(screen.getByTestId('counts').textContent).toBe('0 unsaved, 0 failed');
  });

  it('retries a network failure on its own after 2 s, then 4 s, and shows the row saved once through', async () => {
    render(<Sheet />);
    server.failWith = NETWORK;
    type('a', 'Fair');
    await advance(2500);
    expect(server.sends).toHaveLength(1);
    expect(statusOf('a')).toBe('failed');
    expect(screen.getByTestId('counts').textContent).toBe('1 unsaved, 1 failed');
    await advance(1999);
    expect(server.sends).toHaveLength(1);
    await advance(1);
    expect(server.sends).toHaveLength(2);
    server.failWith = null;
    await advance(3999);
    expect(server.sends).toHaveLength(2);
    await advance(1);
    expect(server.sends).toHaveLength(3);
    expect(statusOf('a')).toBe('saved');
    expect(server.stored.get('a')).toEqual({ text: 'Fair', version: 1 });
  });

  it('sends failed rows at once when the browser says it is back online', async () => {
    render(<Sheet />);
    server.failWith = NETWORK;
    type('a', 'One');
    type('b', 'Two');
    await advance(2500);
    expect(server.sends).toHaveLength(2);
    server.failWith = null;
    act(() => {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
      window.dispatchEvent(new Event('online'));
    });
    await advance(0);
    expect(server.sends).toHaveLength(4);
    expect([statusOf('a'), statusOf('b')]).toEqual(['saved', 'saved']);
  });

  it('on a 409 keeps both values; keeping mine sends it on the stored version', async () => {
    render(<Sheet />);
    server.stored.set('a', { text: 'Theirs', version: 3 });
    type('a', 'Mine');
    await advance(2500);
    expect(statusOf('a')).toBe('conflict');
    expect(valueOf('a')).toBe('Mine');
    fireEvent.click(screen.getByRole('button', { name: 'Keep mine a' }));
    await advance(0);
    expect(server.sends).toEqual([
      { key: 'a', text: 'Mine', version: 0 },
      { key: 'a', text: 'Mine', version: 3 },
    ]);
    expect(server.stored.get('a')).toEqual({ text: 'Mine', version: 4 });
    expect(statusOf('a')).toBe('saved');
  });

  it('on a 409, taking theirs shows the stored value and sends nothing more', async () => {
    render(<Sheet />);
    server.stored.set('a', { text: 'Theirs', version: 3 });
    type('a', 'Mine');
    await advance(2500);
    fireEvent.click(screen.getByRole('button', { name: 'Use theirs a' }));
    await advance(10_000);
    expect(valueOf('a')).toBe('Theirs');
    expect(statusOf('a')).toBe('saved');
    expect(server.sends).toHaveLength(1);
    expect(server.stored.get('a')).toEqual({ text: 'Theirs', version: 3 });
  });

  it('warns before the page is closed while a row is unsent, and not once it is stored', async () => {
    render(<Sheet />);
    type('a', 'Wait');
    await advance(0);
    const closing = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(closing);
    expect(closing.defaultPrevented).toBe(true);
    await advance(2500);
    const later = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
  });

  it('sends what waits once when the screen goes, before its debounce, and retries nothing after', async () => {
    const { unmount } = render(<Sheet />);
    type('a', 'Leaving');
    await advance(100);
    expect(server.sends).toEqual([]);
    server.failWith = NETWORK;
    unmount();
    await advance(0);
    expect(server.sends).toEqual([{ key: 'a', text: 'Leaving', version: 0 }]);
    await advance(60_000);
    expect(server.sends).toHaveLength(1);
  });
});
