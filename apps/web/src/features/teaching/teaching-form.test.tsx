// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { armCreateSchema, streamSchema } from '@portal/domain/teaching';
import { useTeachingForm } from './teaching-form';

type NewArm = { level: string; arm: string };
const body = (v: NewArm) => ({ level: v.level, arm: v.arm.trim() });
const useArmForm = () =>
  useTeachingForm<NewArm>({ at: 'arm', defaultValues: { level: 'JSS 1', arm: '' }, schema: armCreateSchema, toBody: body });

describe('useTeachingForm: a classes and subjects form with one message', () => {
  it('refuses what the schema refuses with its first message, the one the server would give, at the one place', async () => {
    const { result } = renderHook(useArmForm);
    const onValid = vi.fn();
    await act(() => result.current.submit(onValid)());
    expect(onValid).not.toHaveBeenCalled();
    const first = armCreateSchema.safeParse({ level: 'JSS 1', arm: '' }).error!.issues[0]?.message;
    expect(result.current.message).toBe(first);
    expect(Object.keys(result.current.errors).filter((k) => result.current.errors[k])).toEqual(['arm']);
  });

  it('keys every issue at the one place, a field the form does not show too', async () => {
    const { result } = renderHook(() =>
      useTeachingForm({
        at: 'form',
        defaultValues: { name: ' ' },
        schema: streamSchema,
        toBody: (v) => ({ name: v.name.trim(), subject_ids: [0] }),
      }),
    );
    await act(() => result.current.submit(vi.fn())());
    expect(result.current.message).toBe(streamSchema.safeParse({ name: '', subject_ids: [0] }).error!.issues[0]?.message);
    expect(Object.keys(result.current.errors)).toEqual(['form']);
  });

  it('sends what passes: onValid gets the typed values', async () => {
    const { result } = renderHook(useArmForm);
    act(() => result.current.type('arm', ' Gold '));
    const onValid = vi.fn();
    await act(() => result.current.submit(onValid)());
    expect(onValid).toHaveBeenCalledWith({ level: 'JSS 1', arm: ' Gold ' }, { level: 'JSS 1', arm: 'Gold' });
    expect(result.current.message).toBeUndefined();
  });

  it('shows a refused save in the words given, and typing clears it; choosing in a select does not', () => {
    const { result } = renderHook(useArmForm);
    act(() => result.current.refuse('JSS 1 Gold already exists.'));
    expect(result.current.message).toBe('JSS 1 Gold already exists.');
    act(() => result.current.set('level', 'JSS 2'));
    expect(result.current.message).toBe('JSS 1 Gold already exists.');
    act(() => result.current.type('arm', 'G'));
    expect(result.current.message).toBeUndefined();
    expect(result.current.values).toEqual({ level: 'JSS 2', arm: 'G' });
  });
});
