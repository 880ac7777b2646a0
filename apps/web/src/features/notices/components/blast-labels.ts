import { BLAST_STATUS_LABELS, CHANNEL_LABELS, NOTICE_SCREEN_LABELS as L } from '@portal/domain/notice-screens';
import type { Blast } from '../contract';

/** Whom a blast went to, in words ("JSS 1A's parents"). */
export function audienceText(b: Blast): string {
  const a = b.audience;
  if (a.kind === 'arm') return `${L.audienceArm}: ${a.arm ?? ''}`;
  if (a.kind === 'level') return `${L.audienceLevel}: ${a.level ?? ''}`;
  return a.kind === 'all' ? L.audienceAll : L.audienceDebtors;
}

export const statusText = (b: Blast) => BLAST_STATUS_LABELS[b.status];
export const channelsText = (b: Blast) => b.channels.map((c) => CHANNEL_LABELS[c]).join(', ');
