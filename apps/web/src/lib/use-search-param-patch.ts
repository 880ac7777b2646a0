import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The address's query and a stable setter that changes only the named keys (an empty value removes
 * its key) and replaces the history entry, so pickers do not fill the back button.
 */
export function useSearchParamPatch(): [URLSearchParams, (next: Record<string, string>) => void] {
  const [params, setParams] = useSearchParams();
  const patch = useCallback(
    (next: Record<string, string>) =>
      setParams(
        (p) => {
          const out = new URLSearchParams(p);
          for (const [k, v] of Object.entries(next)) {
            if (v) out.set(k, v);
            else out.delete(k);
          }
          return out;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params, patch];
}
