import type { DatabaseHandle, DB } from '../db/index';
import type { Config } from '../config';
import type { ConcurrencyLimiter } from '../lib/limiter';
import type { TokenService } from '../lib/tokens';

/** What every feature module's routes receive: built once in app.ts. */
export interface AppDeps {
  config: Config;
  handle: DatabaseHandle;
  db: DB;
  tokens: TokenService;
  /** Bounds PDF rendering across the process (report cards and receipts). */
  pdfRenders: ConcurrencyLimiter;
  /** The clock (ms since the epoch): Date.now, fixed only by tests that pass their own to buildApp. */
  now: () => number;
  /** The clock of tokens and sign-in limits: Date.now, stepped only by the clock-step tests (buildApp's `clock`). */
  clock: () => number;
}
