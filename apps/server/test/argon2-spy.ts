import * as argon2 from '@node-rs/argon2';
import { vi } from 'vitest';

/**
 * Real argon2 verifications, counted: a test file that imports this module before the app gets
 * `@node-rs/argon2` with `verify` wrapped in a spy (the real function still runs), to prove by
 * structure rather than by timing how many password guesses were actually checked.
 */
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof argon2>();
  return { ...real, verify: vi.fn(real.verify) };
});

export const verifySpy = vi.mocked(argon2.verify);
