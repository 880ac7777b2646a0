import type { ReactNode } from 'react';

/** One figure of a {@link FigureList}: its label, its value, and the value's test id and class when it has its own. */
export interface Figure {
  label: ReactNode;
  value: ReactNode;
  testId?: string;
  /** Default: bold. */
  valueClassName?: string;
}

/**
 * A few labelled figures side by side (a student's name, class and balance; a statement's totals),
 * as a description list; a `false` entry is a figure not shown this time.
 */
export function FigureList({ figures, className, testId }: { figures: (Figure | false)[]; className: string; testId?: string }) {
  return (
    <dl className={className} data-testid={testId}>
      {figures.map(
        (f, i) =>
          f && (
            <div key={i}>
              <dt className="text-slate-600">{f.label}</dt>
              <dd className={f.valueClassName ?? 'font-semibold'} data-testid={f.testId}>
                {f.value}
              </dd>
            </div>
          ),
      )}
    </dl>
  );
}
