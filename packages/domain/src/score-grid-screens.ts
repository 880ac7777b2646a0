import { ABSENT_MARK } from './assessment';

/**
 * Words of the class score grid beside ASSESSMENT_MESSAGES (assessment.ts, shared with the server):
 * the absent button a phone's number pad needs, pasted blocks, and totals still missing a component.
 */
const list = (labels: readonly string[]) =>
  labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;

export const GRID_SCREEN_MESSAGES = {
  /** The button that marks the chosen cell absent (a number pad has no letters). */
  absentButton: ABSENT_MARK,
  absentLabel: (cell: string) => `Mark ${cell} absent (${ABSENT_MARK})`,
  absentNoCell: `Tap a score, then ${ABSENT_MARK} to mark the student absent from it.`,
  /** "CA1 for Ebere Balogun": the cell the absent button acts on. */
  cellOf: (label: string, name: string) => `${label} for ${name}`,
  pasted: (rows: number, labels: readonly string[]) => `Pasted ${rows} ${rows === 1 ? 'row' : 'rows'} into ${list(labels)}.`,
  /** A phone shows one component: say which pasted ones are out of sight. */
  pastedHidden: (labels: readonly string[]) =>
    `${list(labels)} ${labels.length === 1 ? 'is' : 'are'} filled too: choose ${labels.length === 1 ? 'it' : 'them'} under Component to see ${labels.length === 1 ? 'it' : 'them'}.`,
  incomplete: 'incomplete',
  incompleteNote: `A total marked … still misses a component: its grade and position come once every component is in (${ABSENT_MARK} counts as in).`,
} as const;
