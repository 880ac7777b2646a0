import { useState } from 'react';

/**
 * A filter form's fields as typed: started from the address, applied to it only on submit (the list
 * follows the address, not each keystroke). `field(k)` gives a field component its value and change handler.
 */
export function useFilterDraft<K extends string>(keys: readonly K[], params: URLSearchParams) {
  const [typed, setTyped] = useState(() => Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ''])) as Record<K, string>);
  const field = (k: K) => ({
    value: typed[k],
    onChange: (e: { target: { value: string } }) => setTyped((t) => ({ ...t, [k]: e.target.value })),
  });
  return { typed, field };
}
