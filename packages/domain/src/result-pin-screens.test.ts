import { describe, expect, it } from 'vitest';
import { expandSerials, PIN_STATE_LABELS, PIN_STATES, CHECK_REFUSALS } from './result-pin-screens';
import { CHECK_RESULT_CODES, RESULT_PIN_FILTERS } from './result-pins';

describe('expandSerials (the bursar types the cards sold)', () => {
  it('reads a range, keeping the prefix and the width of the digits', () => {
    expect(expandSerials('A0001-A0003')).toEqual(['A0001', 'A0002', 'A0003']);
    expect(expandSerials('a0009 to a0011')).toEqual(['A0009', 'A0010', 'A0011']);
    expect(expandSerials('0098-0100')).toEqual(['0098', '0099', '0100']);
  });
  it('reads the pins module\'s serials ("0007-00042"): one, or a range of them', () => {
    expect(expandSerials('0007-00042')).toEqual(['0007-00042']);
    expect(expandSerials('0007-00009 to 0007-00011')).toEqual(['0007-00009', '0007-00010', '0007-00011']);
    expect(expandSerials('0007-00001 – 0007-00002')).toEqual(['0007-00001', '0007-00002']);
    expect(expandSerials('0007-00001 - 3')).toEqual(['0007-00001', '0007-00002', '0007-00003']);
    expect(expandSerials('0007-00001 to 0008-00003')).toBeNull();
  });
  it('reads single serials and ranges separated by commas, lines or semicolons, once each', () => {
    expect(expandSerials('B0007, B0001-B0002\nB0002; B0010')).toEqual(['B0007', 'B0001', 'B0002', 'B0010']);
  });
  it('refuses what it cannot read: a backwards range, two prefixes, a word, nothing', () => {
    expect(expandSerials('A0005-A0001')).toBeNull();
    expect(expandSerials('A0001-B0003')).toBeNull();
    expect(expandSerials('first ten')).toBeNull();
    expect(expandSerials(' , ')).toBeNull();
  });
  it('refuses more than the most a request may carry', () => {
    expect(expandSerials('1 to 6000')).toBeNull();
    expect(expandSerials('1 to 5000')).toHaveLength(5000);
  });
});

describe('the screens name every state and refusal of the pins module', () => {
  it('labels every list filter', () => {
    expect([...PIN_STATES]).toEqual([...RESULT_PIN_FILTERS]);
    for (const f of RESULT_PIN_FILTERS) expect(PIN_STATE_LABELS[f]).toBeTruthy();
  });
  it('has a title and words for every refusal code', () => {
    for (const code of Object.values(CHECK_RESULT_CODES)) expect(CHECK_REFUSALS[code]?.text).toBeTruthy();
  });
});
