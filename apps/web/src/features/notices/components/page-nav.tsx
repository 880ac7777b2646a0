import { NOTICE_SCREEN_LABELS as L } from '@portal/domain/notice-screens';
import { Button } from '../../../components/ui/button';
import { NOTICE_PAGE_SIZE } from '../contract';

/** How many pages a list of `count` rows takes (at least one). */
export function pagesOf(count: number): number {
  return Math.max(1, Math.ceil(count / NOTICE_PAGE_SIZE));
}

/** Previous / "Page n of m" / Next under a paged notices list; nothing when all fits on one page. */
export function PageNav({
  page,
  hasNext,
  pages,
  onPage,
}: {
  page: number;
  hasNext: boolean;
  pages: number;
  onPage: (page: number) => void;
}) {
  if (page <= 1 && !hasNext) return null;
  return (
    <nav className="mt-4 flex flex-wrap items-center gap-3 text-sm" aria-label={L.pageOf(page, pages)}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {L.previous}
      </Button>
      <span>{L.pageOf(page, Math.max(page, pages))}</span>
      <Button variant="secondary" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        {L.next}
      </Button>
    </nav>
  );
}
