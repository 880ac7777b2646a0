import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * One name for one thing (ARCHITECTURE.md, glossary): inside the code a class of a level is an
 * `arm`. The spec's `student_class` stays at the API's edge and in the tables' columns; the old
 * camel-case `studentClass` is not written again. Released migrations are frozen and keep theirs.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const FOLDERS = ['apps/server/src', 'apps/server/test', 'apps/web/src', 'packages/domain/src', 'e2e', 'bench'];
const OLD_NAME = /\b(set)?[sS]tudentClass(es)?\b/;

function sourceFiles(): string[] {
  return FOLDERS.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && !f.includes('node_modules'))
      .map((f) => join(ROOT, dir, f)),
  )
    .filter((f) => f !== fileURLToPath(import.meta.url)) // its probes name the old word
    .filter((f) => !/db\/migrations\/\d{4}_[a-z0-9_]+\.ts$/.test(relative(ROOT, f)));
}

describe('one name for an arm', () => {
  it('the rule sees the old name and lets the API field through (the probe)', () => {
    expect(OLD_NAME.test('const studentClass = q.student_class;')).toBe(true);
    expect(OLD_NAME.test('const [arm, setStudentClass] = useState("");')).toBe(true);
    expect(OLD_NAME.test('const arm = q.student_class;')).toBe(false);
  });

  it('no source file outside the released migrations calls an arm studentClass', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(300);
    const offenders = files.filter((f) => OLD_NAME.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });
});
