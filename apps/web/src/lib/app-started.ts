import { useSyncExternalStore } from 'react';

const never = () => () => undefined;

/**
 * False in a page rendered on the server (src/ssr/render-page.tsx), which is on screen before the
 * app's JavaScript runs; true once the app renders it. Controls that only work with the app (print,
 * download) are shown disabled until then, instead of doing nothing when tapped.
 */
export function useAppStarted(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
