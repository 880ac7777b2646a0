import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the CI scripts, without types.
import { judge } from '../../../../.ci/audit.mjs';

type Judge = (stdout: string, scope: string) => { verdict: 'clean' | 'serious' | 'unanswered'; text: string };
const judgeAudit = judge as Judge;

/** `npm audit --json` as npm 11 prints it (abridged). */
function answer(counts: Record<string, number>, vulnerabilities: Record<string, { name: string; severity: string }> = {}) {
  return JSON.stringify({
    auditReportVersion: 2,
    vulnerabilities,
    metadata: { vulnerabilities: { info: 0, low: 0, moderate: 0, high: 0, critical: 0, ...counts } },
  });
}

describe('.ci/audit.mjs: what CI does with npm audit (decision 048)', () => {
  it('fails on a high or critical advisory, naming the packages', () => {
    const r = judgeAudit(answer({ high: 1 }, { pdfkit: { name: 'pdfkit', severity: 'high' } }), 'server dependencies');
    expect(r.verdict).toBe('serious');
    expect(r.text).toBe('server dependencies: 0 critical, 1 high, 0 moderate, 0 low: pdfkit (high)');
    expect(judgeAudit(answer({ critical: 2 }), 's').verdict).toBe('serious');
  });

  it('passes moderate and low findings, and a clean report', () => {
    expect(judgeAudit(answer({ moderate: 3, low: 1 }), 's').verdict).toBe('clean');
    expect(judgeAudit(answer({}), 's').verdict).toBe('clean');
  });

  it('passes, saying so, when the registry does not answer (a mirror without the audit endpoint, no network)', () => {
    const mirror = JSON.stringify({
      message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
      statusCode: 405,
      error: { summary: '', detail: '' },
    });
    expect(judgeAudit(mirror, 's')).toEqual({
      verdict: 'unanswered',
      text: 's: the registry did not answer the audit (405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk)',
    });
    expect(judgeAudit('', 's').verdict).toBe('unanswered');
  });
});
