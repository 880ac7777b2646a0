import type { ReactNode } from 'react';

type Tone = 'error' | 'success' | 'info' | 'warning';
const TONES: Record<Tone, string> = {
  error: 'border-red-300 bg-red-50 text-red-900',
  success: 'border-brand-600/40 bg-brand-50 text-brand-900',
  info: 'border-sky-300 bg-sky-50 text-sky-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
};

/** A banner for page-level messages; errors are announced to screen readers. */
export function Alert({
  tone = 'info',
  children,
  title,
  className = '',
}: {
  tone?: Tone;
  children: ReactNode;
  title?: string;
  className?: string;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border p-3 text-sm ${TONES[tone]} ${className}`}
      data-testid={`alert-${tone}`}
    >
      {title && <p className="font-semibold">{title}</p>}
      <div className="whitespace-pre-line">{children}</div>
    </div>
  );
}
