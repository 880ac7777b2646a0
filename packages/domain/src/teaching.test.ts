import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  armName,
  assignmentsSchema,
  CLASS_LEVELS,
  classLevelOf,
  ENTRY_CLOSED_CODE,
  NOT_YOUR_SUBJECT_CODE,
  scoreWriteRefusal,
  SESSION_CLOSED_CODE,
  studentSubjectIds,
  TEACHING_MESSAGES,
  type SubjectPlan,
  type WriteAccess,
} from './teaching';

const ids = fc.uniqueArray(fc.integer({ min: 1, max: 30 }), { maxLength: 12 });
const level = fc.constantFrom(...CLASS_LEVELS);

/** A random catalogue (some retired), offerings per level and streams. */
const plan: fc.Arbitrary<SubjectPlan> = fc
  .record({
    catalogue: fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 30 }), retired: fc.boolean() }), {
      selector: (s) => s.id,
      maxLength: 30,
    }),
    offerings: fc.dictionary(level, fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.boolean()), { maxLength: 15 })),
    streams: fc.array(ids, { maxLength: 3 }),
  })
  .map(({ catalogue, offerings, streams }) => ({
    names: new Map(catalogue.filter((s) => !s.retired).map((s) => [s.id, `S${s.id}`])),
    order: new Map(catalogue.map((s, i) => [s.id, i])),
    offerings: new Map(Object.entries(offerings).map(([l, list]) => [l, new Map(list)])),
    streams: new Map(streams.map((list, i) => [i + 1, new Set(list)])),
  }));
const student = fc.record({
  class_level: fc.option(level, { nil: null }),
  stream_id: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  add: ids,
  drop: ids,
});

describe('a student subject list (compulsory + stream + add - drop)', () => {
  it('drop always wins, retired subjects fall out, the order is catalogue order, no duplicates', () => {
    fc.assert(
      fc.property(plan, student, (p, s) => {
        const out = studentSubjectIds(p, s);
        for (const id of s.drop) expect(out).not.toContain(id);
        for (const id of out) expect(p.names.has(id)).toBe(true);
        expect(new Set(out).size).toBe(out.length);
        const positions = out.map((id) => p.order.get(id)!);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
      }),
    );
  });

  it('holds every current compulsory subject of the level and every current added one not dropped; a stream counts only for SSS', () => {
    fc.assert(
      fc.property(plan, student, (p, s) => {
        const out = new Set(studentSubjectIds(p, s));
        const keep = (id: number) => p.names.has(id) && !s.drop.includes(id);
        const offered = s.class_level ? p.offerings.get(s.class_level) : undefined;
        for (const [id, compulsory] of offered ?? []) if (compulsory && keep(id)) expect(out.has(id)).toBe(true);
        for (const id of s.add) if (keep(id)) expect(out.has(id)).toBe(true);
        const stream = s.stream_id === null ? [] : [...(p.streams.get(s.stream_id) ?? [])];
        const fromElsewhere = (id: number) => s.add.includes(id) || offered?.get(id) === true;
        for (const id of stream) {
          if (!keep(id) || fromElsewhere(id)) continue;
          expect(out.has(id)).toBe(Boolean(s.class_level?.startsWith('SSS')));
        }
        // Nothing comes from nowhere: an elective the student did not add is not taken.
        for (const id of out) expect(fromElsewhere(id) || stream.includes(id)).toBe(true);
      }),
    );
  });
});

const className = fc.tuple(level, fc.constantFrom('A', 'B', 'C', 'Gold')).map(([l, a]) => armName(l, a));
const subject = fc.constantFrom('Mathematics', 'French', 'Physics');
const access: fc.Arbitrary<WriteAccess> = fc.record({
  current: fc.constant(true),
  enforced: fc.boolean(),
  pairs: fc.array(fc.tuple(className, subject), { maxLength: 6 }).map((l) => new Set(l.map(([c, s]) => `${c}|${s}`))),
  windows: fc.dictionary(fc.constantFrom('', ...CLASS_LEVELS), fc.boolean()).map((d) => new Map(Object.entries(d))),
});
const target = fc.record({ student_class: className, subject, termLabel: fc.constant('First Term') });

describe('who may write a score', () => {
  it('the admin is never refused', () => {
    fc.assert(
      fc.property(access, target, (a, t) => {
        expect(scoreWriteRefusal('admin', a, t)).toBeNull();
      }),
    );
  });

  it('staff: a closed window refuses whatever the assignments (a level row wins over the all-levels row)', () => {
    fc.assert(
      fc.property(access, target, (a, t) => {
        const lvl = classLevelOf(t.student_class)!;
        const open = a.windows.get(lvl) ?? a.windows.get('') ?? true;
        const r = scoreWriteRefusal('staff', a, t);
        if (!open) expect(r?.code).toBe(ENTRY_CLOSED_CODE);
        else if (a.enforced && !a.pairs.has(`${t.student_class}|${t.subject}`)) expect(r?.code).toBe(NOT_YOUR_SUBJECT_CODE);
        else expect(r).toBeNull();
      }),
    );
  });

  it('staff: a session that is not the current one refuses everything, whatever the windows and assignments (30.8)', () => {
    fc.assert(
      fc.property(access, target, (a, t) => {
        const mine = { ...a, current: false, windows: new Map<string, boolean>(), pairs: new Set([`${t.student_class}|${t.subject}`]) };
        expect(scoreWriteRefusal('staff', mine, t)?.code).toBe(SESSION_CLOSED_CODE);
        expect(scoreWriteRefusal('staff', { ...a, current: false, enforced: false }, t)?.code).toBe(SESSION_CLOSED_CODE);
        expect(scoreWriteRefusal('admin', { ...a, current: false }, t)).toBeNull();
      }),
    );
  });

  it('staff: with entry open and enforcement off, every score is writable; enforced, only their own pairs', () => {
    fc.assert(
      fc.property(access, target, (a, t) => {
        const openAll = { ...a, windows: new Map<string, boolean>() };
        expect(scoreWriteRefusal('staff', { ...openAll, enforced: false }, t)).toBeNull();
        const mine = { ...openAll, enforced: true, pairs: new Set([...a.pairs, `${t.student_class}|${t.subject}`]) };
        expect(scoreWriteRefusal('staff', mine, t)).toBeNull();
        const notMine = { ...openAll, enforced: true, pairs: new Set([...a.pairs].filter((k) => k !== `${t.student_class}|${t.subject}`)) };
        expect(scoreWriteRefusal('staff', notMine, t)?.code).toBe(NOT_YOUR_SUBJECT_CODE);
      }),
    );
  });
});

describe('request size limits', () => {
  it('names the limit in words a person reads, not a library message', () => {
    const cell = { arm_id: 1, subject_id: 1, staff_ids: [1] };
    const cells = assignmentsSchema.safeParse({ session_id: 1, cells: Array.from({ length: 5001 }, () => cell) });
    expect(cells.error?.issues[0]?.message).toBe(TEACHING_MESSAGES.tooMany(5000, 'cells'));
    expect(TEACHING_MESSAGES.tooMany(5000, 'cells')).toBe('At most 5,000 cells in one request.');
    const teachers = assignmentsSchema.safeParse({
      session_id: 1,
      cells: [{ ...cell, staff_ids: Array.from({ length: 11 }, (_, i) => i + 1) }],
    });
    expect(teachers.error?.issues[0]?.message).toBe(TEACHING_MESSAGES.tooMany(10, 'teachers per subject'));
  });
});
