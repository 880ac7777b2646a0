// For each report: its time and the longest gap between two turns of the event loop (the longest block).
import { buildApp } from './src/app';
import { loadConfig } from './src/config';
import { createDatabase } from './src/db/index';
process.env.DATABASE_URL = 'sqlite:/tmp/heavy-school.db';
process.env.DATA_DIR = '/tmp/heavy-data';
const handle = createDatabase('sqlite:/tmp/heavy-school.db');
const app = await buildApp({ config: { ...loadConfig(), logLevel: 'silent' }, handle });
await app.ready();
const login = await app.inject({ method: 'POST', url: '/api/admin/login/', payload: { email: 'bench-admin@bench.school', password: 'Bench-Admin-Pass-2026' } });
const auth = { authorization: `Bearer ${login.json().data.access}` };
for (const url of process.argv.slice(2)) {
  const gaps: number[] = []; const totals: number[] = [];
  for (let run = 0; run < 3; run++) {
    let done = false; let last = performance.now(); let max = 0;
    const spin = (async () => { while (!done) { await new Promise((r) => setImmediate(r)); const t = performance.now(); max = Math.max(max, t - last); last = t; } })();
    const t0 = performance.now();
    const r = await app.inject({ method: 'GET', url, headers: auth });
    const t1 = performance.now(); max = Math.max(max, t1 - last);
    done = true; await spin;
    if (r.statusCode !== 200) console.log(url, r.statusCode, r.body.slice(0, 200));
    gaps.push(max); totals.push(t1 - t0);
  }
  console.log(`${url.padEnd(70)} total ${totals.map((t) => t.toFixed(0)).join('/')} ms, longest block ${gaps.map((t) => t.toFixed(0)).join('/')} ms`);
}
await app.close();
