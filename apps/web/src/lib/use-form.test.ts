import { describe, expect, it, vi } from 'vitest';

/**
 * The people-form hook, in Node. No DOM library is installed, so React's hooks are replaced by a
 * minimal runtime with the same rules (state kept per call order, setters and callbacks stable,
 * effects run after a render when their dependencies change); the hook's own code is the real one.
 */
const runtime = vi.hoisted(() => {
  type Slot = { value?: unknown; set?: (next: unknown) => void; deps?: unknown[]; cleanup?: void | (() => void) };
  let slots: Slot[] = [];
  let index = 0;
  let dirty = false;
  let effects: (() => void)[] = [];
  const changed = (a: unknown[] | undefined, b: unknown[] | undefined) =>
    !a || !b || a.length !== b.length || a.some((x, k) => !Object.is(x, b[k]));
  const slot = () => (slots[index++] ??= {});
  return {
    reset() {
      slots = [];
      effects = [];
    },
    /** One render: hooks in call order, then the effects whose dependencies changed. */
    render<T>(fn: () => T): T {
      index = 0;
      dirty = false;
      const out = fn();
      const run = effects;
      effects = [];
      for (const e of run) e();
      return out;
    },
    get dirty() {
      return dirty;
    },
    react: {
      useState<T>(initial: T | (() => T)) {
        const s = slot();
        if (!s.set) {
          s.value = typeof initial === 'function' ? (initial as () => T)() : initial;
          s.set = (next: unknown) => {
            const value = typeof next === 'function' ? (next as (v: unknown) => unknown)(s.value) : next;
            if (!Object.is(value, s.value)) {
              s.value = value;
              dirty = true;
            }
          };
        }
        return [s.value as T, s.set];
      },
      useRef<T>(initial: T) {
        const s = slot();
        if (!s.set) {
          s.value = { current: initial };
          s.set = () => undefined;
        }
        return s.value as { current: T };
      },
      useCallback<F>(fn: F, deps: unknown[]) {
        const s = slot();
        if (changed(s.deps, deps)) {
          s.value = fn;
          s.deps = deps;
        }
        return s.value as F;
      },
      useEffect(fn: () => void | (() => void), deps?: unknown[]) {
        const s = slot();
        if (!changed(s.deps, deps) && s.deps) return;
        s.deps = deps;
        effects.push(() => {
          if (typeof s.cleanup === 'function') s.cleanup();
          s.cleanup = fn();
        });
      },
    },
  };
});

vi.mock('react', () => runtime.react);

const { useForm, compact } = await import('./use-form');

type Initial = { first_name: string; last_name: string; email: string };

/** Renders the hook, and after every `act` again until its state settles, as React would. */
function renderForm(initial: Initial) {
  runtime.reset();
  const view = { current: runtime.render(() => useForm(initial)) };
  return {
    view,
    act: (fn: (form: typeof view.current) => void) => {
      fn(view.current);
      for (let i = 0; runtime.dirty; i++) {
        if (i > 10) throw new Error('the hook keeps updating');
        view.current = runtime.render(() => useForm(initial));
      }
    },
  };
}

/** A form element whose first invalid field records being focused. */
function fakeForm(invalidField: string | null) {
  const focused: string[] = [];
  const form = {
    querySelector: (selector: string) => {
      expect(selector).toBe('[aria-invalid="true"]');
      return invalidField ? { focus: () => focused.push(invalidField) } : null;
    },
  };
  return { form: form as unknown as HTMLFormElement, focused };
}

describe('useForm', () => {
  const initial = { first_name: 'Ada', last_name: '', email: '' };

  it('gives each field its value, error and a change handler that updates the value', () => {
    const { view, act } = renderForm(initial);
    expect(view.current.field('first_name')).toMatchObject({ name: 'first_name', value: 'Ada', error: undefined });
    expect(view.current.field('unknown').value).toBe('');
    act((f) => f.field('last_name').onChange({ target: { value: 'Eze' } }));
    expect(view.current.values).toEqual({ first_name: 'Ada', last_name: 'Eze', email: '' });
    expect(view.current.field('last_name').value).toBe('Eze');
  });

  it('clears the error of a field when it is edited, and only that one', () => {
    const { view, act } = renderForm(initial);
    act((f) => f.fail({ last_name: ['Last name is required'], email: ['Enter a valid email address'] }));
    act((f) => f.set('last_name', 'E'));
    expect(view.current.errors).toEqual({ last_name: undefined, email: ['Enter a valid email address'] });
    expect(view.current.field('email').error).toEqual(['Enter a valid email address']);
    // Editing a field without an error leaves the errors as they are (no needless re-render).
    const before = view.current.errors;
    act((f) => f.set('first_name', 'Adaeze'));
    expect(view.current.errors).toBe(before);
  });

  it('moves the focus to the first invalid field on every failed submit, not before', () => {
    const { view, act } = renderForm(initial);
    const { form, focused } = fakeForm('email');
    view.current.formRef.current = form;
    act((f) => f.set('email', 'x'));
    expect(focused).toEqual([]);
    act((f) => f.fail({ email: ['Enter a valid email address'] }));
    expect(focused).toEqual(['email']);
    // The same errors again (a second failed submit): focused again.
    act((f) => f.fail({ email: ['Enter a valid email address'] }));
    expect(focused).toEqual(['email', 'email']);
  });

  it('survives a failed submit with no invalid field on the page', () => {
    const { view, act } = renderForm(initial);
    view.current.formRef.current = fakeForm(null).form;
    act((f) => f.fail({ non_field_errors: ['Something went wrong'] }));
    expect(view.current.errors).toEqual({ non_field_errors: ['Something went wrong'] });
  });

  it('keeps set and fail the same functions across renders (safe in effect dependencies)', () => {
    const { view, act } = renderForm(initial);
    const { set, fail } = view.current;
    act((f) => f.set('email', 'a@b.c'));
    act((f) => f.fail({ email: ['x'] }));
    expect(view.current.set).toBe(set);
    expect(view.current.fail).toBe(fail);
  });

  it('replaces all values at once with setValues (a record loaded for editing)', () => {
    const { view, act } = renderForm(initial);
    act((f) => f.setValues({ first_name: 'Bola', last_name: 'Ade', email: 'bola@school.ng' }));
    expect(view.current.field('email').value).toBe('bola@school.ng');
  });
});

describe('compact', () => {
  it('trims values and leaves blank ones out of the request', () => {
    expect(compact({ first_name: '  Ada ', middle_name: '   ', phone: '', email: 'a@b.c' })).toEqual({ first_name: 'Ada', email: 'a@b.c' });
  });
});
