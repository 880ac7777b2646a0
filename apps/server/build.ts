/**
 * Compiles the server for `npm start`: apps/server/src and @portal/domain (TypeScript sources) become
 * one ES module, `dist/main.js`, with its source map, and the operator's scripts become
 * `dist/backup.js` and `dist/restore.js` (`npm run backup` / `restore`: no tsx at run time, so tsx
 * is a development dependency only) (`node --enable-source-maps` turns stack traces
 * back into .ts lines). Every package from node_modules stays external and loads as it does under
 * tsx: the native modules (better-sqlite3, @node-rs/argon2, pg) and the packages that read their own
 * files at run time (pdfkit's font metrics, the DejaVu fonts, Swagger UI's assets) resolve from
 * node_modules beside the output. So the output must stay two levels below apps/ (config.ts finds
 * the web build at `../../web/dist` from it, as from src/). Why esbuild: docs/decisions/012.
 *
 *   node --import tsx apps/server/build.ts [--outdir DIR]
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const SERVER_DIR = import.meta.dirname;

/** Bare imports stay external, except the workspace's own TypeScript packages, which are compiled in. */
const nodeModulesExternal: Plugin = {
  name: 'node-modules-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true }));
  },
};

/** Builds the server into `outdir` (default apps/server/dist); returns the entry file. */
export async function buildServer(outdir = path.join(SERVER_DIR, 'dist')): Promise<string> {
  const result = await build({
    entryPoints: ['src/main.ts', 'src/scripts/backup.ts', 'src/scripts/restore.ts'].map((f) => path.join(SERVER_DIR, f)),
    // dist/main.js, dist/backup.js, dist/restore.js: each a bundle of its own (no shared chunks).
    entryNames: '[name]',
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // The oldest Node the portal supports (package.json engines).
    target: 'node22.12',
    sourcemap: 'linked',
    // Stack traces need file names and lines, not the sources: a smaller map loads faster at start-up.
    sourcesContent: false,
    plugins: [nodeModulesExternal],
    write: false,
    logLevel: 'warning',
  });
  mkdirSync(outdir, { recursive: true });
  // Written beside and renamed over the old files: a server starting meanwhile (another e2e run in
  // this tree) reads the old build or the new one, never half a file.
  for (const file of result.outputFiles) {
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
  return path.join(outdir, 'main.js');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const given = process.argv[process.argv.indexOf('--outdir') + 1];
  const outdir = process.argv.includes('--outdir') && given ? path.resolve(given) : undefined;
  const started = performance.now();
  const entry = await buildServer(outdir);
  console.log(`server compiled to ${path.relative(process.cwd(), entry)} in ${Math.round(performance.now() - started)} ms`);
}
