import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstIssueErrors, issueErrors } from './form-errors';

const schema = z
  .object({
    name: z
      .string()
      .min(1, 'Name is required.')
      .max(3, 'Too long.')
      .regex(/^[a-z]*$/, 'Letters only.'),
    promotion: z.object({ pass_mark: z.number().min(0, 'Pass mark must be at least 0.') }),
    code: z.string().min(2, 'Code is short.').min(3, 'Code is short.'),
  })
  .refine((v) => v.name !== 'abc', 'Not that name.');

const fail = (v: unknown) => {
  const r = schema.safeParse(v);
  if (r.success) throw new Error('expected a failure');
  return r.error;
};

describe('issueErrors', () => {
  it('keys messages by field, nested paths joined with dots, in the order of the schema', () => {
    expect(issueErrors(fail({ name: 'ABCDE', promotion: { pass_mark: -1 }, code: 'abc' }))).toEqual({
      name: ['Too long.', 'Letters only.'],
      'promotion.pass_mark': ['Pass mark must be at least 0.'],
    });
  });

  it('gives each message once per field', () => {
    expect(issueErrors(fail({ name: 'a', promotion: { pass_mark: 1 }, code: 'x' }))).toEqual({ code: ['Code is short.'] });
  });

  it('keys an issue without a path under the root key, non_field_errors by default', () => {
    const e = fail({ name: 'abc', promotion: { pass_mark: 1 }, code: 'abc' });
    expect(issueErrors(e)).toEqual({ non_field_errors: ['Not that name.'] });
    expect(issueErrors(e, { root: 'reason' })).toEqual({ reason: ['Not that name.'] });
  });

  it('keys by the first segment only with depth 1 (forms whose fields are flat)', () => {
    expect(issueErrors(fail({ name: 'a', promotion: { pass_mark: -1 }, code: 'abc' }), { depth: 1 })).toEqual({
      promotion: ['Pass mark must be at least 0.'],
    });
  });

  it('firstIssueErrors keeps the first message of each field', () => {
    expect(firstIssueErrors(fail({ name: 'ABCDE', promotion: { pass_mark: 1 }, code: 'abc' }))).toEqual({ name: 'Too long.' });
  });
});
