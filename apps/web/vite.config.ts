import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { build, defineConfig, parseAst, type Plugin, type UserConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { appIcons } from './build/app-icons.ts';

/** The plugins for the browser's bundle only (not the server's page renderer, `serverPages`). */
const browserBuild = (_: unknown, env: { command: string; isSsrBuild?: boolean }) => env.command === 'build' && !env.isSsrBuild;

/** Where the server's page renderer is written, under the web build's output; the server does not serve it as a file. */
const SERVER_PAGES_DIR = 'server-pages';

/**
 * After the browser's bundle, builds the server's page renderer (src/ssr/render-page.tsx, docs/decisions/
 * 013-server-rendered-report-card.md) into `<outDir>/server-pages`: one ES module for Node with React,
 * React Router and the app's code inside it, so the server loads it wherever the build was written.
 */
function serverPages(): Plugin {
  let outDir = '';
  let mode = 'production';
  return {
    name: 'portal-server-pages',
    apply: browserBuild,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      mode = config.mode;
    },
    async closeBundle() {
      await build({
        configFile: fileURLToPath(import.meta.url),
        mode,
        logLevel: 'warn',
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        ssr: { noExternal: true, target: 'node' },
        build: {
          ssr: 'src/ssr/render-page.tsx',
          outDir: path.join(outDir, SERVER_PAGES_DIR),
          emptyOutDir: true,
          copyPublicDir: false,
          target: 'node20',
          rollupOptions: { output: { entryFileNames: 'render-page.js', codeSplitting: false } },
        },
      });
    },
  };
}

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy next to every text asset of the build; the server
 * (@fastify/static `preCompressed`) sends them to browsers that accept them. A phone on 3G then
 * downloads ~115 KB of JavaScript instead of ~370 KB (docs/performance.md), at no CPU cost per request.
 */
function precompress(): Plugin {
  let outDir = '';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      if (name === '.vite') return [];
      return statSync(file).isDirectory() ? walk(file) : [file];
    });
  return {
    name: 'portal-precompress',
    apply: browserBuild,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt|webmanifest)$/.test(file)) continue;
        compressBeside(file);
      }
    },
  };
}

/** Writes `file.br` and `file.gz` beside a text file of 1 KB or more. */
function compressBeside(file: string): void {
  const buf = readFileSync(file);
  if (buf.length < 1024) return;
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }),
  );
  writeFileSync(`${file}.gz`, gzipSync(buf, { level: 9 }));
}

type Node = { type: string; [key: string]: unknown };
const isNode = (v: unknown): v is Node => !!v && typeof v === 'object' && typeof (v as Node).type === 'string';
const FUNCTION = new Set(['ArrowFunctionExpression', 'FunctionExpression']);

/** Every node under `node`, depth first; with `skipFunctions`, not into a function's body (it runs later, if ever). */
function* walk(node: unknown, skipFunctions = false): Generator<Node> {
  if (Array.isArray(node)) for (const n of node) yield* walk(n, skipFunctions);
  else if (isNode(node)) {
    yield node;
    if (skipFunctions && FUNCTION.has(node.type)) return;
    for (const v of Object.values(node)) if (v && typeof v === 'object') yield* walk(v, skipFunctions);
  }
}

/** Whether evaluating the expression calls anything. */
const CALL = new Set(['CallExpression', 'NewExpression', 'TaggedTemplateExpression']);
const calls = (node: unknown) => [...walk(node, true)].some((n) => CALL.has(n.type));

/**
 * The domain package builds its zod schemas at module level, beside the messages and helpers the
 * screens import. A bundler keeps every top-level call it cannot prove pure, so a page that shows one
 * message of `results.ts` loaded zod (26 KB gzipped) and built every schema of the module, and of the
 * modules those import. In the web build each top-level `const` of the domain package is evaluated
 * in an IIFE marked pure: one that no page uses is dropped, and zod with the last of them. Sound
 * because the domain's module-level code only builds values (checked: no classes, no statements but
 * declarations); the server and the tests run the sources unchanged.
 */
function pureDomainConstants(): Plugin {
  return {
    name: 'portal-pure-domain-constants',
    apply: 'build',
    enforce: 'post', // after TypeScript is stripped: the AST is plain JavaScript
    transform(code, id) {
      if (!/[\\/]packages[\\/]domain[\\/]src[\\/][^\\/]+\.ts$/.test(id) || id.endsWith('.test.ts')) return null;
      const edits: { at: number; text: string }[] = [];
      for (const statement of parseAst(code).body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
        for (const { init } of declaration.declarations) {
          if (!init || !calls(init)) continue; // plain data: the bundler already drops it unused
          const { start, end } = init as unknown as { start: number; end: number };
          edits.push({ at: start, text: '/* @__PURE__ */ (() => (' }, { at: end, text: '))()' });
        }
      }
      if (edits.length === 0) return null;
      let out = code;
      for (const { at, text } of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, at) + text + out.slice(at);
      parseAst(out); // offsets off by a character would not parse: fail the build, never ship it
      return { code: out, map: null };
    },
  };
}

