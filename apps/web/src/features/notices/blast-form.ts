import type { BlastAudienceKind, BlastChannel } from '@portal/domain/notice-templates-schemas';
import type { BlastInput } from './contract';

/**
 * The blast composer's form (pages/blast-new.tsx): its fields as text, the request they make (the
 * domain's blastBodySchema checks it, on the web and the server), and the API's field paths back to
 * the fields.
 */
export interface Form extends Record<string, string> {
  audience: string;
  arm: string;
  level: string;
  channels: string;
  subject: string;
  body: string;
}

export const channelsOf = (f: Form) => f.channels.split(',').filter(Boolean) as BlastChannel[];

export function bodyOf(f: Form): BlastInput {
  const kind = f.audience as BlastAudienceKind;
  return {
    audience: {
      kind,
      ...(kind === 'arm' ? { arm: f.arm } : {}),
      ...(kind === 'level' ? { level: f.level as BlastInput['audience']['level'] } : {}),
    },
    ...(f.subject.trim() ? { subject: f.subject.trim() } : {}),
    body: f.body.trim(),
    channels: channelsOf(f),
  };
}

/** The API's field paths to the form's fields. */
export const fieldOf = (path: string) =>
  path.startsWith('audience.') ? path.slice('audience.'.length).replace(/^kind$/, 'audience') : path.split('.')[0]!;

export const START: Form = { audience: 'all', arm: '', level: '', channels: 'sms,in_app', subject: '', body: '' };
