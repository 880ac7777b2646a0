import type { NoticeKind } from '@portal/domain';
import type { Trx } from '../../db/index';
import type { NoticeMessageDraft } from '../../db/notice-outbox';

/** An event of the outbox as the composer receives it (payload parsed). */
export interface NoticeEvent {
  id: number;
  kind: NoticeKind;
  dedupeKey: string;
  payload: Record<string, unknown>;
  createdAt: string;
}

/**
 * What turns an event into messages (notices-product implements it: recipients, templates;
 * docs/decisions/037). The worker calls `compose` inside one transaction per event and queues what
 * it returns in that transaction, marking the event expanded; so an event is expanded once, and a
 * composer that reads rows reads them in the same transaction. It returns drafts without
 * `eventId` (the worker sets it). Throwing leaves the event unexpanded: the next run tries again.
 */
export interface NoticeComposer {
  compose(trx: Trx, event: NoticeEvent): Promise<NoticeMessageDraft[]>;
}

/** A composer that sends nothing: what the worker runs with until templates and recipients exist. */
export const silentComposer: NoticeComposer = {
  compose: () => Promise.resolve([]),
};