/** The domain's response schemas (`packages/domain/src/<area>-responses.ts`): the server's, for its answers and OpenAPI. */
export const RESPONSE_SCHEMA_MODULE = /[\\/]packages[\\/]domain[\\/]src[\\/][^\\/]+-responses\.ts$/;
/** A schema named for OpenAPI (`.meta({ id: 'X' })`), as the minifier writes it. */
export const NAMED_SCHEMA = /\.meta\(\s*\{\s*id\s*:/;

/**
 * Fails the browser's build when a chunk holds code of a domain response schema module or a schema
 * named with `.meta({ id })`: those describe the server's answers (OpenAPI, the serializer), and the
 * web imports their TYPES only. A value imported from one (or a module-level statement that
 * registers a schema) would bring zod and every schema of the module into a page's JavaScript.
 */
function noResponseSchemas(): Plugin {
  return {
    name: 'portal-no-response-schemas',
    apply: browserBuild,
    enforce: 'post',
    generateBundle(_options, bundle) {
      const found: string[] = [];
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const [id, m] of Object.entries(chunk.modules))
          if (RESPONSE_SCHEMA_MODULE.test(id) && m.renderedLength > 0) found.push(`${chunk.fileName}: ${path.relative(process.cwd(), id)}`);
        if (NAMED_SCHEMA.test(chunk.code)) found.push(`${chunk.fileName}: a schema named with .meta({ id })`);
      }
      if (found.length)
        this.error(`response schemas in the web's JavaScript (import their types only: \`import type\`):\n  ${found.join('\n  ')}`);
    },
  };
}

/** The file name of the route-to-chunks table the server reads (apps/server/src/http/spa.ts). */
const ROUTE_PRELOADS = 'route-preloads.json';

/**
 * Writes `route-preloads.json`: for each screen's path (`{ path: '/report-card', lazy: … import('./pages/…') }`
 * in the feature route tables), the chunks its lazy page needs beyond the entry. The server adds
 * them to that path's index.html as `modulepreload` links, so a page opened by its address (a
 * bookmark, a reload, a link in a message) downloads and compiles its code beside the entry instead
 * of after it has run: one round trip less on a phone.
 */
function routePreloads(): Plugin {
  const pages = new Map<string, string>(); // path → the lazy page's module id
  return {
    name: 'portal-route-preloads',
    apply: browserBuild,
    enforce: 'post',
    async transform(code, id) {
      if (!/[\\/]features[\\/][^\\/]+[\\/]routes\.tsx$/.test(id)) return null;
      const program = parseAst(code);
      // `const statements = () => import('./pages/statement')`, used by several routes
      const loaders = new Map<string, Node>();
      for (const node of walk(program.body))
        if (node.type === 'VariableDeclarator' && isNode(node.id) && node.id.type === 'Identifier' && isNode(node.init))
          loaders.set(node.id.name as string, node.init);
      for (const node of walk(program.body)) {
        if (node.type !== 'ObjectExpression') continue;
        const props = new Map<string, Node>();
        for (const p of node.properties as Node[])
          if (p.type === 'Property' && isNode(p.key) && p.key.type === 'Identifier' && isNode(p.value))
            props.set(p.key.name as string, p.value);
        const routePath = props.get('path');
        const lazy = props.get('lazy');
        if (!lazy || routePath?.type !== 'Literal' || typeof routePath.value !== 'string' || routePath.value.includes(':')) continue;
        const find = (n: Node): string | undefined => {
          for (const m of walk(n)) {
            if (m.type === 'ImportExpression' && isNode(m.source) && typeof m.source.value === 'string') return m.source.value;
            if (m.type === 'Identifier' && loaders.has(m.name as string) && loaders.get(m.name as string) !== n) {
              const found = find(loaders.get(m.name as string)!);
              if (found) return found;
            }
          }
          return undefined;
        };
        const specifier = find(lazy);
        const resolved = specifier && (await this.resolve(specifier, id));
        if (resolved) pages.set(routePath.value, resolved.id);
      }
      return null;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byModule = new Map(chunks.filter((c) => c.facadeModuleId).map((c) => [c.facadeModuleId!, c]));
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (file: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(file)) return seen;
        seen.add(file);
        for (const i of byFile.get(file)?.imports ?? []) closure(i, seen);
        return seen;
      };
      const entry = new Set(chunks.filter((c) => c.isEntry).flatMap((c) => [...closure(c.fileName)]));
      const table: Record<string, string[]> = {};
      for (const [routePath, moduleId] of [...pages].sort(([a], [b]) => a.localeCompare(b))) {
        const chunk = byModule.get(moduleId);
        if (!chunk) this.error(`route ${routePath}: no chunk for ${moduleId}`);
        table[routePath] = [...closure(chunk.fileName)].filter((f) => !entry.has(f)).map((f) => `/${f}`);
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS, source: `${JSON.stringify(table, null, 1)}\n` });
    },
  };
}

