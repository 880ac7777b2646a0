import type { ReactNode } from 'react';

export function Card({
  children,
  className = '',
  title,
  actions,
}: {
  children: ReactNode;
  className?: string;
  title?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className={`rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 ${className}`}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          {title && <h2>{title}</h2>}
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-slate-300 bg-slate-50 p-6 text-center text-slate-600">{children}</p>;
}

/**
 * A details panel from a table of labels (a record's fields, in its order): the rows named in `only`
 * (default: every label), in that order, each value from `values`. Screens that show a few of a
 * record's fields pick them by name instead of writing the rows, so each label is written once.
 */
export function DetailList<K extends string>({
  labels,
  values,
  only,
}: {
  labels: Record<K, string>;
  values: Partial<Record<K, ReactNode>>;
  only?: readonly K[];
}) {
  const keys = only ?? (Object.keys(labels) as K[]);
  return (
    <dl>
      {keys.map((k) => (
        <DetailRow key={k} label={labels[k]} value={values[k]} />
      ))}
    </dl>
  );
}

/** A read-only "label: value" row for details panels. */
export function DetailRow({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="grid grid-cols-[minmax(7rem,40%)_minmax(0,1fr)] gap-2 border-b border-slate-100 py-1.5 text-sm last:border-0">
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="min-w-0 text-slate-900 [overflow-wrap:anywhere]">
        {value === '' || value === null || value === undefined ? 'Not specified' : value}
      </dd>
    </div>
  );
}
