/**
 * FeeWindowStats (the incremental statistics behind chain::priorityfee::fee streams) against the
 * fee kernels and their reference: the same fields, bit for bit, whatever the batches the samples
 * came in, in any order; duplicates, a single sample, none, and fees above 2^53.
 */
import { describe, expect, it } from 'vitest';
import { createFeeKernels, type FeeSamples } from '../../src/kernels/fees.js';
import { sampleStatsReference } from '../../src/kernels/fees-reference.js';
import { TimeSlices } from '../../src/platform/event-loop.js';
import { FeeWindowStats } from '../../src/priorityfee/fee-window-stats.js';
import { WindowFees } from '../../src/schema/records.js';
import { mulberry32 } from '../helpers/prng.js';
import { tickWhile } from '../helpers/ticks.js';

const FIELDS = WindowFees.fields.map(([name]) => name).filter((name) => /^(price|fee|limit|position)_/.test(name));

function samples(n: number, seed: number, options: { distinct?: number; huge?: boolean } = {}): FeeSamples {
  const random = mulberry32(seed);
  const pick = (scale: number) => BigInt(Math.floor(random() * (options.distinct ?? scale)) * Math.max(1, Math.floor(scale / (options.distinct ?? scale))));
  const price = BigUint64Array.from({ length: n }, () => pick(1e7) + 1n);
  const limit = BigUint64Array.from({ length: n }, () => pick(1.4e6) + 1n);
  const fee = BigUint64Array.from(price, (p, i) => (options.huge && i % 7 === 0 ? 2n ** 60n + p : (p * limit[i]! + 999_999n) / 1_000_000n));
  const position = Float64Array.from({ length: n }, () => {
    const size = 1 + Math.floor(random() * 1500);
    return size === 1 ? 0 : Math.floor(random() * size) / (size - 1);
  });
  return { price, fee, limit, position };
}

const slice = (s: FeeSamples, from: number, to: number): FeeSamples => ({
  price: s.price.subarray(from, to), fee: s.fee.subarray(from, to), limit: s.limit.subarray(from, to), position: s.position.subarray(from, to),
});

function expectSame(window: FeeWindowStats, all: FeeSamples, label: string) {
  const got = window.stats() as Record<string, unknown>;
  const reference = sampleStatsReference(all) as Record<string, unknown>;
  const kernel = createFeeKernels().sampleStats(all) as Record<string, unknown>;
  for (const field of FIELDS) {
    expect(got[field], `${label} ${field} (reference)`).toStrictEqual(reference[field]);
    expect(got[field], `${label} ${field} (kernel)`).toStrictEqual(kernel[field]);
  }
}

describe('FeeWindowStats', () => {
  const cases: [string, number, Parameters<typeof samples>[2]][] = [
    ['distinct values', 5000, {}],
    ['heavy duplicates', 5000, { distinct: 7 }],
    ['fees above 2^53', 3000, { huge: true }],
    ['one sample', 1, {}],
  ];
  for (const [label, n, options] of cases) {
    it(`equals the kernels after every batch: ${label}`, () => {
      const all = samples(n, n + label.length, options);
      const window = new FeeWindowStats();
      const random = mulberry32(7);
      for (let from = 0; from < n; ) {
        const to = Math.min(n, from + 1 + Math.floor(random() * 700));
        window.add(slice(all, from, to));
        expectSame(window, slice(all, 0, to), `${label} [0, ${to})`);
        from = to;
      }
      expect(window.size).toBe(n);
    });
  }

  it('the mean positions do not depend on the order of the samples', () => {
    const all = samples(4000, 11);
    const order = Array.from({ length: 4000 }, (_, i) => i).sort((a, b) => ((a * 7919) % 4001) - ((b * 7919) % 4001));
    const pick = (column: BigUint64Array) => BigUint64Array.from(order, (j) => column[j]!);
    const shuffled = { price: pick(all.price), fee: pick(all.fee), limit: pick(all.limit), position: Float64Array.from(order, (j) => all.position[j]!) };
    const inOrder = createFeeKernels().sampleStats(all) as Record<string, unknown>;
    const window = new FeeWindowStats();
    window.add(shuffled);
    expectSame(window, shuffled, 'shuffled');
    for (const field of FIELDS) expect(window.stats()[field as keyof ReturnType<FeeWindowStats['stats']>], field).toStrictEqual(inOrder[field]);
  });

  it('is all null without samples', () => {
    const stats = new FeeWindowStats().stats() as Record<string, unknown>;
    for (const field of FIELDS) expect(stats[field], field).toBeNull();
  });

  it('made in steps, lets the event loop in between and gives the same statistics', async () => {
    const all = samples(20_000, 11);
    const window = new FeeWindowStats();
    window.add(all);
    const ticking = tickWhile();
    const stepped = await new TimeSlices(0).run(window.statsSteps()); // a slice spent at every step
    expect(ticking.stop()).toBeGreaterThanOrEqual(4);
    const reference = sampleStatsReference(all) as Record<string, unknown>;
    for (const field of FIELDS) expect((stepped as Record<string, unknown>)[field], field).toStrictEqual(reference[field]);
  });
});