/** The installable app's PNG icons (build/app-icons.ts), drawn at build time and written under `icons/`. */
function installableAppIcons(): Plugin {
  return {
    name: 'portal-app-icons',
    apply: browserBuild,
    generateBundle() {
      for (const [fileName, source] of Object.entries(appIcons())) this.emitFile({ type: 'asset', fileName, source });
    },
  };
}

/**
 * The service worker (src/sw.ts, docs/decisions/045): vite-plugin-pwa bundles it into /sw.js with the
 * list of files to precache: the shell, every chunk, the CSS and the icons; not the server's page
 * renderer, the route table or the .br/.gz copies. The manifest is the server's (`/manifest.webmanifest`,
 * from the school's settings), and the app registers the worker itself (src/lib/pwa/).
 */
const serviceWorker = () =>
  VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    injectRegister: false,
    manifest: false,
    injectManifest: {
      globPatterns: ['**/*.{js,css,html,svg,png}'],
      globIgnores: [`${SERVER_PAGES_DIR}/**`, '.vite/**', '**/*.br', '**/*.gz'],
      // The app's largest chunk is ~400 KB raw; anything near this would be a mistake to send to every phone.
      maximumFileSizeToCacheInBytes: 1024 * 1024,
      // The worker's own build speaks at the main build's level (`npm start` builds at warn: issue 37.5).
      buildPlugins: {
        vite: [
          { name: 'portal-sw-log-level', config: () => ({ logLevel: cliLogLevel() }) },
          // vite-plugin-pwa 2.0 asks for one file with Rollup's `inlineDynamicImports`, which Vite 8's
          // Rolldown still honours but warns about on every build (a line of noise in `npm start`):
          // the same request in Rolldown's words.
          {
            name: 'portal-sw-one-file',
            config: (c: UserConfig) => {
              const output = c.build?.rollupOptions?.output;
              if (output && !Array.isArray(output) && 'inlineDynamicImports' in output) {
                delete output.inlineDynamicImports;
                Object.assign(output, { codeSplitting: false });
              }
            },
          },
        ],
      },
    },
  });

/** The level the command line asked for (`vite build --logLevel warn`), else Vite's default. */
const cliLogLevel = () => {
  const at = process.argv.indexOf('--logLevel');
  const level = at >= 0 ? process.argv[at + 1] : undefined;
  return level === 'warn' || level === 'error' || level === 'silent' ? level : 'info';
};

/**
 * sw.js is written by vite-plugin-pwa's closeBundle, after `precompress`: its .br/.gz copies are made
 * here, after it. Browsers fetch the worker past their HTTP cache at every update check; Brotli makes
 * that ~7 KB instead of ~29 KB.
 */
function precompressWorker(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress-worker',
    apply: browserBuild,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const worker = path.join(outDir, 'sw.js');
        if (!existsSync(worker)) this.error(`no ${worker}: the service worker was not built`);
        compressBeside(worker);
      },
    },
  };
}

/** What the installable app adds to the bundle (bench/web.ts checks it against its budget). */
export const PWA_WEIGHT = '.vite/pwa-weight.json';
const PWA_MODULE =
  /[\\/](src[\\/]lib[\\/]pwa[\\/][^\\/]+|src[\\/]components[\\/]layout[\\/]update-prompt\.tsx|web-app-manifest\.ts|workbox-window[\\/].+)$/;

/**
 * Writes `.vite/pwa-weight.json` (not served, not precached): each module of the installable app
 * (registration, update prompt, workbox-window) with the chunk it landed in and its code's gzipped
 * size, so the budget counts exactly the bytes it added wherever the bundler put them.
 */
function pwaWeight(): Plugin {
  return {
    name: 'portal-pwa-weight',
    apply: browserBuild,
    generateBundle(_options, bundle) {
      const modules: { module: string; chunk: string; bytes: number; gzipBytes: number }[] = [];
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk')
          for (const [id, m] of Object.entries(chunk.modules))
            if (PWA_MODULE.test(id) && m.code)
              modules.push({
                module: path.relative(process.cwd(), id),
                chunk: chunk.fileName,
                bytes: Buffer.byteLength(m.code),
                gzipBytes: gzipSync(m.code, { level: 9 }).length,
              });
      this.emitFile({ type: 'asset', fileName: PWA_WEIGHT, source: `${JSON.stringify(modules, null, 1)}\n` });
    },
  };
}

/**
 * React Router 7's package exports name only its development build (remix-run/react-router#12532,
 * #14753): its dev-only checks and warnings would ship in every page's first JavaScript. A build
 * takes the production build beside it instead.
 */
const routerDir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const productionRouter = { find: /^react-router$/, replacement: path.join(routerDir, 'dist/production/index.mjs') };

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    pureDomainConstants(),
    noResponseSchemas(),
    routePreloads(),
    installableAppIcons(),
    pwaWeight(),
    precompress(),
    serverPages(),
    // The browser's bundle only: the server's page renderer has no worker.
    ...(isSsrBuild ? [] : [serviceWorker(), precompressWorker()]),
  ],
  resolve: { alias: command === 'build' ? [productionRouter] : [] },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/manifest.webmanifest': 'http://127.0.0.1:3000' } },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 400 },
}));
