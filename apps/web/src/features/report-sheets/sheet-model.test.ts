import { describe, expect, it } from 'vitest';
import {
  changedKeys,
  fillRatings,
  mergeReloaded,
  parseDays,
  parsePasted,
  parseRating,
  parseRatingRow,
  ratingCells,
  traitColumns,
} from './sheet-model';

const traits = {
  affective: [
    { id: 'punctuality', name: 'Punctuality' },
    { id: 'neatness', name: 'Neatness' },
  ],
  psychomotor: [{ id: 'music', name: 'Music' }],
};

describe('rating cells', () => {
  it('accepts 1 to 5 and empty, and refuses anything else', () => {
    expect(parseRating('')).toEqual({ value: null });
    expect(parseRating(' 3 ')).toEqual({ value: 3 });
    expect(parseRating('5')).toEqual({ value: 5 });
    for (const bad of ['0', '6', '2.5', 'a', '-1']) expect(parseRating(bad)).toHaveProperty('problem');
  });

  it('reads a row for the save: every trait, null when empty, problems kept apart', () => {
    const cols = traitColumns(traits);
    expect(cols.map((c) => c.id)).toEqual(['punctuality', 'neatness', 'music']);
    expect(parseRatingRow(cols, { punctuality: '4', neatness: '', music: '9' })).toEqual({
      ratings: { punctuality: 4, neatness: null },
      problems: { music: expect.any(String) },
    });
    expect(ratingCells(cols, { punctuality: 2, removed: 5 })).toEqual({ punctuality: '2', neatness: '', music: '' });
  });
});

describe('sheet helpers', () => {
  it('splits a spreadsheet block by tabs and a CSV line by commas', () => {
    expect(parsePasted('4\t5\r\n3\t2\n')).toEqual([
      ['4', '5'],
      ['3', '2'],
    ]);
    expect(parsePasted('1,2')).toEqual([['1', '2']]);
  });

  it('finds the changed cells, ignoring surrounding spaces', () => {
    expect(changedKeys({ cells: { a: ' x ', b: 'y' }, base: { a: 'x', b: '' } })).toEqual(['b']);
  });

  it('reads days as whole numbers up to 200', () => {
    expect(parseDays('')).toEqual({ value: null });
    expect(parseDays('60')).toEqual({ value: 60 });
    expect(parseDays('201')).toBeNull();
    expect(parseDays('1.5')).toBeNull();
  });
});

describe('a conflict settled by reloading', () => {
  it("keeps the teacher's changed cells over the stored row and takes the rest from it", () => {
    const loaded = { punctuality: '4', neatness: '', music: '2' };
    const typed = { value: { ...loaded, punctuality: '2' }, base: { cells: loaded, version: 3 } };
    expect(mergeReloaded(typed, { punctuality: '4', neatness: '3', music: '5' })).toEqual({ punctuality: '2', neatness: '3', music: '5' });
  });
});

describe('filling ratings in bulk', () => {
  const rows = {
    A: { punctuality: '', neatness: '2', music: '' },
    B: { punctuality: '4', neatness: '', music: ' ' },
  };

  it('fills the empty cells of the traits chosen and keeps cells rated otherwise', () => {
    expect(fillRatings(rows, ['punctuality', 'neatness', 'music'], '4', false)).toEqual({
      patches: { A: { punctuality: '4', music: '4' }, B: { neatness: '4', music: '4' } },
      filled: 4,
      kept: 1,
    });
    expect(fillRatings(rows, ['neatness'], '3', false)).toEqual({ patches: { B: { neatness: '3' } }, filled: 1, kept: 1 });
  });

  it('replaces the cells rated otherwise when asked to, leaving cells already at that rating alone', () => {
    expect(fillRatings(rows, ['punctuality', 'neatness'], '4', true)).toEqual({
      patches: { A: { punctuality: '4', neatness: '4' }, B: { neatness: '4' } },
      filled: 3,
      kept: 0,
    });
  });
});
