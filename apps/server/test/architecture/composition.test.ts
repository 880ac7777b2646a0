import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/**
 * Services are built once, by the composition root (src/composition.ts, docs/decisions/028): no
 * route file constructs a service or a repository, and results imports nothing of payments (it
 * declares the fee figures it needs as its `CardFees` port).
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MODULES = join(ROOT, 'apps/server/src/modules');

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix))
    .map((f) => join(dir, f));
}

type Block = { files?: string[]; rules?: Record<string, unknown> };

/** The lint block of eslint.config.js that keeps files named `*<suffix>` from building services. */
async function blockFor(suffix: string): Promise<Block | undefined> {
  const config = ((await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as { default: Block[] }).default;
  return config.find((b) => b.files?.some((f) => f.endsWith(`*${suffix}`)) && b.rules?.['no-restricted-syntax']);
}

async function lintAs(suffix: string, code: string): Promise<string[]> {
  const block = await blockFor(suffix);
  if (!block) return [`no lint block for *${suffix} files`];
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: block.rules as Linter.RulesRecord }],
    { filename: `probe${suffix}` },
  );
  return messages.map((m) => m.message);
}
const lintAsRoute = (code: string) => lintAs('.routes.ts', code);
const lintAsService = (code: string) => lintAs('.service.ts', code);

describe('services built once', () => {
  it('lint refuses a route file that builds a service or a repository, with a constructor or a factory', async () => {
    expect(await lintAsRoute('const s = new FeesService(repo, sessions, teaching);')).toHaveLength(1);
    expect(await lintAsRoute('const r = new PaymentsRepository(db);')).toHaveLength(1);
    expect(await lintAsRoute('const t = teachingService(db);')).toHaveLength(1);
    // Taking them from what the composition root hands in is what a route file does.
    expect(await lintAsRoute('export function feeRoutes(app: unknown, { fees }: { fees: unknown }) { return [app, fees]; }')).toEqual([]);
    expect(await lintAsRoute('const limiter = new ConcurrencyLimiter(1, 2); const d = new Date();')).toEqual([]);
  });

  it('no route file builds a service or a repository', async () => {
    const routes = filesUnder(MODULES, '.routes.ts');
    expect(routes.length).toBeGreaterThan(15);
    const offenders: string[] = [];
    for (const file of routes) {
      for (const message of await lintAsRoute(readFileSync(file, 'utf8'))) offenders.push(`${relative(ROOT, file)}: ${message}`);
    }
    expect(offenders).toEqual([]);
  });

  it('lint refuses a service that builds another service; every service takes them as constructor arguments', async () => {
    expect(await lintAsService('const s = new SessionsService(repo);')).toHaveLength(1);
    expect(await lintAsService('const s = settingsService(db);')).toHaveLength(1);
    expect(await lintAsService('class A { constructor(private readonly fees: FeesService) {} }')).toEqual([]);
    const offenders: string[] = [];
    for (const file of filesUnder(MODULES, '.service.ts')) {
      for (const message of await lintAsService(readFileSync(file, 'utf8'))) offenders.push(`${relative(ROOT, file)}: ${message}`);
    }
    expect(offenders).toEqual([]);
  });

  it('results imports nothing of payments (the card asks its CardFees port)', () => {
    const offenders = filesUnder(join(MODULES, 'results'), '.ts').filter((f) =>
      /from '\.\.\/payments\/|import '\.\.\/payments\//.test(readFileSync(f, 'utf8')),
    );
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
  });
});
