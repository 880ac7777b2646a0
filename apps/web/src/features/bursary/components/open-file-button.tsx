import type { ReactNode } from 'react';
import { openBlob } from '../../../lib/api-client';
import { useToast } from '../../../lib/toast';
import { RequestButton } from '../../../components/ui/button';

/**
 * Opens a stored file (a teller's scan, a transfer slip) in a new tab, fetched with the token (a blocked
 * pop-up downloads it); a failure is said in a toast, in `failure`'s words.
 */
export function OpenFileButton({
  fetch,
  failure,
  variant,
  children,
}: {
  fetch: () => Promise<Blob>;
  failure: (err: unknown) => string;
  variant: 'secondary' | 'ghost';
  children: ReactNode;
}) {
  const toast = useToast();
  return (
    <RequestButton
      variant={variant}
      run={() =>
        fetch()
          .then(openBlob)
          .catch((err: unknown) => toast.error(failure(err)))
      }
    >
      {children}
    </RequestButton>
  );
}
