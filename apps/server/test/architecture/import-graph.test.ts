import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A failing probe for each rule of the import graph (.dependency-cruiser.mjs and the web's feature
 * boundaries in eslint.config.js): a small tree of files that breaks exactly one rule, linted with the
 * project's own rules, must be refused by that rule; the same tree's allowed imports pass.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Probe files, by path from the repository's root: each imports what the rule forbids (or allows). */
const PROBES: Record<string, string> = {
  // A loop inside one module.
  'apps/server/src/modules/results/loop-a.ts': "import { b } from './loop-b';\nexport const a = () => b;\n",
  'apps/server/src/modules/results/loop-b.ts': "import { a } from './loop-a';\nexport const b = () => a;\n",
  // A loop in the domain.
  'packages/domain/src/fees.ts': "import { pay } from './payments';\nexport const fee = () => pay;\n",
  'packages/domain/src/payments.ts': "import { fee } from './fees';\nexport const pay = () => fee;\n",
  // A loop in the web client.
  'apps/web/src/lib/one.ts': "import { two } from './two';\nexport const one = () => two;\n",
  'apps/web/src/lib/two.ts': "import { one } from './one';\nexport const two = () => one;\n",
  // Another module's repository, from a file that is neither a route nor a service.
  'apps/server/src/modules/settings/settings.repository.ts': 'export class SettingsRepository {}\n',
  'apps/server/src/modules/settings/settings.service.ts': 'export const settingsService = () => 1;\n',
  'apps/server/src/modules/settings/logo.ts': 'export const normaliseLogo = () => 1;\n',
  'apps/server/src/modules/people/admission-numbers.ts':
    "import { SettingsRepository } from '../settings/settings.repository';\nexport const n = SettingsRepository;\n",
  // Another module's helper (not its public entry).
  'apps/server/src/modules/people/photo.ts': "import { normaliseLogo } from '../settings/logo';\nexport const p = normaliseLogo;\n",
  // Allowed: another module's service, own repository, table types.
  'apps/server/src/modules/people/people.repository.ts':
    "import { settingsService } from '../settings/settings.service';\nexport const r = settingsService;\n",
  'apps/server/src/modules/people/people.service.ts': "import { r } from './people.repository';\nexport const s = r;\n",
  // A module importing one above it.
  'apps/server/src/modules/results/results.service.ts': 'export const results = 1;\n',
  'apps/server/src/modules/settings/settings.extra.service.ts':
    "import { results } from '../results/results.service';\nexport const x = results;\n",
  // A module importing the composition root.
  'apps/server/src/app.ts': "import { AuthRepository } from './modules/auth/auth.repository';\nexport const app = AuthRepository;\n",
  'apps/server/src/modules/auth/auth.repository.ts': 'export class AuthRepository {}\n',
  'apps/server/src/modules/auth/auth.service.ts': "import { app } from '../../app';\nexport const a = app;\n",
  // lib/ importing http/.
  'apps/server/src/http/errors.ts': 'export class HttpError extends Error {}\n',
  'apps/server/src/lib/limiter.ts': "import { HttpError } from '../http/errors';\nexport const busy = () => new HttpError();\n",
  // Allowed: lib/ importing lib/.
  'apps/server/src/lib/http-error.ts': 'export class HttpError extends Error {}\n',
  'apps/server/src/lib/password-policy.ts': "import { HttpError } from './http-error';\nexport const no = () => new HttpError();\n",
  // http/ importing a module.
  'apps/server/src/http/auth.ts': "import { AuthRepository } from '../modules/auth/auth.repository';\nexport const g = AuthRepository;\n",
  // A migration importing live module code; another importing db/.
  'apps/server/src/db/index.ts': 'export const db = 1;\n',
  'apps/server/src/db/migrations/util.ts': 'export const util = 1;\n',
  'apps/server/src/db/migrations/0010_input_logos.ts':
    "import { normaliseLogo } from '../../modules/settings/logo';\nimport { util } from './util';\nexport const m = [normaliseLogo, util];\n",
  'apps/server/src/db/migrations/0011_next.ts': "import { db } from '../index';\nexport const m = db;\n",
  // db/ importing a module (beyond its tables' types); a tables file importing a service.
  'apps/server/src/modules/teaching/teaching.tables.ts':
    "import { settingsService } from '../settings/settings.service';\nexport type T = typeof settingsService;\n",
  'apps/server/src/db/seed/index.ts':
    "import '../../modules/teaching/teaching.tables';\nimport { settingsService } from '../../modules/settings/settings.service';\nexport const seed = settingsService;\n",
};

