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

/**
 * Some of a list of choices, each a CheckboxField in a `className` layout: `chosen` are the ticked
 * ones, `onChange` gets the new list (a ticked choice goes last). `itemClassName` is each box's
 * `className`.
 */
export function CheckboxList({
  options,
  chosen,
  onChange,
  className,
  itemClassName,
}: {
  options: string[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  className: string;
  itemClassName?: string;
}) {
  return (
    <div className={className}>
      {options.map((o) => (
        <CheckboxField
          key={o}
          label={o}
          className={itemClassName}
          checked={chosen.includes(o)}
          onChange={(on) => onChange(on ? [...chosen, o] : chosen.filter((x) => x !== o))}
        />
      ))}
    </div>
  );
}
