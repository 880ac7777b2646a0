import type { ReactNode } from 'react';
import { Button } from './button';

/** An inline question before a change that touches stored data (results, a whole arm's comments): confirm it or cancel. */
export function ConfirmPanel({
  label,
  children,
  confirm,
  danger = false,
  loading,
  onConfirm,
  onCancel,
  className = 'mt-3',
}: {
  /** What the screen reader announces the panel as. */
  label: string;
  /** The question, what will happen. */
  children: ReactNode;
  /** The confirm button's words. */
  confirm: string;
  danger?: boolean;
  loading: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  className?: string;
}) {
  return (
    <div role="alertdialog" aria-label={label} className={`${className} rounded-lg border border-amber-500 bg-amber-50 p-3`}>
      <p className="text-sm text-amber-950">{children}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant={danger ? 'danger' : 'primary'} loading={loading} onClick={onConfirm}>
          {confirm}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
