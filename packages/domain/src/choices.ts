/**
 * A closed list of values that each carry a label (a status, a kind, a method) is written once, as
 * its table of labels `{ value: 'Label' }`: the values are the table's keys, in its order (what
 * `z.enum`, the API and the screens' option lists take), so a value cannot be added without its label.
 *
 *   export const CARD_STATUS_LABELS = { draft: 'Draft', submitted: 'Submitted', … };
 *   export type CardStatus = keyof typeof CARD_STATUS_LABELS;
 *   export const CARD_STATUSES = valuesOf(CARD_STATUS_LABELS);
 */
export function valuesOf<V extends string>(labels: Readonly<Record<V, string>>): readonly [V, ...V[]] {
  return Object.keys(labels) as [V, ...V[]];
}

/** The same table as a select's options, `{ value, label }`, in its order. */
export function optionsOf<V extends string>(labels: Readonly<Record<V, string>>): readonly { value: V; label: string }[] {
  return valuesOf(labels).map((value) => ({ value, label: labels[value] }));
}
