import { GENERAL_MESSAGES } from '@portal/domain';
import { HttpError } from './http-error';

/**
 * At most `limit` tasks at once; the others wait in order, up to `maxWaitMs` each and at most
 * `maxQueue` of them, then are refused with 503 (PDF rendering, so students
 * fetching their report cards cannot starve the server; /api/health never waits here).
 */
export class ConcurrencyLimiter {
  /** Tasks running now, and the most that ever ran at once (tests read both). */
  active = 0;
  peak = 0;
  private readonly queue: { start: () => void; timer: NodeJS.Timeout }[] = [];

  constructor(
    readonly limit: number,
    readonly maxWaitMs: number,
    readonly maxQueue = 100,
  ) {}

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Waits for a place (503 when the queue is full or the wait too long); returns its release, safe to call twice. */
  async enterQueue(): Promise<() => void> {
    await this.acquire();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release();
    };
  }

  private acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.enter();
      return Promise.resolve();
    }
    if (this.queue.length >= this.maxQueue) return Promise.reject(busy());
    return new Promise<void>((resolve, reject) => {
      const entry = {
        start: () => {
          clearTimeout(entry.timer);
          this.enter();
          resolve();
        },
        timer: setTimeout(() => {
          const i = this.queue.indexOf(entry);
          if (i !== -1) this.queue.splice(i, 1);
          reject(busy());
        }, this.maxWaitMs),
      };
      this.queue.push(entry);
    });
  }

  private enter(): void {
    this.active++;
    this.peak = Math.max(this.peak, this.active);
  }

  private release(): void {
    this.active--;
    const next = this.queue.shift();
    if (next) next.start();
  }
}

const busy = () => new HttpError(503, { detail: GENERAL_MESSAGES.serviceUnavailable });

/**
 * Heavy reports (whole-school broadsheets, an arm's cards as PDF, the ledger and debtors, exports):
 * at most `perUser` at once for one user, the others refused at once with 429 and Retry-After, so
 * one person looping them from several tabs cannot fill the queue; then one bounded queue per
 * process (`queue`), so together they take a bounded share of the event loop and /api/health and
 * everyone's pages keep answering.
 */
export class HeavyReportLimiter {
  private readonly running = new Map<number, number>();

  constructor(
    readonly perUser: number,
    readonly queue: ConcurrencyLimiter,
    readonly retryAfterSeconds = 10,
  ) {}

  /** Heavy reports of this user in progress or waiting (tests read it). */
  of(userId: number): number {
    return this.running.get(userId) ?? 0;
  }

  /** Takes one of the user's places, then waits for the process's queue; returns the release (idempotent). */
  async enter(userId: number): Promise<() => void> {
    const mine = this.of(userId);
    if (mine >= this.perUser) {
      throw new HttpError(
        429,
        { detail: GENERAL_MESSAGES.tooManyReports(this.perUser) },
        { 'retry-after': String(this.retryAfterSeconds) },
      );
    }
    this.running.set(userId, mine + 1);
    let released = false;
    const leave = () => {
      if (released) return;
      released = true;
      const left = this.of(userId) - 1;
      if (left > 0) this.running.set(userId, left);
      else this.running.delete(userId);
    };
    try {
      const releaseQueue = await this.queue.enterQueue();
      return () => {
        releaseQueue();
        leave();
      };
    } catch (err) {
      leave();
      throw err;
    }
  }
}
