import { Button } from './button';

/**
 * A form's submit button that says what it is doing while the request is on its way ("Saving...")
 * and shows the spinner, as the app's settings and registration forms do.
 */
export function SubmitButton({ label, busy, busyLabel = 'Saving...' }: { label: string; busy: boolean; busyLabel?: string }) {
  return (
    <Button type="submit" loading={busy}>
      {busy ? busyLabel : label}
    </Button>
  );
}
