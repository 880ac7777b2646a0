#!/usr/bin/env node
/**
 * `npm run dev`: the API and the web client with reload, in one terminal.
 *
 *   api  node --watch --import tsx apps/server/src/main.ts  (restarts on a change to the server's code;
 *        pretty logs at debug: one line per request; the database and .env of the project folder, as
 *        `npm start` uses)
 *   web  vite in apps/web  (hot reload on http://localhost:5173, `/api` proxied to the API on :3000)
 *
 * Each line is prefixed with its process's name; Ctrl-C (or either process ending) stops both. No
 * runner package (concurrently and the like) for forty lines of child_process.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// vite's package.json is exported; its bin is not: found beside it.
const vite = path.join(path.dirname(createRequire(path.join(root, 'apps/web/package.json')).resolve('vite/package.json')), 'bin/vite.js');
const colour = process.stdout.isTTY ? (code, text) => `\x1b[${code}m${text}\x1b[0m` : (_code, text) => text;

const processes = [
  {
    name: 'api',
    colour: 36,
    args: ['--watch', '--import', 'tsx', 'apps/server/src/main.ts'],
    cwd: root,
    // Pretty logs even though the output is a pipe (the runner's), and every request on a line.
    env: { LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug', FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
  },
  { name: 'web', colour: 35, args: [vite], cwd: path.join(root, 'apps/web'), env: {} },
];

let stopping = false;
const children = processes.map((p) => {
  const child = spawn(process.execPath, p.args, {
    cwd: p.cwd,
    // The developer's own settings win (LOG_LEVEL=info npm run dev).
    env: { ...p.env, ...process.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = colour(p.colour, `${p.name} │ `);
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      process.stdout.write(`${prefix}stopped (${signal ?? `exit ${code}`}): stopping the other\n`);
      stop(code ?? 1);
    }
  });
  return child;
});

function stop(code) {
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
