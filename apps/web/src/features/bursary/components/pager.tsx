import { BURSARY_SCREEN_LABELS as L } from '@portal/domain/bursary-screens';
import { Button } from '../../../components/ui/button';

/**
 * Previous / "Page n of m" / Next under a paged list (the ledger, the debtors, the transfer queue);
 * shown only when there is more than one page. `onPage` gets the page asked for, as the address keeps it.
 */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: string) => void }) {
  if (pages <= 1) return null;
  return (
    <nav className="mt-3 flex flex-wrap items-center gap-3 text-sm" aria-label={L.pageOf(page, pages)}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(String(page - 1))}>
        {L.previous}
      </Button>
      <span>{L.pageOf(page, pages)}</span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(String(page + 1))}>
        {L.next}
      </Button>
    </nav>
  );
}
