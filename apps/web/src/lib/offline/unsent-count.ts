import { useEffect, useState } from 'react';
import { onOfflineChange } from './changes';
import { unsentRows } from './outbox-store';

/** How many rows of `user` wait to be sent (0 while unknown), following every tab's writes. */
export function useUnsentCount(user: string | null): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (!user) {
      setCount(0);
      return;
    }
    let live = true;
    let asked = 0;
    const read = () => {
      const mine = ++asked;
      void unsentRows(user).then((rows) => {
        if (live && mine === asked) setCount(rows.length);
      });
    };
    read();
    const off = onOfflineChange(read);
    return () => {
      live = false;
      off();
    };
  }, [user]);
  return count;
}
