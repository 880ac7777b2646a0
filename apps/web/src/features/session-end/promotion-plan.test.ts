import { describe, expect, it } from 'vitest';
import type { PreviewStudent, PromotionPreview } from './api';
import {
  armsFor,
  decisionsFor,
  choosesStream,
  countsOf,
  effectiveOf,
  initialPlan,
  mappingRecord,
  runBody,
  splitArm,
  totalsOf,
} from './promotion-plan';

const student = (id: number, arm: string, over: Partial<PreviewStudent> = {}): PreviewStudent => ({
  student_id: id,
  admission_number: `STU-${id}`,
  full_name: `Pupil ${id}`,
  arm,
  annual_average: 60,
  decision: 'promoted',
  source: 'rule',
  target_arm: arm.replace('JSS 1', 'JSS 2').replace('JSS 3', 'SSS 1'),
  stream_id: null,
  ...over,
});

const preview: PromotionPreview = {
  from_session: { id: 1, name: '2025/2026' },
  to_session: { id: 2, name: '2026/2027' },
  mapping: [
    { from_arm: 'JSS 1A', to_arm: 'JSS 2A' },
    { from_arm: 'JSS 1B', to_arm: 'JSS 2B' },
    { from_arm: 'JSS 3A', to_arm: 'SSS 1A' },
    { from_arm: 'SSS 3A', to_arm: null },
  ],
  students: [
    student(1, 'JSS 1A'),
    student(2, 'JSS 1A', { decision: 'repeat', target_arm: 'JSS 1A' }),
    student(3, 'JSS 1A'),
    student(4, 'JSS 1A', { decision: 'trial' }),
    student(5, 'JSS 1B'),
    student(6, 'JSS 3A', { stream_id: 7 }),
    student(7, 'SSS 3A', { decision: 'graduated', target_arm: null }),
  ],
  counts: [],
  totals: { promoted: 4, trial: 1, repeat: 1, graduated: 1, left_out_withdrawn: 2 },
};
const original = mappingRecord(preview.mapping);
const Q = { from_session_id: 1, to_session_id: 2 };

describe('the promotion plan: the admin’s changes to a preview', () => {
  it('unchanged: each student as the preview says, and the run body carries only the sessions', () => {
    const plan = initialPlan(preview);
    expect(preview.students.map((s) => effectiveOf(s, plan, original).target_arm)).toEqual(preview.students.map((s) => s.target_arm));
    expect(runBody(preview, Q, plan)).toEqual(Q);
    expect(totalsOf(preview.students, plan, original)).toEqual({ promoted: 4, trial: 1, repeat: 1, graduated: 1 });
  });

  it('merging JSS 1B into JSS 2A moves its promoted students there, repeaters stay, and the body sends the mapping', () => {
    const plan = { ...initialPlan(preview), mapping: { ...original, 'JSS 1B': 'JSS 2A' } };
    expect(effectiveOf(preview.students[4]!, plan, original).target_arm).toBe('JSS 2A');
    expect(countsOf(preview.students, plan, original)).toEqual([
      { target_arm: 'JSS 1A', count: 1 },
      { target_arm: 'JSS 2A', count: 4 },
      { target_arm: 'SSS 1A', count: 1 },
      { target_arm: null, count: 1 },
    ]);
    const body = runBody(preview, Q, plan);
    expect(body.mapping).toContainEqual({ from_arm: 'JSS 1B', to_arm: 'JSS 2A' });
    expect(body.students).toBeUndefined();
  });

  it('a changed decision follows its rule (repeat stays, graduate leaves), an edited target wins, and only changes are sent', () => {
    let plan = initialPlan(preview);
    plan = { ...plan, edits: { 1: { decision: 'repeat' }, 3: { target_arm: 'JSS 2B' }, 6: { stream_id: 9 } } };
    expect(effectiveOf(preview.students[0]!, plan, original)).toMatchObject({ decision: 'repeat', target_arm: 'JSS 1A', edited: true });
    expect(effectiveOf(preview.students[2]!, plan, original).target_arm).toBe('JSS 2B');
    expect(runBody(preview, Q, plan).students).toEqual([
      { student_id: 1, decision: 'repeat' },
      { student_id: 3, target_arm: 'JSS 2B' },
      { student_id: 6, stream_id: 9 },
    ]);
    expect(totalsOf(preview.students, plan, original)).toMatchObject({ promoted: 3, repeat: 2 });
  });

  it('splitting JSS 1A sends the second half of its moving students (not the repeater) to the second class', () => {
    const plan = splitArm(preview.students, initialPlan(preview), original, 'JSS 1A', 'JSS 2B');
    const targets = preview.students.slice(0, 4).map((s) => effectiveOf(s, plan, original).target_arm);
    expect(targets).toEqual(['JSS 2A', 'JSS 1A', 'JSS 2A', 'JSS 2B']);
  });

  it('a stream is chosen by JSS 3 students going to a senior class only', () => {
    expect(choosesStream(preview.students[5]!, 'SSS 1A')).toBe(true);
    expect(choosesStream(preview.students[5]!, 'JSS 3A')).toBe(false);
    expect(choosesStream(preview.students[0]!, 'JSS 2A')).toBe(false);
  });

  it('the classes and decisions open to a student follow the level: next for promoted, same for repeat, none for a graduate', () => {
    const arms = ['JSS 1A', 'JSS 2A', 'JSS 2B', 'SSS 1A', 'SSS 3A'];
    expect(armsFor('JSS 1A', 'promoted', arms)).toEqual(['JSS 2A', 'JSS 2B']);
    expect(armsFor('JSS 1A', 'repeat', arms)).toEqual(['JSS 1A']);
    expect(armsFor('SSS 3A', 'graduated', arms)).toEqual([]);
    expect(decisionsFor('SSS 3A')).toEqual(['graduated', 'repeat']);
    expect(decisionsFor('JSS 3A')).toEqual(['promoted', 'trial', 'repeat']);
  });
});
