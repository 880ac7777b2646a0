import { describe, expect, it } from 'vitest';
import { blastBodySchema } from '@portal/domain/notice-templates-schemas';
import { NOTICE_TEMPLATE_MESSAGES as M } from '@portal/domain/notice-templates';
import { bodyOf, fieldOf, START, type Form } from './blast-form';

const form = (over: Partial<Form>): Form => ({ ...START, body: 'School resumes on Monday.', ...over });
const issues = (f: Form) => {
  const r = blastBodySchema.safeParse(bodyOf(f));
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [fieldOf(i.path.join('.')), i.message]));
};

describe('the blast composer form', () => {
  it('sends only the audience fields its kind uses, trimmed text, the ticked channels', () => {
    expect(bodyOf(form({ audience: 'arm', arm: 'JSS 1A', level: 'SSS 2', subject: '  ', body: ' Hello \n' }))).toEqual({
      audience: { kind: 'arm', arm: 'JSS 1A' },
      body: 'Hello',
      channels: ['sms', 'in_app'],
    });
    expect(bodyOf(form({ audience: 'level', level: 'JSS 2', arm: 'JSS 1A', channels: 'email', subject: ' Break ' }))).toEqual({
      audience: { kind: 'level', level: 'JSS 2' },
      subject: 'Break',
      body: 'School resumes on Monday.',
      channels: ['email'],
    });
  });

  it("puts the domain schema's refusals on the form's own fields", () => {
    expect(issues(form({ audience: 'arm' }))).toEqual({ arm: M.armRequired });
    expect(issues(form({ audience: 'level' }))).toEqual({ level: M.levelRequired });
    expect(issues(form({ channels: '' }))).toEqual({ channels: M.channelsRequired });
    expect(issues(form({ body: '   ' }))).toEqual({ body: M.bodyRequired });
    expect(issues(form({ audience: 'debtors' }))).toEqual({});
  });

  it('names a server field path by the form field it belongs to', () => {
    expect(fieldOf('audience.arm')).toBe('arm');
    expect(fieldOf('audience.kind')).toBe('audience');
    expect(fieldOf('channels.1')).toBe('channels');
    expect(fieldOf('body')).toBe('body');
  });
});
