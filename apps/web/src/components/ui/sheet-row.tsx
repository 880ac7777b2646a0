import type { RowStatus } from '../../lib/autosave/row-outbox';

/**
 * The parts of a class sheet's row (a student per row, saved as it is left: the score sheet, the
 * ratings and comments sheets) that the sheets share, so a row looks and reads the same on each.
 */

/** The row's header cell: the student's name, their admission number under it. */
export function StudentRowHeader({ name, admission, className }: { name: string; admission: string; className: string }) {
  return (
    <th scope="row" className={className}>
      <span className="block">{name}</span>
      <span className="block text-xs font-normal text-slate-600">{admission}</span>
    </th>
  );
}

/** The words a sheet says for each save state (its own: "Unsaved", "Not saved yet"). */
export type SaveStateWords = Record<Exclude<RowStatus, 'idle'>, string>;

const LOOK: Record<Exclude<RowStatus, 'idle'>, { icon: string; tone: string }> = {
  unsaved: { icon: '●', tone: 'text-amber-800' },
  saving: { icon: '↻', tone: 'text-slate-700' },
  saved: { icon: '✓', tone: 'text-brand-800' },
  failed: { icon: '⚠', tone: 'text-red-700' },
  conflict: { icon: '⚠', tone: 'text-red-700' },
};

/** A row's save state as icon, words and colour (never colour alone); nothing while idle. */
export function saveStateLook(status: RowStatus, words: SaveStateWords): { icon: string; text: string; tone: string } | null {
  return status === 'idle' ? null : { ...LOOK[status], text: words[status] };
}
