import { useState, type ReactNode } from 'react';

/**
 * The header row of the teaching grids (levels or arms by subjects, terms by levels): the first
 * column names the rows and may stay in view while the grid scrolls sideways.
 */
/** A column of a teaching grid: its key (a level, an arm's id) and the label that heads it. */
export interface GridColumn {
  key: string | number;
  label: string;
}

export function GridHead({
  first,
  columns,
  sticky = false,
  columnClass = 'whitespace-nowrap',
}: {
  first: string;
  columns: readonly GridColumn[];
  sticky?: boolean;
  columnClass?: string;
}) {
  return (
    <thead>
      <tr className="border-b-2 border-slate-300 text-left">
        <th scope="col" className={`p-2 ${sticky ? 'sticky-col bg-white' : ''}`}>
          {first}
        </th>
        {columns.map((c) => (
          <th key={c.key} scope="col" className={`p-2 ${columnClass}`}>
            {c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A row of a teaching grid: its name in the first column (kept in view while the grid scrolls
 * sideways when `sticky`), then a cell per column, each named with its column's label for the
 * stacked phone layout. `lead`: the shaded row above the others (the form teachers).
 */
export function GridRow<C extends GridColumn>({
  heading,
  columns,
  cell,
  sticky = false,
  lead = false,
  cellClassName = 'p-1',
}: {
  heading: ReactNode;
  columns: readonly C[];
  cell: (column: C) => ReactNode;
  sticky?: boolean;
  lead?: boolean;
  cellClassName?: string;
}) {
  const shade = lead ? 'bg-slate-50' : 'bg-white';
  return (
    <tr className={lead ? 'border-b border-slate-200 bg-slate-50' : 'border-b border-slate-100'}>
      <th scope="row" className={`${sticky ? `sticky-col ${shade} ` : ''}p-2 text-left ${lead ? 'font-semibold' : 'font-medium'}`}>
        {heading}
      </th>
      {columns.map((c) => (
        <td key={c.key} data-label={c.label} className={cellClassName}>
          {cell(c)}
        </td>
      ))}
    </tr>
  );
}

/**
 * The options a grid's select draws before anyone reaches for it: those `keep` names (the value it
 * shows, "None"); the rest once it is focused or pressed, before the browser opens its list. A grid
 * holds a select per arm and subject, each able to name every member of staff: 22 arms and 113 staff
 * drew 46,000 elements, 10 s to open and 4.5 s a pick on a phone at 4× (docs/performance.md).
 */
export function useOptionsOnDemand<O>(options: readonly O[], keep: (option: O) => boolean) {
  const [wanted, setWanted] = useState(false);
  const want = () => setWanted(true);
  return {
    shown: wanted ? options : options.filter(keep),
    // Pointer events come before the list opens (and before focus); focus covers the keyboard.
    reach: { onFocus: want, onPointerDown: want, onMouseDown: want },
  };
}

/** A grid cell's select: named for its row and column, marked while its change is unsaved. */
export function GridSelect({
  label,
  value,
  changed,
  options,
  onChange,
  disabled,
  className = '',
  onDemand = false,
}: {
  label: string;
  value: string;
  changed: boolean;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  disabled?: boolean;
  className?: string;
  /** Long lists (every member of staff): only the first option and the chosen one until reached for. */
  onDemand?: boolean;
}) {
  const first = options[0];
  const { shown, reach } = useOptionsOnDemand(options, (o) => !onDemand || o === first || o.value === value);
  return (
    <select
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      {...reach}
      className={`min-h-11 rounded-lg border px-2 text-sm ${changed ? 'border-amber-500 bg-amber-50' : 'border-slate-300 bg-white'} ${className}`}
    >
      {shown.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
