import { createRequire } from 'node:module';
import { once } from 'node:events';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { AUTH_MESSAGES, GENERAL_MESSAGES } from '@portal/domain';
import { HttpError } from './errors';

/**
 * The store behind @fastify/rate-limit's per-address limits (sign-in, refresh, password change,
 * checkouts): in memory for one instance, in Redis when several share them (REDIS_URL).
 *
 * - In memory, windows are measured with the app's clock and never run longer than their length from
 *   now: after the clock steps back, a window that "starts in the future" starts again now (the
 *   plugin's own store then asked for `retry-after: 661` on a one-minute limit).
 * - In Redis (whose own clock keeps the TTLs), a store that cannot be reached refuses at once with
 *   503 and a message that says so, instead of a 500 after the client's retries: no limited request
 *   runs unchecked, none waits on a dead connection. `LimiterStoreStatus` tells readiness and
 *   /metrics about it.
 */

/**
 * The plugin's store contract as it calls it (its own type names the route options it passes to
 * `child` differently): what the stores answer is the count in the window and the milliseconds left.
 */
interface Counted {
  current: number;
  ttl: number;
}
type Done = (err: Error | null, res?: Counted) => void;
interface PluginStore {
  incr(key: string, done: Done, timeWindow: number, max: number): void;
  read?(key: string, done: Done, timeWindow: number, max: number): void;
  child(routeOptions: RouteStoreOptions): PluginStore;
}
interface RouteStoreOptions {
  routeInfo?: { url?: string; method?: string };
}

/** Whether the shared store answers, and how many requests were refused because it did not. */
export class LimiterStoreStatus {
  refusals = 0;
  constructor(readonly redis?: Redis) {}
  get shared(): boolean {
    return this.redis !== undefined;
  }
  get up(): boolean {
    return !this.redis || this.redis.status === 'ready';
  }
}

/**
 * A Redis client for the limits: commands fail at once while it is not connected (no offline queue)
 * and after 500 ms on a connection that hangs. Resolves once connected, or on its first error, or
 * after `waitMs`, so an instance starting beside a live Redis does not refuse its first sign-ins.
 */
export async function limiterRedis(url: string, onError: (err: Error) => void, waitMs = 1000): Promise<Redis> {
  const redis = new Redis(url, { connectTimeout: 500, commandTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  // ioredis reconnects by itself; without a listener it prints every failed attempt raw on stderr.
  redis.on('error', onError);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), waitMs);
  try {
    await Promise.race([once(redis, 'ready', { signal: timeout.signal }), once(redis, 'error', { signal: timeout.signal })]);
  } catch {
    // Not connected in time: readiness says so, and limited requests get 503 until it connects.
  } finally {
    clearTimeout(timer);
    timeout.abort();
  }
  return redis;
}

const SIGN_IN_ROUTE = /\/login\/$/;
const RETRY_AFTER_SECONDS = 30;

function storeDown(route: string | undefined): HttpError {
  const headers = { 'retry-after': String(RETRY_AFTER_SECONDS) };
  if (route && SIGN_IN_ROUTE.test(route)) {
    const message = AUTH_MESSAGES.signInUnavailable;
    return new HttpError(503, { status: 'error', data: null, message, errors: { non_field_errors: [message] }, detail: message }, headers);
  }
  return new HttpError(503, { detail: GENERAL_MESSAGES.serviceUnavailable }, headers);
}

/** In memory, by the app's clock; at most `size` keys (the oldest used is forgotten first). */
class ClockedMemoryStore implements PluginStore {
  private readonly windows = new Map<string, { current: number; start: number }>();
  constructor(
    private readonly now: () => number,
    private readonly size = 5000,
  ) {}

  incr(key: string, done: Done, timeWindow: number): void {
    const now = this.now();
    let w = this.windows.get(key);
    // A window that ran out, or that starts after now (the clock stepped back), starts again now.
    if (!w || w.start + timeWindow <= now || w.start > now) w = { current: 0, start: now };
    w.current++;
    this.windows.delete(key);
    if (this.windows.size >= this.size) this.windows.delete(this.windows.keys().next().value!);
    this.windows.set(key, w);
    done(null, { current: w.current, ttl: w.start + timeWindow - now });
  }

  read(key: string, done: Done, timeWindow: number): void {
    const now = this.now();
    const w = this.windows.get(key);
    if (!w || w.start + timeWindow <= now || w.start > now) return done(null, { current: 0, ttl: 0 });
    done(null, { current: w.current, ttl: w.start + timeWindow - now });
  }

  child(): PluginStore {
    return new ClockedMemoryStore(this.now, this.size);
  }
}

/** Redis through the plugin's own store, refusing at once (503) while Redis is not connected. */
class GuardedRedisStore implements PluginStore {
  constructor(
    private readonly inner: PluginStore,
    private readonly status: LimiterStoreStatus,
    private readonly route?: string,
  ) {}

  incr(key: string, done: Done, timeWindow: number, max: number): void {
    if (!this.status.up) return this.refuse(done);
    this.inner.incr(
      key,
      (err, res) => (err ? this.refuse(done) : done(null, { current: res!.current, ttl: Math.min(res!.ttl, timeWindow) })),
      timeWindow,
      max,
    );
  }

  read(key: string, done: Done, timeWindow: number, max: number): void {
    if (!this.status.up || !this.inner.read) return this.refuse(done);
    this.inner.read(key, (err, res) => (err ? this.refuse(done) : done(null, res)), timeWindow, max);
  }

  child(routeOptions: RouteStoreOptions): PluginStore {
    return new GuardedRedisStore(this.inner.child(routeOptions), this.status, routeOptions.routeInfo?.url);
  }

  private refuse(done: Done): void {
    this.status.refusals++;
    done(storeDown(this.route));
  }
}

/** The plugin's `store` option: a class it constructs once and asks for a child per route. */
export function rateLimitStore(status: LimiterStoreStatus, now: () => number): FastifyRateLimitStoreCtor {
  if (status.redis) {
    // The plugin's Redis store (its Lua script), which the package does not export by name.
    const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as new (
      continueExceeding: boolean,
      exponentialBackoff: boolean,
      redis: Redis,
      key?: string,
    ) => PluginStore;
    const redis = status.redis;
    return class {
      constructor() {
        return new GuardedRedisStore(new RedisStore(false, false, redis), status);
      }
    } as unknown as FastifyRateLimitStoreCtor;
  }
  return class {
    constructor() {
      return new ClockedMemoryStore(now);
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
