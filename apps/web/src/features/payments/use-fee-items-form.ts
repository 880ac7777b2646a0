import { useState } from 'react';
import { feeItemsBulkSchema } from '@portal/domain/fees';
import { useSchemaForm } from '../../lib/schema-form';
import {
  addLine,
  chosenOf,
  clearLines,
  duplicateNames,
  feeItemsBody,
  feeItemsFieldOf,
  linesOf,
  newFeeItemsForm,
  removeLine,
  type FeeItemsForm,
} from './fee-items-form';

/**
 * The "Set fee items" form on the schema form hook, checked by the domain's bulk schema for the session
 * and term chosen (`at`), with its lines and classes as the screen uses them. The form never moved the
 * focus to a message; adding or removing a line keeps the messages shown.
 */
export function useFeeItemsForm(at: { sessionId: number | null; term: string; current: readonly string[] }) {
  const [initial] = useState(() => newFeeItemsForm('Tuition'));
  const form = useSchemaForm<FeeItemsForm>({
    defaultValues: initial,
    schema: feeItemsBulkSchema,
    toBody: (f) => feeItemsBody(f, at),
    fieldOf: (path): string => feeItemsFieldOf(path, form.getValues()),
    check: duplicateNames,
    keepFocus: true,
  });
  const { values, set, getValues, setValues } = form;
  const edit = (next: (f: FeeItemsForm) => FeeItemsForm) => setValues(next(getValues()), { keepErrors: true });
  const chosen = chosenOf(values);
  return {
    form,
    lines: linesOf(values),
    chosen,
    choose: (cls: string, on: boolean) => set('chosen', (on ? [...chosen, cls] : chosen.filter((x) => x !== cls)).join('\n')),
    addLine: () => edit(addLine),
    removeLine: (key: number) => edit((f) => removeLine(f, key)),
    /** After a save: the classes stay, one blank line, no messages. */
    clearLines: () => setValues(clearLines(getValues())),
    body: (typed: FeeItemsForm) => feeItemsBody(typed, at),
  };
}
