import type { Generated } from 'kysely';
import type { Conn, DB } from '../db/index';

export interface IdempotencyKeysTable {
  id: Generated<number>;
  user_id: number;
  route: string;
  idem_key: string;
  request_hash: string;
  /** NULL while the first request is still working. */
  status_code: number | null;
  response_body: string | null;
  content_type: string | null;
  created_at: string;
}

declare module '../db/schema' {
  interface Database {
    idempotency_keys: IdempotencyKeysTable;
  }
}

export interface IdempotencyScope {
  userId: number;
  route: string;
  key: string;
}

export type StoredAnswer = Pick<IdempotencyKeysTable, 'request_hash' | 'status_code' | 'response_body' | 'content_type' | 'created_at'>;

/** The SQL of the retry keys: a unique insert as the claim, the first answer kept. */
export class IdempotencyRepository {
  constructor(readonly db: DB) {}

  /** The claim: true when this request inserted the key (and so does the work), false when it exists. */
  async claim(scope: IdempotencyScope, requestHash: string, createdAt: string): Promise<number | null> {
    const row = await this.db
      .insertInto('idempotency_keys')
      .values({ user_id: scope.userId, route: scope.route, idem_key: scope.key, request_hash: requestHash, created_at: createdAt })
      .onConflict((oc) => oc.columns(['user_id', 'route', 'idem_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id ?? null;
  }

  find(scope: IdempotencyScope, conn: Conn = this.db): Promise<StoredAnswer | undefined> {
    return conn
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status_code', 'response_body', 'content_type', 'created_at'])
      .where('user_id', '=', scope.userId)
      .where('route', '=', scope.route)
      .where('idem_key', '=', scope.key)
      .executeTakeFirst();
  }

  async complete(id: number, statusCode: number, body: string, contentType: string | null): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, response_body: body, content_type: contentType })
      .where('id', '=', id)
      .execute();
  }

  /** Gives a claim back (the request recorded nothing): a retry with the key does the work. */
  async release(id: number): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('id', '=', id).execute();
  }

  /** An expired key of this scope goes before it is claimed again. */
  async dropExpired(scope: IdempotencyScope, before: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('user_id', '=', scope.userId)
      .where('route', '=', scope.route)
      .where('idem_key', '=', scope.key)
      .where('created_at', '<', before)
      .execute();
  }

  async prune(before: string): Promise<number> {
    const r = await this.db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows ?? 0);
  }
}
