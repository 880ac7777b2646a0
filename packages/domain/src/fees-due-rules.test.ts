import { describe, expect, it } from 'vitest';
import { allocateCollected, currentTermOf, fallsDueOn, inTerms, isDue, owedAsOf, termStartsOf } from './fees-due';

describe('fees falling due: literal days and kobo', () => {
  it('term starts: the calendar’s, else the announced one; an empty start is no start', () => {
    expect(termStartsOf({ '2nd': '2026-01-12' }, { '1st': '2025-09-08', '2nd': '2026-01-05', '3rd': '' })).toEqual({
      '1st': '2025-09-08',
      '2nd': '2026-01-12',
    });
    expect(termStartsOf({}, {})).toEqual({});
  });

  it('the day an item falls due is a day, not a time', () => {
    expect(fallsDueOn({ term: '1st', due_on: null, set_on: '2025-08-20T23:30:00.000Z' }, {})).toBe('2025-08-20');
    expect(fallsDueOn({ term: '1st', due_on: null, set_on: '2025-08-20' }, { '1st': '2025-09-08' })).toBe('2025-09-08');
  });

  it('terms up to `through`, the term itself included; due on the day itself', () => {
    expect(inTerms('2nd', '2nd')).toBe(true);
    expect(inTerms('3rd', '2nd')).toBe(false);
    expect(inTerms('1st', '2nd')).toBe(true);
    expect(inTerms('3rd', null)).toBe(true);
    expect(isDue({ term: '1st', falls_due_on: '2025-09-15' }, '2025-09-15')).toBe(true);
    expect(isDue({ term: '1st', falls_due_on: '2025-09-16' }, '2025-09-15')).toBe(false);
    expect(isDue({ term: '2nd', falls_due_on: '2025-09-01' }, '2025-09-15', '1st')).toBe(false);
    expect(isDue({ term: '2nd', falls_due_on: '2025-09-01' }, '2025-09-15')).toBe(true);
  });

  it('money settles the 1st term first whatever the item order, each item at most its amount', () => {
    const items = [
      { term: '2nd' as const, kobo: 5000 },
      { term: '1st' as const, kobo: 3000 },
      { term: '1st' as const, kobo: 2000.9 },
      { term: '3rd' as const, kobo: -100 },
    ];
    expect(allocateCollected(items, 6000)).toEqual({ collected: [1000, 3000, 2000, 0], credit: 0 });
    expect(allocateCollected(items, 12_000.5)).toEqual({ collected: [5000, 3000, 2000, 0], credit: 2000 });
    expect(allocateCollected(items, 3000)).toEqual({ collected: [0, 3000, 0, 0], credit: 0 });
    expect(allocateCollected(items, -50)).toEqual({ collected: [0, 0, 0, 0], credit: 0 });
    expect(allocateCollected([], 700)).toEqual({ collected: [], credit: 700 });
  });

  it('owed since the oldest unpaid item’s day, among the terms counted; upcoming only of those terms', () => {
    const items = [
      { term: '1st' as const, kobo: 4000, falls_due_on: '2025-09-15' },
      { term: '1st' as const, kobo: 1000, falls_due_on: '2025-10-01' },
      { term: '2nd' as const, kobo: 6000, falls_due_on: '2025-09-01' },
      { term: '3rd' as const, kobo: 9000, falls_due_on: '2026-04-20' },
      { term: '3rd' as const, kobo: -300, falls_due_on: '2026-04-21' },
    ];
    expect(owedAsOf(items, 4500, '2025-11-01')).toEqual({
      owed: { due: 11_000, paid: 4500, balance: 6500, credit: 0, status: 'part_paid' },
      upcoming: 9000,
      owedSince: '2025-09-01',
    });
    expect(owedAsOf(items, 5000, '2025-11-01', '1st')).toEqual({
      owed: { due: 5000, paid: 5000, balance: 0, credit: 0, status: 'paid' },
      upcoming: 0,
      owedSince: null,
    });
    expect(owedAsOf(items, 3000, '2025-09-20', '2nd')).toEqual({
      owed: { due: 10_000, paid: 3000, balance: 7000, credit: 0, status: 'part_paid' },
      upcoming: 1000,
      owedSince: '2025-09-01',
    });
    // Paid the 1st term's first item only: owed since the 2nd item's day, though a later term fell due earlier.
    expect(owedAsOf(items.slice(0, 2), 4000, '2025-11-01').owedSince).toBe('2025-10-01');
  });

  it('the term a screen opens on', () => {
    const starts = { '1st': '2025-09-08', '2nd': '2026-01-12', '3rd': '2026-04-20' };
    expect(currentTermOf(starts, '2026-01-12')).toBe('2nd');
    expect(currentTermOf(starts, '2026-01-11')).toBe('1st');
    expect(currentTermOf(starts, '2026-07-01')).toBe('3rd');
    expect(currentTermOf(starts, '2025-08-01')).toBe('1st');
    expect(currentTermOf({ '2nd': '2026-01-12' }, '2025-10-01')).toBe('1st');
    expect(currentTermOf({}, '2025-10-01')).toBeNull();
  });
});
