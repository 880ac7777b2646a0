/**
 * "The offline data changed": after every write of the outbox or the sheet cache, in this tab at
 * once and in the others through a BroadcastChannel (the badge of every open tab follows).
 */
const listeners = new Set<() => void>();
let channel: BroadcastChannel | null | undefined;

function getChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('portal-offline');
    if (channel) channel.onmessage = () => listeners.forEach((l) => l());
    // Node (tests) keeps a process alive for an open channel.
    (channel as { unref?: () => void } | null)?.unref?.();
  }
  return channel;
}

export function notifyOfflineChange(): void {
  listeners.forEach((l) => l());
  getChannel()?.postMessage('changed');
}

export function onOfflineChange(listener: () => void): () => void {
  getChannel();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
