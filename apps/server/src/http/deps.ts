import type { DatabaseHandle, DB } from '../db/index';
import type { Config } from '../config';
import type { TokenService } from '../lib/tokens';

/** What every feature module's routes receive: built once in app.ts. */
export interface AppDeps {
  config: Config;
  handle: DatabaseHandle;
  db: DB;
  tokens: TokenService;
}
