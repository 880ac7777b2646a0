import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Web boundaries: app/ (the shell) assembles features; a feature imports lib/, components/ and
// @portal/domain, never app/ nor another feature; lib/ and components/ import no feature and not app/.
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const NO_SERVER_CODE = { group: ['**/apps/server/**', '@portal/server*'], message: 'The web app must not import server code.' };
const NO_APP = { regex: '^(\\.\\./)+app(/|$)', message: 'Only app/ assembles the shell: move what you need to lib/ or components/.' };
const noFeature = (names) => ({
  regex: `^(\\.\\./)+(features/)?(${names.join('|')})(/|$)`,
  message: 'A feature is reached only through its route array (app/router): move shared code to lib/ or components/.',
});
const restrictImports = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
const webBoundaries = [
  ...WEB_FEATURES.map((feature) =>
    restrictImports(
      [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
      [
        NO_SERVER_CODE,
        NO_APP,
        noFeature(WEB_FEATURES.filter((f) => f !== feature)),
        { regex: '^(\\.\\./)+features/', message: 'A feature imports no other feature.' },
      ],
    ),
  ),
  restrictImports(
    ['apps/web/src/{lib,components}/**/*.{ts,tsx}'],
    [NO_SERVER_CODE, NO_APP, { regex: '^(\\.\\./)+features(/|$)', message: 'lib/ and components/ serve every feature and import none.' }],
  ),
];

/** A route file builds no service or repository: it takes them from the composition root. */
export const ROUTES_BUILD_NO_SERVICES = [
  {
    selector: 'NewExpression[callee.name=/(Service|Repository)$/]',
    message: 'A route file builds no service or repository: take it from the composition root (src/composition.ts).',
  },
  {
    selector: 'CallExpression[callee.name=/^[a-z][A-Za-z]*(Service|Repository)$/]',
    message: 'A route file builds no service or repository: take it from the composition root (src/composition.ts).',
  },
];
/** A service builds no other service: it takes them as constructor arguments from the composition root. */
export const SERVICES_BUILD_NO_SERVICES = [
  {
    selector: 'NewExpression[callee.name=/Service$/]',
    message: 'A service builds no other service: take it as a constructor argument (src/composition.ts builds it).',
  },
  {
    selector: 'CallExpression[callee.name=/^[a-z][A-Za-z]*Service$/]',
    message: 'A service builds no other service: take it as a constructor argument (src/composition.ts builds it).',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'e2e/test-results/**',
      'bench/results/**',
      'bench/.scratch/**',
      'bench/data/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', 'e2e/*.mjs', '.ci/*.mjs', 'scripts/*.mjs', 'vitest.config.ts'],
          // The plain scripts and configs outside any tsconfig (nine, with .ci/audit.mjs and scripts/dev.mjs).
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 16,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
      // Fastify handlers and React event props legitimately return promises.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      // Tests and fixtures read untyped JSON bodies; the unsafe-* family adds noise there, not safety.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // React Router's navigate() may return a promise that nobody needs to await.
      '@typescript-eslint/no-floating-promises': 'off',
      // The web app never imports the server.
      'no-restricted-imports': ['error', { patterns: [NO_SERVER_CODE] }],
    },
  },
  ...webBoundaries,
  {
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['react*', 'fastify*', 'kysely*', '**/apps/**'], message: 'domain is framework-free.' }] },
      ],
    },
  },
  // The server's layers, its modules' public entries and the loops in server, web and domain are
  // checked on the resolved import graph by dependency-cruiser (.dependency-cruiser.mjs, `npm run lint:graph`).
  {
    // Services are built once, by the composition root (apps/server/src/composition.ts): a route file
    // takes the ones it calls and builds none (docs/decisions/028).
    files: ['apps/server/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...ROUTES_BUILD_NO_SERVICES],
    },
  },
  {
    // Nor does a service build another: it takes the services it calls as constructor arguments.
    files: ['apps/server/src/modules/**/*.service.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...SERVICES_BUILD_NO_SERVICES],
    },
  },
);
