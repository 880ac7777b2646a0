import { GENERAL_MESSAGES } from '@portal/domain';
import { HttpError } from '../http/errors';

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
