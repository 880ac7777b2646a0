import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';

/**
 * A bursar's filter or lookup form: its fields, then the button that applies them (the screen follows
 * the address, not each keystroke). `onApply` runs on submit.
 */
export function FilterForm({
  label,
  className,
  submitLabel,
  onApply,
  children,
}: {
  label: string;
  className: string;
  submitLabel: string;
  onApply: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        onApply();
      }}
      noValidate
      aria-label={label}
    >
      {children}
      <Button type="submit">{submitLabel}</Button>
    </form>
  );
}
