import { useEffect, useState } from 'react';

/**
 * The value, once it has stopped changing for `ms` milliseconds: search boxes query the server once
 * typing pauses, and the payment form's lookups wait 1500 ms.
 */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}
