// The import graph's rules (docs/ARCHITECTURE.md, "Layers"; docs/decisions/029). `npm run lint` runs
// them after ESLint: `depcruise --config .dependency-cruiser.mjs apps/server/src apps/web/src packages/domain/src`.
// Each rule has a failing probe in apps/server/test/architecture/import-graph.test.ts.
import { readdirSync } from 'node:fs';

const SERVER = '^apps/server/src/';
/** Tests and fixtures may reach anything they test; only product code keeps to the layers. */
const TESTS = '\\.(test|spec)\\.tsx?$|(^|/)(test|fixtures)/';

/**
 * The server's business modules, bottom to top. A module imports modules of its own layer or below,
 * never above (and never in a loop: `no-cycle`). A new folder under modules/ needs its row here.
 */
export const MODULE_LAYERS = [
  // The school's own facts and who may reach what: read by every module above.
  ['settings', 'calendar', 'access', 'health'],
  // Accounts and people.
  ['auth', 'people'],
  // Arms, subjects, offerings, who teaches what.
  ['teaching', 'parents'],
  // What is recorded about students.
  ['attendance'],
  ['payments'],
  ['results'],
  // Reads every module below to tell the admin what is left to set up.
  ['setup', 'rollover', 'promotion', 'pins'],
  // Each person's home at a glance: aggregate reads over every module below (issue 36).
  ['dashboards'],
  // Notices: events of every module below become SMS, email and in-app messages.
  ['notices'],
];

const layerOf = new Map(MODULE_LAYERS.flatMap((names, layer) => names.map((name) => [name, layer])));
const modulesDir = new URL('./apps/server/src/modules/', import.meta.url);
const unplaced = readdirSync(modulesDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !layerOf.has(d.name))
  .map((d) => d.name);
if (unplaced.length) {
  throw new Error(`apps/server/src/modules/${unplaced.join(', ')}: give each module a layer in MODULE_LAYERS (.dependency-cruiser.mjs)`);
}

const oneOf = (names) => `(${names.join('|')})`;

/** One rule per module that has modules above it: it imports none of them. */
const moduleLayerRules = [...layerOf].flatMap(([name, layer]) => {
  const above = MODULE_LAYERS.slice(layer + 1).flat();
  if (!above.length) return [];
  return [
    {
      name: 'module-layers',
      comment: `${name} (layer ${layer}) imports no module above it (${above.join(', ')}): if it needs an answer from one, the composition root hands it in through an interface ${name} declares (docs/ARCHITECTURE.md, "Layers").`,
      severity: 'error',
      from: { path: `${SERVER}modules/${name}/`, pathNot: TESTS },
      to: { path: `${SERVER}modules/${oneOf(above)}/` },
    },
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Modules form a graph without loops (server, web and domain; type-only imports count).',
      severity: 'error',
      from: { path: '^(apps/server/src|apps/web/src|packages/domain/src)/' },
      to: { circular: true },
    },
    {
      name: 'lib-imports-nothing-above',
      comment: 'lib/ is the bottom layer: it imports only lib/ (and packages, the domain). Move what it needs down, or hand it in.',
      severity: 'error',
      from: { path: `${SERVER}lib/`, pathNot: TESTS },
      to: { path: SERVER, pathNot: `${SERVER}lib/` },
    },
    {
      name: 'db-imports-no-http-or-module',
      comment:
        "db/ (connection, migrations, seed, factories, audit, counters) sits on lib/ and config.ts; of the modules it sees only their tables' types (*.tables.ts), the schema's parts.",
      severity: 'error',
      from: { path: `${SERVER}db/`, pathNot: TESTS },
      to: { path: SERVER, pathNot: `${SERVER}(db|lib)/|${SERVER}config\\.ts$|${SERVER}modules/[^/]+/[^/]+\\.tables\\.ts$` },
    },
    {
      name: 'tables-are-types-only',
      comment: "A module's *.tables.ts holds table types, part of db/'s schema: it imports only db/ and other *.tables.ts.",
      severity: 'error',
      from: { path: `${SERVER}modules/[^/]+/[^/]+\\.tables\\.ts$` },
      to: { path: SERVER, pathNot: `${SERVER}db/|${SERVER}modules/[^/]+/[^/]+\\.tables\\.ts$` },
    },
    {
      name: 'migrations-are-frozen',
      comment:
        'A migration imports nothing of the live server but db/migrations/: what it needs of module code is copied into it as it was (a later change must never change an upgrade).',
      severity: 'error',
      from: { path: `${SERVER}db/migrations/`, pathNot: TESTS },
      to: { path: SERVER, pathNot: `${SERVER}db/migrations/` },
    },
    {
      name: 'http-imports-no-module',
      comment:
        'http/ (guard, errors, idempotency, pages) sits below the modules: what it needs of one is handed in by the composition root.',
      severity: 'error',
      from: { path: `${SERVER}http/`, pathNot: TESTS },
      to: { path: SERVER, pathNot: `${SERVER}(http|db|lib)/|${SERVER}config\\.ts$` },
    },
    {
      name: 'modules-import-no-composition',
      comment:
        'Modules sit below the composition root (app.ts, main.ts, scripts/): they import modules, http/, db/, lib/ and config.ts only.',
      severity: 'error',
      from: { path: `${SERVER}modules/`, pathNot: TESTS },
      to: { path: SERVER, pathNot: `${SERVER}(modules|http|db|lib)/|${SERVER}config\\.ts$` },
    },
    {
      name: 'no-other-module-repository',
      comment:
        "A module never reaches into another module's repository, whatever the importing file is called: it calls that module's service (or a read port the service exports).",
      severity: 'error',
      from: { path: `${SERVER}modules/([^/]+)/`, pathNot: TESTS },
      to: { path: `${SERVER}modules/[^/]+/[^/]+\\.repository\\.ts$`, pathNot: `${SERVER}modules/$1/` },
    },
    {
      name: 'module-public-entry',
      comment:
        'Another module is used through its public entry: its *.service.ts files (and the table types in *.tables.ts), never its routes, presenters or helpers.',
      severity: 'error',
      from: { path: `${SERVER}modules/([^/]+)/`, pathNot: TESTS },
      to: { path: `${SERVER}modules/[^/]+/`, pathNot: `${SERVER}modules/$1/|\\.(service|tables|repository)\\.ts$` },
    },
    ...moduleLayerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(apps/server/src|apps/web/src|packages/domain/src)/',
    exclude: { path: '\\.d\\.ts$' },
    // `import type` ties nothing at run time, but a loop of types is still a loop of meaning.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
    },
  },
};
