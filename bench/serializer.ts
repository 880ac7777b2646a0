/**
 * How fast a large JSON answer is written (issue 37.12, decision 052): the same answer through
 * - JSON.stringify (a route without a response schema),
 * - fastify-type-provider-zod's serializer (zod encode + JSON.stringify: what a response schema cost before),
 * - the portal's serializer in production (fast-json-stringify from the zod schema),
 * - the portal's serializer in tests (the same plus the zod check and the comparison).
 *
 *   node --import tsx bench/serializer.ts [--rows 1500] [--ms 3000]
 */
import { serializerCompiler as zodProviderSerializer } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createResponseSerializerCompiler } from '../apps/server/src/http/response-serializer';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROWS = arg('rows', 1500);
const MS = arg('ms', 3000);

// A class's score sheet / a student list: strings, numbers, nulls, a nested object and a list per row.
const row = z.object({
  id: z.number().int(),
  admission_number: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  other_names: z.string().nullable(),
  arm: z.string(),
  gender: z.enum(['male', 'female']),
  date_of_birth: z.string().nullable(),
  scores: z.object({ ca1: z.number().nullable(), ca2: z.number().nullable(), exam: z.number().nullable() }),
  total: z.number().nullable(),
  grade: z.string().nullable(),
  position: z.number().int().nullable(),
  remarks: z.array(z.string()),
  version: z.number().int(),
  updated_at: z.string(),
});
const answer = z.object({ count: z.number().int(), next: z.string().nullable(), results: z.array(row) });

const data = {
  count: ROWS,
  next: null,
  results: Array.from({ length: ROWS }, (_, i) => ({
    id: i + 1,
    admission_number: `STU-${String(i + 1).padStart(4, '0')}`,
    first_name: `Chinedu ${i}`,
    last_name: 'Okafor',
    other_names: i % 3 ? null : 'Emeka',
    arm: `JSS ${1 + (i % 3)}${'ABC'[i % 3]}`,
    gender: i % 2 ? 'male' : 'female',
    date_of_birth: i % 5 ? '2012-03-04' : null,
    scores: { ca1: i % 20, ca2: i % 7 ? 15 : null, exam: 40 + (i % 30) },
    total: i % 7 ? 70 + (i % 20) : null,
    grade: i % 7 ? 'B' : null,
    position: i % 7 ? (i % 60) + 1 : null,
    remarks: i % 4 ? [] : ['Good conduct', 'Punctual'],
    version: 1 + (i % 3),
    updated_at: '2026-11-29T09:00:00.000Z',
  })),
};

const args = { schema: answer, method: 'GET', url: '/bench', httpStatus: '200' };
const candidates: [string, (d: unknown) => string][] = [
  ['JSON.stringify (no schema)', (d) => JSON.stringify(d)],
  ['zod encode + JSON.stringify (fastify-type-provider-zod, before)', zodProviderSerializer(args) as (d: unknown) => string],
  [
    'fast-json-stringify from the zod schema (production, after)',
    createResponseSerializerCompiler({ check: false })(args) as (d: unknown) => string,
  ],
  ['tests: the above + zod check + comparison', createResponseSerializerCompiler({ check: true })(args) as (d: unknown) => string],
];

const bytes = Buffer.byteLength(JSON.stringify(data));
console.log(`answer: ${ROWS} rows, ${(bytes / 1024).toFixed(0)} KB; ${MS} ms per serializer, after a warm-up`);
const reference = JSON.parse(JSON.stringify(data)) as unknown;
for (const [name, fn] of candidates) {
  // Same JSON out, whichever writes it.
  if (JSON.stringify(JSON.parse(fn(data))) !== JSON.stringify(reference)) throw new Error(`${name}: different JSON`);
  for (let i = 0; i < 20; i++) fn(data);
  const times: number[] = [];
  const end = performance.now() + MS;
  while (performance.now() < end) {
    const t = performance.now();
    fn(data);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)]!;
  const p90 = times[Math.floor(times.length * 0.9)]!;
  console.log(
    `${name.padEnd(66)} p50 ${p50.toFixed(2)} ms  p90 ${p90.toFixed(2)} ms  (${times.length} runs, ${(bytes / 1e6 / (p50 / 1000)).toFixed(0)} MB/s)`,
  );
}
