import {
  ColumnNode,
  DeleteQueryNode,
  InsertQueryNode,
  MergeQueryNode,
  RawNode,
  TableNode,
  UpdateQueryNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * The reference tables whose rows the per-process cache keeps (docs/decisions/047): read on every
 * card and changed rarely. A write to any of them invalidates what was read from it.
 */
export const WATCHED_TABLES = [
  'settings',
  'grading_scales',
  'session_grading_scales',
  'subjects',
  'level_subjects',
  'stream_subjects',
  'class_arms',
  'academic_sessions',
  'school_terms',
  'assessment_schemes',
  'calendar_events',
  'session_report_settings',
] as const;
export type WatchedTable = (typeof WATCHED_TABLES)[number];

export const WATCHED = new Set<string>(WATCHED_TABLES);

/**
 * Tables whose writes never change what a report card shows nor who may read it (decision 053): the
 * card memo ignores them, and migration 0046 gives them no change notice. Every other table counts,
 * so a table added later drops the memo until it is listed here (`card-memo.test.ts` holds the list
 * against the schema and the triggers).
 */
export const UNSHOWN_TABLES = [
  'kysely_migration',
  'kysely_migration_lock',
  'refresh_tokens',
  'login_throttle',
  'audit_log',
  'idempotency_keys',
  'notice_blasts',
  'notice_events',
  'notice_messages',
  'notice_preferences',
  'notice_reminder_days',
  'notice_settings',
  'notice_templates',
  'report_card_pdfs',
  'report_class_pdfs',
  'result_pin_batches',
  'result_pin_uses',
  'result_pins',
  'payment_webhook_events',
  'payment_simulator_transactions',
] as const;

/**
 * Columns kept for bookkeeping, written on sign-in: an update that sets only these is no change to
 * anything a card shows (a results day's parents signing in must not drop every memoised card).
 * Migration 0046's trigger on `parents` leaves them out the same way.
 */
export const BOOKKEEPING_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  parents: ['last_sign_in_at'],
};
const RAW_WRITE = /\b(insert\s+into|update|delete\s+from|replace\s+into|truncate(?:\s+table)?)\s+"?(\w+)"?/gi;

/**
 * Who hears that tables changed: the reference cache (its `WATCHED_TABLES`) and the report-card memos
 * (every table but `UNSHOWN_TABLES`, decision 053); each listener picks the tables it keeps.
 */
export class TableChanges {
  private readonly listeners = new Set<(tables: ReadonlySet<string>) => void>();

  subscribe(listener: (tables: ReadonlySet<string>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(tables: Iterable<string>): void {
    const written = new Set(tables);
    if (!written.size) return;
    for (const l of this.listeners) l(written);
  }
}

/** The tables a statement writes (Kysely's tree; raw SQL by its text). */
export function writtenTables(node: RootOperationNode): string[] {
  let target: OperationNode | undefined;
  if (InsertQueryNode.is(node)) target = node.into;
  else if (UpdateQueryNode.is(node)) {
    target = node.table;
    if (onlyBookkeeping(node)) return [];
  } else if (DeleteQueryNode.is(node)) target = node.from.froms[0];
  else if (MergeQueryNode.is(node)) target = node.into;
  else if (RawNode.is(node)) {
    const text = node.sqlFragments.join(' ');
    return [...text.matchAll(RAW_WRITE)].map((m) => m[2]!.toLowerCase());
  }
  // A table with an alias is wrapped in an AliasNode: its `node` is the table.
  const table =
    target && 'node' in target && TableNode.is((target as { node: OperationNode }).node) ? (target as { node: TableNode }).node : target;
  if (table && TableNode.is(table)) {
    return [table.table.identifier.name];
  }
  return [];
}

/** An update of a table's bookkeeping columns alone (`BOOKKEEPING_COLUMNS`). */
function onlyBookkeeping(node: UpdateQueryNode): boolean {
  const table = node.table && 'node' in node.table ? (node.table as { node: OperationNode }).node : node.table;
  if (!table || !TableNode.is(table)) return false;
  const kept = BOOKKEEPING_COLUMNS[table.table.identifier.name];
  if (!kept || !node.updates?.length) return false;
  return node.updates.every((u) => ColumnNode.is(u.column) && kept.includes(u.column.column.name));
}

/**
 * A Kysely plugin that reports each write to a table once the statement ran (outside a
 * transaction that is its commit). Inside a transaction the report comes early, before the commit: a
 * reader may then refill the cache with the old row, so `inTransaction` reports the tables its
 * transaction wrote again after the commit (`TransactionWrites`).
 */
export class TableWritePlugin implements KyselyPlugin {
  private readonly pending = new WeakMap<object, string[]>();

  constructor(private readonly changes: TableChanges) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const tables = writtenTables(args.node);
    if (tables.length) this.pending.set(args.queryId, tables);
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const tables = this.pending.get(args.queryId);
    if (tables) {
      this.pending.delete(args.queryId);
      this.changes.emit(tables);
    }
    return Promise.resolve(args.result);
  }
}

/** Collects the tables one transaction writes (`inTransaction` reports them after its commit). */
export class TransactionWrites implements KyselyPlugin {
  readonly tables = new Set<string>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    for (const t of writtenTables(args.node)) this.tables.add(t);
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/** The change feed of each app database (createDatabase registers it): found from the Kysely alone. */
const feeds = new WeakMap<object, TableChanges>();

export function registerTableChanges(db: object, changes: TableChanges): void {
  feeds.set(db, changes);
}

export function tableChangesOf(db: object): TableChanges | undefined {
  return feeds.get(db);
}
