import { Button } from './button';

/**
 * A form's submit button and, when the form edits something in place (a row being renamed or
 * edited), its Cancel button beside it: the pair the list screens' inline forms all end with.
 */
export function SaveCancel({
  label,
  busy,
  onCancel,
  buttonClassName,
}: {
  label: string;
  /** Shows the submit button's spinner (the save is on its way). */
  busy?: boolean;
  /** Leaves the edit; no Cancel button without it (a form that adds). */
  onCancel?: () => void;
  /** Classes both buttons take (e.g. a top margin that lines them up with a labelled field). */
  buttonClassName?: string;
}) {
  return (
    <>
      <Button type="submit" loading={busy} className={buttonClassName}>
        {label}
      </Button>
      {onCancel && (
        <Button variant="ghost" className={buttonClassName} onClick={onCancel}>
          Cancel
        </Button>
      )}
    </>
  );
}
