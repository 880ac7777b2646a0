/**
 * The offline core (issue 35, decision 044): IndexedDB records partitioned by user and term, the
 * sheet cache, the persistent outbox store of the row-autosave engine with cross-tab safety, the
 * online state, the offline banner and the unsent badge.
 */
export { openOfflineStore, closeOfflineStore, scopeOf, sheetIdOf, rowIdOf, OFFLINE_DB } from './store';
export type { OfflineScope, SheetRecord, OutboxRecord, SentRecord } from './store';
export { sheetCache } from './sheet-cache';
export {
  PersistentOutboxStore,
  sendOnce,
  sameValue,
  registerOutboxSender,
  unsentRows,
  queuedAccounts,
  accountSignedOut,
  flushOutbox,
  type OutboxSender,
  type SendMany,
  type FlushResult,
} from './outbox-store';
export { clearOfflineData, dropStale } from './maintenance';
export { useOnline, offlineSince, isOffline } from './online';
export { useUnsentCount } from './unsent-count';
export { usePersistentRows } from './use-persistent-rows';
export { OfflineBanner, UnsentBadge } from './offline-banner';
export { onOfflineChange, notifyOfflineChange } from './changes';
export { withRowLock } from './row-lock';
export { userOf, useOfflineUser } from './user';
