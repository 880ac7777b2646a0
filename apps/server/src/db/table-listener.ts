import pg from 'pg';

/** The channel migration 0044's triggers notify: the payload is `<schema>.<table>`. */
export const TABLE_CHANGES_CHANNEL = 'portal_table_changes';

export interface TableListener {
  close(): Promise<void>;
}

/** What hears the changes: the reference cache and the card memos (decision 053). */
export interface ChangeHearer {
  invalidate(tables: Iterable<string>): void;
  setEnabled(on: boolean): void;
}

/**
 * Hears other instances' (and any other session's) committed changes to the watched tables through
 * PostgreSQL's LISTEN/NOTIFY (docs/decisions/047, 053) and drops what the caches read from them.
 * NOTIFY is delivered only at commit, so a rolled-back change is never heard. While the listening
 * connection is down (a database restart) notifications may be missed: the caches are off until it
 * listens again, then start empty.
 */
export function listenForTableChanges(opts: {
  url: string;
  schema?: string;
  caches: readonly ChangeHearer[];
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  retryMs?: number;
}): TableListener {
  const schema = opts.schema ?? 'public';
  let closed = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ connectionString: opts.url, connectionTimeoutMillis: 5000 });
    client = c;
    c.on('notification', (n) => {
      const [s, table] = (n.payload ?? '').split('.');
      if (s === schema && table) for (const cache of opts.caches) cache.invalidate([table]);
    });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`listen ${TABLE_CHANGES_CHANNEL}`);
      if (closed || client !== c) return void c.end().catch(() => undefined);
      // Whatever changed while nobody listened is unknown: start empty.
      for (const cache of opts.caches) cache.setEnabled(true);
      if (failures) opts.log?.info({ schema }, 'reference cache: listening for changes again');
      failures = 0;
    } catch (err) {
      lost(c, err);
    }
  };

  const lost = (c: pg.Client, err?: unknown): void => {
    if (client !== c) return;
    client = undefined;
    for (const cache of opts.caches) cache.setEnabled(false);
    c.end().catch(() => undefined);
    if (closed) return;
    if (failures++ === 0) opts.log?.warn({ err }, 'reference cache off: cannot listen for changes; retrying');
    timer = setTimeout(() => void connect(), Math.min(opts.retryMs ?? 250, 250 * failures));
    timer.unref();
  };

  for (const cache of opts.caches) cache.setEnabled(false);
  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = undefined;
      for (const cache of opts.caches) cache.setEnabled(false);
      await c?.end().catch(() => undefined);
    },
  };
}
