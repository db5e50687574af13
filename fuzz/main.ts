/**
 * `npm run fuzz -- --cases 100000 [--seed 1] [--json out.json]`: the long fuzz campaign over the
 * four transports; prints each transport's figures and exits 1 when any body crashed, hung, was
 * misrouted, got -32603, a malformed or an oversized reply.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { failures, runCampaign, type TransportFigures } from './campaign.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '1' },
    json: { type: 'string' },
  },
});
const cases = Number(values.cases);
const seed = Number(values.seed);
if (!Number.isSafeInteger(cases) || cases < 1) throw new Error(`--cases must be a positive integer, got ${values.cases}`);
if (!Number.isSafeInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);

const line = (f: TransportFigures) => {
  const v = f.verdicts;
  return `${f.transport.padEnd(13)} ${String(f.cases).padStart(7)} cases: ${v.ok} answered, ${v.refused} refused by the client (-32600); ` +
    `crashes ${v.crash}, hangs ${v.hang}, misrouted ${v.misrouted}, -32603 ${v.internal}, malformed ${v.malformed}, oversized ${v.oversized}; ` +
    `slowest ${f.slowestMs.toFixed(0)} ms; codes ${JSON.stringify(f.codes)}`;
};

const started = performance.now();
console.log(`fuzzing ${cases} bodies per transport, seed ${seed}`);
const figures = await runCampaign({ cases, seed }, (f) => console.log(line(f)));
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
for (const f of figures) for (const e of f.examples) console.log(`  ${f.transport} ${e.verdict}: ${e.body}`);
if (values.json) writeFileSync(values.json, `${JSON.stringify({ cases, seed, figures }, null, 2)}\n`);
process.exitCode = figures.some((f) => failures(f) > 0) ? 1 : 0;
