// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GENERAL_MESSAGES as M } from '@portal/domain/http';
import { isChunkLoadError, RouteErrorPage } from './route-error';

afterEach(cleanup);
beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

/** A page whose code fails to load with `error`, behind the app's error element. */
function openFailing(error: Error, reload: () => void) {
  const router = createMemoryRouter(
    [
      {
        errorElement: <RouteErrorPage reload={reload} />,
        children: [
          {
            path: '/broadsheet',
            lazy: () => Promise.reject(error),
          },
        ],
      },
    ],
    { initialEntries: ['/broadsheet'] },
  );
  render(<RouterProvider router={router} />);
}

const STALE = new TypeError('Failed to fetch dynamically imported module: http://school.example/assets/broadsheet-OLD.js');

it('knows the browsers’ words for a page’s code that did not load', () => {
  expect(isChunkLoadError(STALE)).toBe(true);
  expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true); // Safari
  expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /assets/x.js'))).toBe(true); // Firefox
  expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/x.css'))).toBe(true); // Vite's preload
  expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'map')"))).toBe(false);
  expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
});

it('a page whose code is gone after a release: loads the new release once, then no more within a minute', async () => {
  const reload = vi.fn();
  openFailing(STALE, reload);
  expect(await screen.findByRole('status')).toHaveProperty('textContent', M.newRelease);
  expect(reload).toHaveBeenCalled();
  cleanup();
  // The same failure again at once (the new release did not help): the message and a way on, no loop.
  const again = vi.fn();
  openFailing(STALE, again);
  expect(await screen.findByRole('heading', { name: M.pageFailedTitle })).toBeTruthy();
  expect(screen.getByText(M.pageFailed)).toBeTruthy();
  expect(again).not.toHaveBeenCalled();
  screen.getByRole('button', { name: M.reload }).click();
  expect(again).toHaveBeenCalledOnce();
  expect(screen.getByRole('link', { name: M.goHome }).getAttribute('href')).toBe('/');
});

it('the same failure offline: the page is not kept on this device, and no reload', async () => {
  const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  const reload = vi.fn();
  openFailing(STALE, reload);
  expect(await screen.findByText(M.pageNotKeptOffline)).toBeTruthy();
  expect(reload).not.toHaveBeenCalled();
  online.mockRestore();
});

it('any other failure: the app’s message, never the router’s developer page', async () => {
  const reload = vi.fn();
  openFailing(new TypeError("Cannot read properties of undefined (reading 'map')"), reload);
  expect(await screen.findByRole('heading', { name: M.pageFailedTitle })).toBeTruthy();
  expect(screen.queryByText(/Unexpected Application Error/)).toBeNull();
  expect(reload).not.toHaveBeenCalled();
});

it('storage that will not note the reload: the message, no reload (it could loop)', async () => {
  const write = vi.spyOn(window.sessionStorage, 'setItem').mockImplementation(() => {
    throw new DOMException('full', 'QuotaExceededError');
  });
  const reload = vi.fn();
  openFailing(STALE, reload);
  expect(await screen.findByRole('heading', { name: M.pageFailedTitle })).toBeTruthy();
  expect(reload).not.toHaveBeenCalled();
  write.mockRestore();
});
