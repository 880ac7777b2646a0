import { existsSync } from 'node:fs';
import { buildApp } from './app';
import { loadConfig } from './config';
import { createDatabase } from './db/index';
import { prepareDatabase } from './db/startup';
import { secureDataDir } from './lib/data-dir';

/** Process entry: config, migrate, seed, listen, and shut down cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  // package.json engines, said plainly: npm only warns, and better-sqlite3 13 crashes on Node 20.
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 22 || (major === 22 && minor < 12) || major === 23) {
    throw new Error(`Invalid configuration: Node.js 22.12 or newer (24 LTS recommended) is required; this is ${process.version}.`);
  }
  // A .env file beside the project is read when present (see .env.example).
  if (existsSync('.env')) process.loadEnvFile('.env');
  // Files the portal creates (database, WAL/SHM, secret, backups) are its own: 0600.
  process.umask(0o077);
  const config = loadConfig();
  // Tightens a data folder and files made by an earlier release (0755/0644).
  if (existsSync(config.dataDir)) secureDataDir(config.dataDir);
  const handle = createDatabase(config.databaseUrl);
  // Building the app touches no table; its logger reports the start-up lock's wait.
  const app = await buildApp({ config, handle });
  // Migrations and seeds under a lock: instances starting together run them once (db/startup.ts).
  // The sign-ins an empty database gets, printed last (below), where nobody scrolls past them.
  const signIns: string[] = [];
  await prepareDatabase(handle, config, app.log, signIns);

  let closing = false;
  let endDelay: (() => void) | undefined;
  const shutdown = async (signal: string) => {
    // A second signal while draining ends the wait: close now.
    if (closing) return endDelay?.();
    closing = true;
    // Readiness first: a proxy or orchestrator polling /api/health/ready stops sending new requests
    // during SHUTDOWN_DELAY_MS, while this process still answers those that reach it.
    app.lifecycle.beginShutdown();
    app.log.info({ signal, delayMs: config.shutdownDelayMs }, 'shutting down');
    if (config.shutdownDelayMs > 0) {
      await new Promise<void>((resolve) => {
        const wait = setTimeout(resolve, config.shutdownDelayMs);
        endDelay = () => {
          clearTimeout(wait);
          resolve();
        };
      });
    }
    // Then close: no new connections, in-flight requests finish (at most 10 s).
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      // Closing the app stops the notices worker: the send in flight finishes, the rest is given back.
      await app.close();
      await handle.destroy();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  // The notices worker, once the database is migrated (another instance may run it: NOTICES_WORKER=off).
  if (config.notices.worker) app.noticeDelivery.start();
  if (!config.webDist) app.log.warn('web app not built: run `npm run build` to serve the screens');
  const shown = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  app.printAfterLogs(readyBanner(`School portal listening on ${shown}  (database: ${handle.dialect})`, signIns));
}

/** The last thing a start prints: where the portal listens and, on a new database, how to sign in. */
function readyBanner(listening: string, signIns: string[]): string {
  const rule = `  ${'─'.repeat(72)}`;
  const blocks = [`  ${listening}`, ...signIns];
  if (signIns.length) blocks.push('  Note these sign-ins now: they are not shown again.');
  return `\n${rule}\n${blocks.join('\n\n')}\n${rule}\n\n`;
}

main().catch((err: unknown) => {
  // A configuration mistake is the operator's to fix: the message alone, without a stack trace.
  if (err instanceof Error && err.message.startsWith('Invalid configuration')) console.error(`\n  ${err.message}\n`);
  else console.error(err);
  process.exit(1);
});
