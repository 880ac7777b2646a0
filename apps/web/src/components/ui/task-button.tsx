import { useState } from 'react';
import { Button, type ButtonProps } from './button';

/**
 * A button that runs a task (fetching a file to open or download) and shows itself busy until the
 * task ends. The task says its own failure (a toast): the button only keeps the spinner honest.
 */
export function TaskButton({ run, ...rest }: Omit<ButtonProps, 'onClick' | 'loading'> & { run: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      {...rest}
      loading={busy}
      onClick={() => {
        setBusy(true);
        void run().finally(() => setBusy(false));
      }}
    />
  );
}
