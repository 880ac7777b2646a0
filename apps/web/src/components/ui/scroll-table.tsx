import type { ReactNode } from 'react';

/** A table inside a keyboard-scrollable region, so wide tables scroll on phones without breaking the page. */
export function ScrollTable({
  label,
  children,
  className = 'overflow-x-auto',
  tableClassName = 'w-full border-collapse text-sm',
  tableLabel,
  testId,
}: {
  label: string;
  children: ReactNode;
  className?: string;
  tableClassName?: string;
  tableLabel?: string;
  testId?: string;
}) {
  return (
    <div className={className} tabIndex={0} role="region" aria-label={label}>
      <table className={tableClassName} aria-label={tableLabel} data-testid={testId}>
        {children}
      </table>
    </div>
  );
}

/** A table head of plain column labels; `align` adds a class to the named columns (e.g. numbers right-aligned). */
export function HeaderRow({
  labels,
  rowClassName,
  cellClassName,
  align = {},
  children,
}: {
  labels: string[];
  rowClassName: string;
  cellClassName: string;
  align?: Record<string, string>;
  children?: ReactNode;
}) {
  return (
    <thead>
      <tr className={rowClassName}>
        {labels.map((label) => (
          <th key={label} scope="col" className={align[label] ? `${cellClassName} ${align[label]}` : cellClassName}>
            {label}
          </th>
        ))}
        {children}
      </tr>
    </thead>
  );
}
