import type { AuthRepository } from './auth.repository';

/** How many failures a counter allows in its window, and how long its block lasts (seconds). */
export interface AttemptLimits {
  max: number;
  windowSeconds: number;
  blockSeconds: number;
}

/**
 * The sign-in throttle's mechanism for other guessable secrets (the result-checker PIN check,
 * decision record 043): counters are `login_throttle` rows shared by every instance, an attempt is
 * reserved in one conditional upsert BEFORE the secret is checked (parallel guesses cannot all read
 * "below the limit"), a failure blocks the counter once it holds `max`, and an attempt that was not
 * a failure is given back. Keys carry the caller's own prefix, so they never meet sign-in's.
 */
export class AttemptThrottle {
  constructor(
    private readonly repo: AuthRepository,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reserves one attempt on each key, in order; on a refusal gives back those already reserved and answers false. */
  async reserveAll(counters: readonly { key: string; limits: AttemptLimits }[]): Promise<boolean> {
    const at = new Date(this.now());
    const reserved: string[] = [];
    for (const c of counters) {
      if (!(await this.repo.reserveAttempt(c.key, at, c.limits))) {
        for (const key of reserved) await this.repo.releaseAttempt(key);
        return false;
      }
      reserved.push(c.key);
    }
    return true;
  }

  /** The reserved attempts were not failures (a right answer, or refused for another reason): given back. */
  async releaseAll(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.repo.releaseAttempt(key);
  }

  /** The reserved attempts were failures: each counter that now holds its `max` is blocked. */
  async failAll(counters: readonly { key: string; limits: AttemptLimits }[]): Promise<void> {
    const at = new Date(this.now());
    for (const c of counters) await this.repo.blockIfExhausted(c.key, at, c.limits.max, c.limits.blockSeconds);
  }
}
