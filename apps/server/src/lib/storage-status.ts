/** How long after the last write that failed for lack of space readiness still reports the storage as failing. */
export const STORAGE_FULL_HOLD_MS = 30_000;

/**
 * Whether writes are failing for lack of space (issue 37.11): the error handler reports each such
 * failure, readiness answers 503 with `storage: 'full'` until no write has failed for
 * `STORAGE_FULL_HOLD_MS`, and the log names the cause once per episode (not once per request).
 */
export class StorageStatus {
  private lastFullAt: number | null = null;

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly holdMs = STORAGE_FULL_HOLD_MS,
  ) {}

  /** Records a write that failed for lack of space; true when it starts an episode (log it then). */
  reportFull(): boolean {
    const starts = !this.full;
    this.lastFullAt = this.clock();
    return starts;
  }

  get full(): boolean {
    return this.lastFullAt !== null && this.clock() - this.lastFullAt < this.holdMs;
  }
}
