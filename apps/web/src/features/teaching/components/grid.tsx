/**
 * The header row of the teaching grids (levels or arms by subjects, terms by levels): the first
 * column names the rows and may stay in view while the grid scrolls sideways.
 */
export function GridHead({
  first,
  columns,
  sticky = false,
  columnClass = 'whitespace-nowrap',
}: {
  first: string;
  columns: readonly { key: string | number; label: string }[];
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

/** A grid cell's select: named for its row and column, marked while its change is unsaved. */
export function GridSelect({
  label,
  value,
  changed,
  options,
  onChange,
  disabled,
  className = '',
}: {
  label: string;
  value: string;
  changed: boolean;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <select
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      className={`min-h-11 rounded-lg border px-2 text-sm ${changed ? 'border-amber-500 bg-amber-50' : 'border-slate-300 bg-white'} ${className}`}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
