import { writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Fault injection for the crash tests (test/faults/crash-recovery.test.ts): at a named point the
 * server writes `<PORTAL_FAULT_DIR>/<name>.reached` and then holds for PORTAL_FAULT_HOLD_MS, so the
 * test can SIGKILL it at exactly that point (e.g. inside the CSV import's open transaction).
 * A no-op unless PORTAL_FAULT_DIR is set, and always in production.
 */
export async function faultPoint(name: string): Promise<void> {
  const dir = process.env.PORTAL_FAULT_DIR;
  if (!dir || process.env.NODE_ENV === 'production') return;
  writeFileSync(path.join(dir, `${name}.reached`), new Date().toISOString());
  const hold = Number(process.env.PORTAL_FAULT_HOLD_MS ?? 0);
  if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
}
