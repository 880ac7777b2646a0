import { useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { Spinner } from './spinner';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';
const VARIANTS: Record<Variant, string> = {
  primary: 'bg-brand-800 text-white hover:bg-brand-900 disabled:bg-brand-800/60',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 disabled:opacity-60',
  danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/60',
  ghost: 'text-brand-800 hover:bg-brand-50 disabled:opacity-60',
};
/** Shape without colours, for buttons that set their own (a `secondary` bg-white cannot be overridden by order). */
export const BUTTON_BASE =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed';

export function buttonClass(variant: Variant = 'primary', extra = ''): string {
  return `${BUTTON_BASE} ${VARIANTS[variant]} ${extra}`;
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  /** Shows a spinner and disables the button. */
  loading?: boolean;
  children: ReactNode;
}

export function Button({
  variant = 'primary',
  loading = false,
  className = '',
  disabled,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass(variant, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <Spinner size="sm" />}
      {children}
    </button>
  );
}

/**
 * A button that starts a request of its own (a download, a file opened in a new tab): it shows the
 * spinner until the request settles. `run` handles its own failure (a toast).
 */
export function RequestButton({ run, ...rest }: Omit<ButtonProps, 'loading' | 'onClick'> & { run: () => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      {...rest}
      loading={busy}
      onClick={() => {
        setBusy(true);
        void run().finally(() => setBusy(false));
      }}
    />
  );
}

/** A form's submit button that says what it is doing while the request runs ("Saving..."). */
export function SubmitButton({ busy, busyLabel, ...rest }: Omit<ButtonProps, 'type' | 'loading'> & { busy: boolean; busyLabel: string }) {
  return (
    <Button {...rest} type="submit" loading={busy}>
      {busy ? busyLabel : rest.children}
    </Button>
  );
}

export function ButtonLink({ variant = 'primary', className = '', ...rest }: LinkProps & { variant?: Variant }) {
  return <Link className={buttonClass(variant, className)} {...rest} />;
}
