#!/usr/bin/env node
/**
 * `npm audit` in CI (docs/decisions/048): the dependencies the server runs (`--omit=dev`) must have no
 * high or critical advisory; the development tools' findings are printed, not fatal (they never
 * reach a school's server). A registry that does not answer the audit (a mirror without the
 * advisories endpoint, no network) is reported and passes: the run is not held hostage to it.
 *
 *   node .ci/audit.mjs        exit 1 on high/critical in production dependencies, 0 otherwise
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** What to do with one `npm audit --json` answer (its stdout) for `scope`. */
export function judge(stdout, scope) {
  let report;
  try {
    report = JSON.parse(stdout);
  } catch {
    return { verdict: 'unanswered', text: `${scope}: npm audit printed no JSON (registry unreachable?)` };
  }
  const counts = report?.metadata?.vulnerabilities;
  if (!counts) {
    const why = report?.error?.summary || report?.message || 'no audit report';
    return { verdict: 'unanswered', text: `${scope}: the registry did not answer the audit (${why})` };
  }
  const serious = (counts.high ?? 0) + (counts.critical ?? 0);
  const summary = ['critical', 'high', 'moderate', 'low'].map((k) => `${counts[k] ?? 0} ${k}`).join(', ');
  const names = Object.values(report.vulnerabilities ?? {})
    .filter((v) => v.severity === 'high' || v.severity === 'critical')
    .map((v) => `${v.name} (${v.severity})`);
  return {
    verdict: serious > 0 ? 'serious' : 'clean',
    text: `${scope}: ${summary}${names.length ? `: ${names.join(', ')}` : ''}`,
  };
}

function audit(args) {
  return spawnSync('npm', ['audit', '--json', ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const production = judge(audit(['--omit=dev']), 'server dependencies');
  const all = judge(audit([]), 'all dependencies (development tools included)');
  for (const r of [production, all]) console.log(`npm audit: ${r.text}`);
  if (production.verdict === 'unanswered') console.log('npm audit: not checked here; passes (decision 048)');
  if (production.verdict === 'serious') {
    console.error('npm audit: high or critical advisories in the server dependencies: update them (npm audit fix) or record why not');
    process.exit(1);
  }
}
