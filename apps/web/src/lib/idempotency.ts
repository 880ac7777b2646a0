import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';

/**
 * A fresh Idempotency-Key. crypto.randomUUID needs a secure context; a school portal
 * on a plain-http LAN address has only getRandomValues, which is enough.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One key per submission of a form: sending the same thing again (a double tap, a retry after a
 * time-out or a lost answer, even after trying something else in between) reuses its key, so the
 * server records it once; anything else (an edited form, a confirmation) gets a new key. `reset`
 * after a success: the next submission is a new one.
 */
export class SubmissionKeys {
  private keys = new Map<string, string>();

  keyFor(path: string, body: unknown): string {
    const what = JSON.stringify([path, body ?? null]);
    let key = this.keys.get(what);
    if (!key) this.keys.set(what, (key = newIdempotencyKey()));
    return key;
  }

  reset(): void {
    this.keys.clear();
  }
}

/** The form's submission keys, kept for the life of the component (the form being open). */
export function useSubmissionKeys(): SubmissionKeys {
  return useState(() => new SubmissionKeys())[0];
}

/**
 * A money form's mutation: each submission is sent with its key (the same body, the same key), the
 * keys are forgotten after a success, then `after` (the invalidation) runs.
 */
export function useKeyedMutation<I, O>(send: (body: I, idempotencyKey: string) => Promise<O>, after: () => Promise<unknown>) {
  const keys = useSubmissionKeys();
  return useMutation({
    mutationFn: (body: I) => send(body, keys.keyFor('submission', body)),
    onSuccess: () => {
      keys.reset();
      return after();
    },
  });
}
