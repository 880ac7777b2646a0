// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { APP_UPDATE_MESSAGES } from '@portal/domain/web-app-manifest';
import { offerUpdate } from '../../lib/pwa/update-state';
import { UpdatePrompt } from './update-prompt';

afterEach(cleanup);

// The prompt is absent until the registration (lib/pwa/register.ts) reports a waiting version; its
// button hands over to that version (a test is not a production build: nothing registers here).
it('shows nothing until a new version waits, then offers the reload that lets it take over', () => {
  render(<UpdatePrompt />);
  expect(screen.queryByTestId('app-update')).toBeNull();
  const take = vi.fn();
  act(() => offerUpdate(take));
  const prompt = screen.getByRole('status');
  expect(prompt.textContent).toContain(APP_UPDATE_MESSAGES.ready);
  fireEvent.click(screen.getByRole('button', { name: APP_UPDATE_MESSAGES.reload }));
  expect(take).toHaveBeenCalledTimes(1);
});
