// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { UnsentHeaderBadge } from './unsent-badge';

afterEach(cleanup);

// The badge's chunk cannot be had: offline before the service worker holds the app (CI saw it take the
// whole register page down to "Unexpected Application Error!").
vi.mock('./unsent-count-badge', () => {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/unsent-count-badge.js');
});

it('a badge whose code cannot be loaded leaves the header without it, and the page standing', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  render(
    <main>
      <header>
        <UnsentHeaderBadge session={{ role: 'staff', name: 'Ada', publicId: 'STAFF-0001', mustChangePassword: false }} />
      </header>
      <p>The register</p>
    </main>,
  );
  await act(() => new Promise((r) => setTimeout(r, 50)));
  expect(screen.getByText('The register')).toBeTruthy();
  expect(screen.queryByTestId('unsent-badge')).toBeNull();
});
