import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStudent, createTestContext, describeEachDatabase, type TestContext } from '../../test/helpers';
import { QueryTemplates } from './query-templates';

describeEachDatabase('QueryTemplates', (dialect) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(dialect);
    await createStudent(ctx.handle.db, {
      email: 'ada@qt.school',
      password: 'Correct-Horse-9',
      firstName: 'Ada',
      lastName: 'Eze',
      arm: 'JSS 1A',
    });
    await createStudent(ctx.handle.db, {
      email: 'obrien@qt.school',
      password: 'Correct-Horse-9',
      firstName: "O'Brien",
      lastName: 'Bello',
      arm: 'JSS 2A',
    });
  });
  afterAll(() => ctx.close());

  const byClass = (templates: QueryTemplates, arm: string, compiled: { count: number }) =>
    templates.execute(
      ctx.handle.db,
      'byClass',
      (slot) => {
        compiled.count++;
        return ctx.handle.db
          .selectFrom('students')
          .select(['first_name', 'student_class'])
          .where('student_class', '=', slot('arm'))
          .orderBy('id');
      },
      { arm },
    );

  it('compiles once per shape and answers each call with its own values, as the builder would', async () => {
    const templates = new QueryTemplates();
    const compiled = { count: 0 };
    const jss1 = await byClass(templates, 'JSS 1A', compiled);
    const jss2 = await byClass(templates, 'JSS 2A', compiled);
    expect(compiled.count).toBe(1);
    expect(jss1).toEqual([{ first_name: 'Ada', student_class: 'JSS 1A' }]);
    expect(jss2).toEqual([{ first_name: "O'Brien", student_class: 'JSS 2A' }]);
    const direct = await ctx.handle.db
      .selectFrom('students')
      .select(['first_name', 'student_class'])
      .where('student_class', '=', 'JSS 2A')
      .execute();
    expect(jss2).toEqual(direct);
  });

  it('binds values as parameters, so text that looks like SQL is only ever a value', async () => {
    const rows = await byClass(new QueryTemplates(), "JSS 1A' or '1'='1", { count: 0 });
    expect(rows).toEqual([]);
  });

  it('keeps the builder’s own constants and refuses a call that leaves a slot without a value', async () => {
    const templates = new QueryTemplates();
    const build = (slot: (name: string) => never) =>
      ctx.handle.db
        .selectFrom('students')
        .select('first_name')
        .where('student_class', '=', 'JSS 1A')
        .where('first_name', '=', slot('name'));
    expect(await templates.execute(ctx.handle.db, 'constant', build, { name: 'Ada' })).toEqual([{ first_name: 'Ada' }]);
    expect(await templates.execute(ctx.handle.db, 'constant', build, { name: "O'Brien" })).toEqual([]);
    await expect(templates.execute(ctx.handle.db, 'constant', build, {})).rejects.toThrow(/no value for slot name/);
  });
});
