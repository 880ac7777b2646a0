import { describe, expect, it } from 'vitest';
import { FEE_MESSAGES, feeItemsBulkSchema } from '@portal/domain/fees';
import {
  addLine,
  clearLines,
  duplicateNames,
  feeItemsBody,
  feeItemsFieldOf,
  lineField,
  linesOf,
  newFeeItemsForm,
  removeLine,
  type FeeItemsForm,
} from './fee-items-form';

const CURRENT = ['JSS1A', 'JSS2A', 'SSS1A'];
const at = { sessionId: 3, term: '1st', current: CURRENT };
const typed = (f: FeeItemsForm, key: number, part: Parameters<typeof lineField>[0], value: string): FeeItemsForm => ({
  ...f,
  [lineField(part, key)]: value,
});

describe('the Set fee items form', () => {
  it('starts on every JSS class with one line, and adds and removes lines keeping what each holds', () => {
    const f = newFeeItemsForm('Tuition');
    const [first] = linesOf(f);
    expect(linesOf(f)).toEqual([{ key: first!.key, name: 'Tuition', amount: '', compulsory: true, dueOn: '' }]);
    const two = addLine(typed(f, first!.key, 'amount', '5000'));
    const second = linesOf(two)[1]!;
    expect(linesOf(two).map((l) => [l.name, l.amount])).toEqual([
      ['Tuition', '5000'],
      ['', ''],
    ]);
    const left = removeLine(typed(two, second.key, 'name', 'Books'), first!.key);
    expect(linesOf(left)).toEqual([{ ...second, name: 'Books' }]);
    expect(Object.keys(left)).not.toContain(lineField('amount', first!.key));
    expect(linesOf(clearLines(left)).map((l) => l.name)).toEqual(['']);
    expect(clearLines(left).group).toBe('jss');
  });

  it('sends the group’s current classes, trimmed names, the optional flag and a due date only when given', () => {
    let f = newFeeItemsForm(' PTA levy ');
    const key = linesOf(f)[0]!.key;
    f = typed(typed(f, key, 'amount', '5000'), key, 'optional', 'yes');
    expect(feeItemsBody(f, at)).toEqual({
      session_id: 3,
      term: '1st',
      classes: ['JSS1A', 'JSS2A'],
      items: [{ name: 'PTA levy', amount: '5000', compulsory: false }],
    });
    expect(feeItemsBody({ ...typed(f, key, 'dueOn', '2026-02-01'), group: 'chosen', chosen: 'SSS1A' }, at)).toMatchObject({
      classes: ['SSS1A'],
      items: [{ due_on: '2026-02-01' }],
    });
  });

  it('puts the schema’s messages under the line they are about, with the same words as before', () => {
    let f = addLine({ ...newFeeItemsForm(''), group: 'chosen' });
    const [a, b] = linesOf(f).map((l) => l.key);
    f = typed(typed(f, b!, 'name', 'Books'), b!, 'amount', '12500');
    const parsed = feeItemsBulkSchema.safeParse(feeItemsBody(f, at));
    expect(parsed.success).toBe(false);
    const fields = Object.fromEntries(parsed.error!.issues.map((i) => [feeItemsFieldOf(i.path.join('.'), f), i.message]));
    expect(fields).toEqual({
      classes: FEE_MESSAGES.classesRequired,
      [lineField('name', a!)]: FEE_MESSAGES.nameRequired,
      [lineField('amount', a!)]: expect.any(String),
    });
  });

  it('says a name listed twice under the later line, whatever else is wrong', () => {
    let f = addLine(newFeeItemsForm('PTA levy'));
    const [, b] = linesOf(f).map((l) => l.key);
    f = typed(f, b!, 'name', ' pta  Levy');
    expect(duplicateNames(f)).toEqual({ [lineField('name', b!)]: [FEE_MESSAGES.duplicateInList] });
    expect(duplicateNames(newFeeItemsForm('PTA levy'))).toEqual({});
  });
});
