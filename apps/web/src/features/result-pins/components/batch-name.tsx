import { useSessionName } from '../../../lib/school-calendar';
import type { PinBatch } from '../contract';

/** "Batch 3 · 2025/2026": a batch as the lists and its page name it. */
export function BatchName({ batch }: { batch: Pick<PinBatch, 'id' | 'session_id' | 'session_name'> }) {
  const name = useSessionName(batch.session_id);
  const session = batch.session_name ?? name;
  return (
    <>
      Batch {batch.id}
      {session ? ` · ${session}` : ''}
    </>
  );
}
