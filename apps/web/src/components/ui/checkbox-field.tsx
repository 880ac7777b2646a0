import type { ReactNode } from 'react';

/**
 * A checkbox with its text as its label (a setting switched on or off, one of a list of choices):
 * the box and the text the screens share, the change handler given the new state. `className` adds
 * to the label's layout (`min-h-11` for a tap target, a margin); `boxClassName` replaces the box's size.
 */
export function CheckboxField({
  label,
  checked,
  onChange,
  className = 'items-center',
  boxClassName = 'h-5 w-5',
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  className?: string;
  boxClassName?: string;
}) {
  return (
    <label className={`flex ${className} gap-2 text-sm`}>
      <input type="checkbox" className={boxClassName} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}