let dir = '';
let result: ICruiseResult;

/** The rules each probe file breaks, by name, sorted. */
function broken(from: string): string[] {
  return [...new Set(result.summary.violations.filter((v) => v.from === from).map((v) => v.rule.name))].sort();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
  for (const [path, text] of Object.entries(PROBES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // The rules also check that every real module folder has a layer (read beside the config file).
  const { default: config } = (await import(new URL('.dependency-cruiser.mjs', `file://${ROOT}`).href)) as { default: IConfiguration };
  // As the command line runs it: the config's options, with its rules.
  const reported = await cruise(['apps/server/src', 'apps/web/src', 'packages/domain/src'], {
    ...config.options,
    baseDir: dir,
    validate: true,
    ruleSet: { forbidden: config.forbidden ?? [] },
  });
  result = reported.output as ICruiseResult;
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the import graph refuses', () => {
  // Each probe file and the rules it breaks.
  it.each<[string, string, string[]]>([
    ['a loop of server files', 'apps/server/src/modules/results/loop-a.ts', ['no-cycle']],
    ['a loop in the domain', 'packages/domain/src/fees.ts', ['no-cycle']],
    ['a loop in the web client', 'apps/web/src/lib/one.ts', ['no-cycle']],
    [
      "reaching into another module's repository, whatever the importing file is called",
      'apps/server/src/modules/people/admission-numbers.ts',
      ['no-other-module-repository'],
    ],
    ["another module's files other than its public entry", 'apps/server/src/modules/people/photo.ts', ['module-public-entry']],
    ['a module importing a module of a higher layer', 'apps/server/src/modules/settings/settings.extra.service.ts', ['module-layers']],
    ['a module importing the composition root', 'apps/server/src/modules/auth/auth.service.ts', ['modules-import-no-composition']],
    ['lib/ importing http/', 'apps/server/src/lib/limiter.ts', ['lib-imports-nothing-above']],
    ['http/ importing a module', 'apps/server/src/http/auth.ts', ['http-imports-no-module']],
    [
      'a migration importing live module code',
      'apps/server/src/db/migrations/0010_input_logos.ts',
      ['db-imports-no-http-or-module', 'migrations-are-frozen'],
    ],
    ['a migration importing anything outside db/migrations/', 'apps/server/src/db/migrations/0011_next.ts', ['migrations-are-frozen']],
    ["db/ importing a module's code beyond its table types", 'apps/server/src/db/seed/index.ts', ['db-imports-no-http-or-module']],
    ['a tables file importing more than types', 'apps/server/src/modules/teaching/teaching.tables.ts', ['tables-are-types-only']],
  ])('%s', (_name, from, rules) => {
    expect(broken(from)).toEqual(rules);
  });

  it('nothing it allows: a service of a lower module, the own repository, lib/ within lib/, the composition root', () => {
    for (const from of [
      'apps/server/src/modules/people/people.repository.ts',
      'apps/server/src/modules/people/people.service.ts',
      'apps/server/src/lib/password-policy.ts',
      'apps/server/src/app.ts',
    ]) {
      expect(broken(from), from).toEqual([]);
    }
  });
});

describe('the web feature boundaries refuse', () => {
  it('a feature importing another feature', async () => {
    const { default: config } = (await import(new URL('eslint.config.js', `file://${ROOT}`).href)) as { default: Linter.Config[] };
    // The blocks that hold the boundaries, without the type-aware rules (the probe is in no project).
    const boundaries = config.filter((block) => block.files && block.rules && 'no-restricted-imports' in block.rules);
    const eslint = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      overrideConfig: [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser } }, ...boundaries],
    });
    const lint = async (path: string, text: string) =>
      (await eslint.lintText(text, { filePath: join(ROOT, path) }))[0]!.messages.map((m) => m.ruleId);
    expect(await lint('apps/web/src/features/results/probe.tsx', "import { x } from '../payments/api';\nexport const y = x;\n")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await lint('apps/web/src/features/results/probe.tsx', "import { x } from '../../lib/api';\nexport const y = x;\n")).toEqual([]);
  });
});
