import { useEffect, type RefObject } from 'react';

/**
 * A question that opens on a tap (a confirmation, a reason to give) is brought into view and
 * focused when it appears: on a phone it would otherwise open below the screen's bottom edge and
 * the tap would seem to do nothing, and a screen reader would not hear it. `focus` names what takes
 * the focus (a reason field); by default the panel itself (give it tabIndex -1).
 */
export function useRevealOnOpen(panel: RefObject<HTMLElement | null>, focus?: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = panel.current;
    if (!el) return;
    el.scrollIntoView?.({ block: 'nearest' });
    (focus?.current ?? el).focus({ preventScroll: true });
    // Once, when it opens: a re-render must not pull the focus back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
