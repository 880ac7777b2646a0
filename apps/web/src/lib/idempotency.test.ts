import { describe, expect, it } from 'vitest';
import { newIdempotencyKey, SubmissionKeys } from './idempotency';

describe('submission keys', () => {
  it('the same body reuses its key (double tap, retry), another body gets a new one, a success starts afresh', () => {
    const keys = new SubmissionKeys();
    const a = keys.keyFor('record', { amount: '5000' });
    expect(keys.keyFor('record', { amount: '5000' })).toBe(a);
    const confirmed = keys.keyFor('record', { amount: '5000', confirm: true });
    expect(confirmed).not.toBe(a);
    // Back to the first body (after trying the confirmation): still its key.
    expect(keys.keyFor('record', { amount: '5000' })).toBe(a);
    keys.reset();
    expect(keys.keyFor('record', { amount: '5000' })).not.toBe(a);
  });

  it('keys fit the server pattern, with or without crypto.randomUUID (plain-http LAN)', () => {
    expect(newIdempotencyKey()).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    const original = Object.getOwnPropertyDescriptor(globalThis.crypto, 'randomUUID');
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      if (original) Object.defineProperty(globalThis.crypto, 'randomUUID', original);
      else delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
    }
  });
});
