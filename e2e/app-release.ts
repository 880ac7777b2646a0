import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/**
 * A new release of the installable app, as the browser sees one (docs/decisions/045): the built
 * worker's bytes change, in every copy the server may send (the .br and .gz it prefers, vite.config.ts
 * precompressWorker). Returns what puts the build back.
 */
export function releaseNewWorker(swFile: string, tag: string): () => void {
  const copies = [swFile, `${swFile}.br`, `${swFile}.gz`].filter((f) => existsSync(f));
  const originals = new Map(copies.map((f) => [f, readFileSync(f)]));
  const release = Buffer.concat([originals.get(swFile)!, Buffer.from(`\n// e2e release ${tag}\n`)]);
  writeFileSync(swFile, release);
  if (originals.has(`${swFile}.br`)) writeFileSync(`${swFile}.br`, brotliCompressSync(release));
  if (originals.has(`${swFile}.gz`)) writeFileSync(`${swFile}.gz`, gzipSync(release));
  return () => {
    for (const [f, bytes] of originals) writeFileSync(f, bytes);
  };
}
