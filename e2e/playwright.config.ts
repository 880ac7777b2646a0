import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './chromium';

const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://127.0.0.1:${port}`;
// Each run gets its own data directory: a fresh demo school, no leftovers from earlier runs.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'off',
    // The app's service worker (docs/decisions/045) would answer requests before `page.route` sees them:
    // blocked in every spec but those about the installable app (offline-*.spec.ts allow it).
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The compiled server, as `npm start` runs it, compiled afresh each run (esbuild, well under a second).
    command: 'node --import tsx ../apps/server/build.ts && node --enable-source-maps ../apps/server/dist/main.js',
    url: `${baseURL}/api/health/ready`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: '1',
      // The demo school's staff and students keep random passwords: every spec signs in with accounts
      // it made itself (school.ts), and fixtures.ts takes no default staff or student sign-in.
      ADMIN_EMAIL: 'admin@e2e.school',
      ADMIN_PASSWORD: 'Admin-E2E-Pass-1',
      // Many specs sign in within a minute from one address; the per-address limit is tested by the API
      // tests (auth-hardening), the per-account block by sign-in-blocks.spec.ts, which this leaves on.
      LOGIN_RATE_LIMIT_PER_MINUTE: '600',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      ...(process.env.E2E_WEB_DIST ? { WEB_DIST: path.resolve(process.env.E2E_WEB_DIST) } : {}),
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
    },
  },
});
