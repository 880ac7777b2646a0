import { useId, useRef, type ReactNode } from 'react';
import { Button } from './button';
import { useRevealOnOpen } from './use-reveal';

/**
 * The frame of an inline question (an `alertdialog`): it opens in view and takes the focus (a
 * phone's tap far down the page would otherwise open it below the screen's edge). ConfirmPanel is
 * the usual one; a question that asks for more than yes or no (a reason) puts its own inside.
 */
export function RevealedPanel({
  label,
  describedBy,
  className = 'mt-3',
  children,
}: {
  /** What the screen reader announces the panel as. */
  label: string;
  /** The id of the question's text, when the panel has one. */
  describedBy?: string;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useRevealOnOpen(ref);
  return (
    <div
      ref={ref}
      role="alertdialog"
      aria-label={label}
      aria-describedby={describedBy}
      tabIndex={-1}
      className={`${className} scroll-my-3 rounded-lg border border-amber-500 bg-amber-50 p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-600`}
    >
      {children}
    </div>
  );
}

/**
 * An inline question before a change that touches stored data (results, a whole arm's comments):
 * confirm it or cancel. It opens in view and takes the focus (a phone's tap far down the page
 * would otherwise open it below the screen's edge).
 */
export function ConfirmPanel({
  label,
  children,
  confirm,
  cancel = 'Cancel',
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
  /** The cancel button's words. */
  cancel?: string;
  danger?: boolean;
  loading: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  className?: string;
}) {
  const textId = useId();
  return (
    <RevealedPanel label={label} describedBy={textId} className={className}>
      <div id={textId} className="text-sm text-amber-950">
        {children}
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant={danger ? 'danger' : 'primary'} loading={loading} onClick={onConfirm}>
          {confirm}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {cancel}
        </Button>
      </div>
    </RevealedPanel>
  );
}
