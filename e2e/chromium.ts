import { existsSync } from 'node:fs';

/** The system Chromium (Debian package `chromium`); Playwright never downloads a browser here. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(p));
}
