import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeGetBlockFile } from '../../src/ingest/solana/index.js';
import {
  createFeeKernels, feeKernelsModule, type BlockColumns, type BlockFeeStats, type FeeSamples, type ManyBlockColumns,
} from '../../src/kernels/fees.js';
import { blockFeeStatsReference, sampleStatsReference } from '../../src/kernels/fees-reference.js';
import { kernelsModule } from '../../src/kernels/instance.js';
import type { TransactionRow } from '../../src/schema/tables.js';
import { BlockFees } from '../../src/schema/records.js';
// the suffix-to-percentile map is the oracle's own, not the schema's
import { AT_FEE_PERCENTILES, SUFFIX_PERCENTILES } from '../oracle/percentile.js';
import { exactSum } from '../oracle/rational.js';
import { REAL_DATA } from '../helpers/real-data.js';

const U64_MAX = (1n << 64n) - 1n;
const TWO_53 = 1n << 53n;

/** mulberry32: a seeded generator of floats in [0, 1) and u32s. */
function generator(seed: number) {
  let s = seed >>> 0;
  const u32 = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const float = () => u32() / 2 ** 32;
  return {
    u32,
    float,
    int: (below: number) => Math.floor(float() * below),
    u64: () => (BigInt(u32()) << 32n) | BigInt(u32()),
    gauss: () => Math.sqrt(-2 * Math.log(1 - float())) * Math.cos(2 * Math.PI * float()),
    pick: <T>(items: readonly T[]) => items[Math.floor(float() * items.length)]!,
  };
}
type Generator = ReturnType<typeof generator>;

/** A compute-unit price: log-normal around 50,000 micro-lamports, 1% of them above 2^53. */
function drawPrice(g: Generator): bigint {
  if (g.float() < 0.01) return TWO_53 + (g.u64() >> 11n) + (g.u64() >> 1n);
  return BigInt(Math.max(1, Math.floor(Math.exp(Math.log(50_000) + 2.5 * g.gauss()))));
}

/** A compute-unit limit up to 1.4M, with the 200,000 default often. */
function drawLimit(g: Generator): number {
  return g.float() < 0.3 ? 200_000 : 1 + g.int(1_400_000);
}

/** Random samples as a block would give them: fee = ceil(price x limit / 10^6) (mod 2^64). */
function randomSamples(n: number, seed: number): FeeSamples {
  const g = generator(seed);
  const samples = { price: new BigUint64Array(n), fee: new BigUint64Array(n), limit: new BigUint64Array(n), position: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const price = drawPrice(g);
    const limit = BigInt(drawLimit(g));
    samples.price[i] = price;
    samples.limit[i] = limit;
    samples.fee[i] = BigInt.asUintN(64, (price * limit + 999_999n) / 1_000_000n);
    const size = 1 + g.int(3000);
    samples.position[i] = g.float() < 0.05 ? g.pick([0, 1]) : size === 1 ? 0 : g.int(size) / (size - 1);
  }
  return samples;
}

/** One random block of `n` transactions in one of several shapes. */
function randomBlock(n: number, g: Generator, shape: string): BlockColumns {
  const block: BlockColumns = {
    isVote: new Uint8Array(n),
    computeUnitPrice: new BigUint64Array(n),
    priorityFee: new BigUint64Array(n),
    computeUnitLimit: new Uint32Array(n),
    computeUnitsConsumed: new BigUint64Array(n),
    index: new Uint32Array(n),
  };
  const tiers = [1n, 2n, TWO_53 + 1n, U64_MAX];
  for (let i = 0; i < n; i++) {
    block.index[i] = i;
    block.isVote[i] = shape === 'all votes' || (shape !== 'no votes' && g.float() < 0.3) ? 1 : 0;
    const paying = shape !== 'all zero-price' && g.float() < 0.7;
    const price = !paying ? 0n : shape === 'duplicates' ? g.pick(tiers) : drawPrice(g);
    const limit = drawLimit(g);
    block.computeUnitPrice[i] = price;
    block.computeUnitLimit[i] = limit;
    block.priorityFee[i] = shape === 'huge sums' ? U64_MAX - BigInt(g.int(1000)) : BigInt.asUintN(64, (price * BigInt(limit) + 999_999n) / 1_000_000n);
    block.computeUnitsConsumed[i] = shape === 'huge sums' ? g.u64() : BigInt(g.int(limit + 1));
  }
  if (shape === 'shuffled index') {
    for (let i = n - 1; i > 0; i--) {
      const j = g.int(i + 1);
      [block.index[i], block.index[j]] = [block.index[j]!, block.index[i]!];
    }
  }
  return block;
}

/** Blocks back to back, with their offsets. */
function concat(blocks: BlockColumns[]): ManyBlockColumns {
  const rows = blocks.reduce((sum, b) => sum + b.isVote.length, 0);
  const many: ManyBlockColumns = {
    isVote: new Uint8Array(rows),
    computeUnitPrice: new BigUint64Array(rows),
    priorityFee: new BigUint64Array(rows),
    computeUnitLimit: new Uint32Array(rows),
    computeUnitsConsumed: new BigUint64Array(rows),
    index: new Uint32Array(rows),
    offsets: new Uint32Array(blocks.length + 1),
  };
  if (blocks.some((b) => b.consumedKnown)) many.consumedKnown = new Uint8Array(rows);
  let at = 0;
  blocks.forEach((b, i) => {
    many.consumedKnown?.set(b.consumedKnown ?? new Uint8Array(b.isVote.length).fill(1), at);
    many.isVote.set(b.isVote, at);
    many.computeUnitPrice.set(b.computeUnitPrice, at);
    many.priorityFee.set(b.priorityFee, at);
    many.computeUnitLimit.set(b.computeUnitLimit, at);
    many.computeUnitsConsumed.set(b.computeUnitsConsumed, at);
    many.index.set(b.index, at);
    at += b.isVote.length;
    many.offsets[i + 1] = at;
  });
  return many;
}

/** Every BlockFees field a kernel answers: all but id, slot and timestamp. */
const STAT_FIELDS = BlockFees.fields.map(([name]) => name).filter((name) => !['id', 'slot', 'timestamp'].includes(name));
/** The block totals among them: the fields that a block without samples still has. */
const TOTAL_FIELDS = ['tx_count', 'no_priority_tx_count', 'total_tx_count', 'total_priority_fees', 'total_compute_units', 'total_compute_budget', 'cu_utilization_pct'];

const kernels = createFeeKernels();

describe('sampleStats kernel vs the reference', () => {
  it('agrees on every statistic of 10^6 random samples (prices above 2^53, sums above 2^64)', () => {
    const samples = randomSamples(1_000_000, 1);
    const expected = sampleStatsReference(samples);
    expect(kernels.sampleStats(samples)).toEqual(expected);
    expect(expected.price_max! > TWO_53).toBe(true);
  });

  it('std_dev is the population standard deviation to 1e-14 (exact BigInt variance)', () => {
    for (const [n, seed] of [[1_000_000, 2], [1000, 3], [7, 4]] as const) {
      const samples = randomSamples(n, seed);
      let sum = 0n;
      let squares = 0n;
      for (const x of samples.price) {
        sum += x;
        squares += x * x;
      }
      const N = BigInt(n);
      const exact = Math.sqrt(Number(N * squares - sum * sum)) / n;
      const got = kernels.sampleStats(samples).std_dev!;
      expect(Math.abs(got - exact) / exact).toBeLessThan(1e-14);
    }
  });

  it('agrees on values near 2^64, equal values, narrow bands, n = 1, 2, 3 and around 4096 values', () => {
    const g = generator(5);
    const cases: FeeSamples[] = [
      {
        price: BigUint64Array.from({ length: 100_003 }, () => U64_MAX - (g.u64() >> 40n)),
        fee: BigUint64Array.from({ length: 100_003 }, () => g.u64()),
        limit: BigUint64Array.from({ length: 100_003 }, () => g.pick([1n, 200_000n, 1_400_000n])),
        position: Float64Array.from({ length: 100_003 }, () => g.float()),
      },
      {
        price: new BigUint64Array(5000).fill(TWO_53 + 1n),
        fee: new BigUint64Array(5000).fill(7n),
        limit: new BigUint64Array(5000).fill(200_000n),
        position: new Float64Array(5000).fill(0.5),
      },
      ...[1, 2, 3].map((n) => randomSamples(n, n)),
      randomSamples(4096, 6), // the largest set whose percentiles come from buckets, not the select
      randomSamples(4097, 7),
    ];
    // Many distinct values in one bucket (a narrow band) and two values interleaved in one.
    const band = randomSamples(3000, 8);
    band.price = BigUint64Array.from({ length: 3000 }, () => 1_000_000n + BigInt(g.int(30_000)));
    band.limit = BigUint64Array.from({ length: 3000 }, () => g.pick([200_000n, 200_001n]));
    band.fee = BigUint64Array.from({ length: 3000 }, () => TWO_53 + (g.u64() >> 48n));
    cases.push(band);
    for (const samples of cases) expect(kernels.sampleStats(samples)).toEqual(sampleStatsReference(samples));
  });

  it('rounds u64 means half up, exactly', () => {
    const samples = { price: BigUint64Array.of(1n, 2n), fee: BigUint64Array.of(U64_MAX, U64_MAX - 1n), limit: BigUint64Array.of(1n, 2n), position: Float64Array.of(0, 1) };
    const stats = kernels.sampleStats(samples);
    expect(stats.price_mean).toBe(2n); // 1.5 -> 2
    expect(stats.fee_mean).toBe(U64_MAX); // (2^65 - 3) / 2 = 2^64 - 1.5 -> 2^64 - 1
    expect(stats).toEqual(sampleStatsReference(samples));
  });

  it('uses integer arithmetic where numpy lands one rank higher (n = 100, p55 = x[54])', () => {
    const g = generator(6);
    const order = Array.from({ length: 100 }, (_, i) => i + 1).sort(() => g.float() - 0.5);
    const samples = {
      price: BigUint64Array.from(order, BigInt),
      fee: BigUint64Array.from(order, (x) => BigInt(x * 10)),
      limit: BigUint64Array.from(order, BigInt),
      position: Float64Array.from(order, (x) => (x - 1) / 99),
    };
    const stats = kernels.sampleStats(samples);
    expect([stats.price_p55, stats.fee_p55, stats.limit_p55, stats.position_p55]).toEqual([55n, 550n, 55n, 54 / 99]);
    expect([stats.price_min, stats.price_max, stats.price_median]).toEqual([1n, 100n, 50n]);
  });

  it('answers null for every field of an empty sample set', () => {
    const empty = { price: new BigUint64Array(0), fee: new BigUint64Array(0), limit: new BigUint64Array(0), position: new Float64Array(0) };
    const stats = kernels.sampleStats(empty);
    expect(Object.values(stats).every((v) => v === null)).toBe(true);
    expect(stats).toEqual(sampleStatsReference(empty));
  });

  it('survives memory growth between calls', () => {
    const fresh = createFeeKernels();
    for (const n of [10, 200_000, 3, 1_000_000, 50]) {
      const samples = randomSamples(n, n);
      expect(fresh.sampleStats(samples)).toEqual(sampleStatsReference(samples));
    }
  });

  it('throws on columns of different lengths', () => {
    const samples = randomSamples(10, 1);
    expect(() => kernels.sampleStats({ ...samples, fee: samples.fee.subarray(1) })).toThrow(/differ in length/);
  });
});

describe('blockFeeStats kernel vs the reference', () => {
  const SHAPES = ['mixed', 'no votes', 'all votes', 'all zero-price', 'duplicates', 'shuffled index', 'huge sums'];

  function smallBlocks(count: number, seed: number): BlockColumns[] {
    const g = generator(seed);
    return Array.from({ length: count }, (_, i) => randomBlock(i < 4 * SHAPES.length ? i % 4 : g.int(41), g, SHAPES[i % SHAPES.length]!));
  }

  it('agrees on 2000 small blocks (n = 0..40; all votes, all zero-price, duplicates, u128 sums)', () => {
    for (const block of smallBlocks(2000, 7)) expect(kernels.blockFeeStats(block)).toEqual(blockFeeStatsReference(block));
  });

  it('blockFeeStatsMany agrees block by block, over calls split by its row budget', () => {
    const g = generator(8);
    const blocks = [
      ...smallBlocks(300, 9),
      ...Array.from({ length: 200 }, () => randomBlock(1500, g, 'mixed')),
      randomBlock(300_000, g, 'mixed'), // more rows than one trip takes: goes alone
      ...smallBlocks(50, 10),
    ];
    const many = concat(blocks);
    expect(many.isVote.length).toBeGreaterThan(2 ** 19);
    expect(kernels.blockFeeStatsMany(many)).toEqual(blocks.map(blockFeeStatsReference));
  });

  it('total_compute_units and cu_utilization_pct are null when a non-vote transaction does not know its consumed CUs', () => {
    const g = generator(17);
    const blocks = smallBlocks(400, 18).map((block) => ({ ...block, consumedKnown: Uint8Array.from(block.isVote, () => (g.float() < 0.05 ? 0 : 1)) }));
    const stats = kernels.blockFeeStatsMany(concat(blocks));
    expect(stats).toEqual(blocks.map(blockFeeStatsReference));
    expect(stats.filter((s) => s.total_compute_units === null).length).toBeGreaterThan(10);
    // by hand: an unknown vote leaves the totals known, an unknown non-vote transaction does not
    const three: BlockColumns = {
      isVote: Uint8Array.of(1, 0, 0), computeUnitPrice: BigUint64Array.of(0n, 5n, 0n), priorityFee: BigUint64Array.of(0n, 1n, 0n),
      computeUnitLimit: Uint32Array.of(200_000, 100_000, 300_000), computeUnitsConsumed: BigUint64Array.of(0n, 40_000n, 60_000n),
      consumedKnown: Uint8Array.of(0, 1, 1), index: Uint32Array.of(0, 1, 2),
    };
    expect(kernels.blockFeeStats(three)).toMatchObject({ total_compute_units: 100_000n, cu_utilization_pct: 25, total_compute_budget: 400_000n });
    three.consumedKnown![2] = 0;
    expect(kernels.blockFeeStats(three)).toMatchObject({ total_compute_units: null, cu_utilization_pct: null, total_compute_budget: 400_000n });
  });

  it('a block without fee-paying transactions has its totals and null statistics', () => {
    const g = generator(11);
    for (const shape of ['all votes', 'all zero-price']) {
      const stats = kernels.blockFeeStats(randomBlock(20, g, shape));
      expect(stats.tx_count).toBe(0);
      expect(stats.total_tx_count).toBe(20);
      for (const name of STAT_FIELDS.filter((f) => !TOTAL_FIELDS.includes(f))) {
        expect(stats[name as keyof BlockFeeStats], name).toBeNull();
      }
      if (shape === 'all votes') expect(stats.cu_utilization_pct).toBeNull(); // nothing requested
    }
  });

  it('agrees when indexes are not 0..n-1 (past 4096, up to 2^32 - 1, repeated)', () => {
    const g = generator(16);
    for (const top of [5000, 2 ** 32 - 1]) {
      const block = randomBlock(200, g, 'no votes');
      block.index = Uint32Array.from(block.index, (i) => (i % 3 === 0 ? g.int(top + 1) : i % 7));
      expect(kernels.blockFeeStats(block)).toEqual(blockFeeStatsReference(block));
    }
    // The exact counts are left clean for the next block.
    const after = randomBlock(300, g, 'mixed');
    expect(kernels.blockFeeStats(after)).toEqual(blockFeeStatsReference(after));
  });

  it('position is index / (n - 1) over all transactions, votes included; 0 when n = 1', () => {
    const block = randomBlock(5, generator(12), 'no votes');
    block.computeUnitPrice.fill(10n);
    block.isVote[0] = 1;
    const stats = kernels.blockFeeStats(block);
    expect([stats.position_min, stats.position_max, stats.position_mean]).toEqual([0.25, 1, (0.25 + 0.5 + 0.75 + 1) / 4]);
    const one = randomBlock(1, generator(13), 'no votes');
    one.computeUnitPrice[0] = 5n;
    one.index[0] = 0;
    expect(kernels.blockFeeStats(one).position_max).toBe(0);
  });

  it('answers every BlockFees field but id, slot and timestamp, named from the schema', () => {
    const stats = kernels.blockFeeStats(randomBlock(30, generator(14), 'no votes'));
    expect(Object.keys(stats).sort()).toEqual([...STAT_FIELDS].sort());
    const empty = kernels.sampleStats({ price: new BigUint64Array(0), fee: new BigUint64Array(0), limit: new BigUint64Array(0), position: new Float64Array(0) });
    expect(Object.keys(empty).sort()).toEqual(STAT_FIELDS.filter((f) => !TOTAL_FIELDS.includes(f)).sort());
  });

  it('rejects bad offsets', () => {
    const many = concat([randomBlock(5, generator(15), 'mixed')]);
    expect(() => kernels.blockFeeStatsMany({ ...many, offsets: Uint32Array.of(0, 6) })).toThrow(/past the columns/);
    expect(() => kernels.blockFeeStatsMany({ ...many, offsets: Uint32Array.of(0, 3, 2) })).toThrow(/decrease/);
    expect(kernels.blockFeeStatsMany({ ...many, offsets: Uint32Array.of(0) })).toEqual([]);
  });

  it('exports the same status codes as the percentile kernels', () => {
    const statuses = (module: WebAssembly.Module) => WebAssembly.Module.exports(module).filter((e) => e.name.startsWith('Status.')).map((e) => e.name);
    expect(statuses(feeKernelsModule())).toEqual(statuses(kernelsModule()));
  });
});

describe('a real block: slot 254170887 (helius-labs/photon, Apache-2.0; test/fixtures/real/PROVENANCE.md)', () => {
  const path = `${REAL_DATA}blocks/block-254170887.json-encoding.json`;
  const decoded = decodeGetBlockFile(readFileSync(path, 'utf8'), path);
  const rows: TransactionRow[] = decoded.transactions;
  const block: BlockColumns = {
    isVote: Uint8Array.from(rows, (t) => (t.is_vote ? 1 : 0)),
    computeUnitPrice: BigUint64Array.from(rows, (t) => t.compute_unit_price),
    priorityFee: BigUint64Array.from(rows, (t) => t.priority_fee ?? 0n),
    computeUnitLimit: Uint32Array.from(rows, (t) => t.compute_unit_limit),
    computeUnitsConsumed: BigUint64Array.from(rows, (t) => t.compute_units_consumed ?? 0n),
    consumedKnown: Uint8Array.from(rows, (t) => (t.compute_units_consumed === null ? 0 : 1)),
    index: Uint32Array.from(rows, (t) => t.index),
  };
  const stats = kernels.blockFeeStats(block);

  it('has the block\'s counts and total priority fees', () => {
    expect(decoded.rejections).toEqual([]);
    expect(rows.every((t) => t.priority_fee !== null && t.priority_fee !== undefined)).toBe(true);
    expect(stats.tx_count).toBe(409);
    expect(stats.no_priority_tx_count).toBe(35);
    expect(stats.total_tx_count).toBe(602);
    expect(stats.total_priority_fees).toBe(30_778_246n);
  });

  it('matches every field computed here from the transaction rows', () => {
    const n = rows.length;
    const nonVote = rows.filter((t) => !t.is_vote);
    const paying = nonVote.filter((t) => t.compute_unit_price > 0n);
    const ascending = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
    const at = <T>(sorted: T[], millis: number) => sorted[Math.max(0, Math.ceil((millis * sorted.length) / 100_000) - 1)]!;
    const sumOf = (xs: bigint[]) => xs.reduce((s, x) => s + x, 0n);
    const expected: Record<string, bigint | number> = {};
    const positions = paying.map((t) => t.index / (n - 1));
    const columns: [string, bigint[]][] = [
      ['price', paying.map((t) => t.compute_unit_price)],
      ['fee', paying.map((t) => t.priority_fee!)],
      ['limit', paying.map((t) => BigInt(t.compute_unit_limit))],
    ];
    for (const [family, values] of columns) {
      const sorted = [...values].sort(ascending);
      const count = BigInt(values.length);
      for (const [suffix, p] of SUFFIX_PERCENTILES) {
        const millis = p === 'mean' ? undefined : p;
        expected[`${family}_${suffix}`] = millis === undefined ? (sumOf(values) * 2n + count) / (2n * count) : at(sorted, millis);
      }
      expected[`${family}_spread`] = sorted[sorted.length - 1]! - sorted[0]!;
    }
    const sortedPositions = [...positions].sort((a, b) => a - b);
    for (const [suffix, p] of SUFFIX_PERCENTILES) {
      const millis = p === 'mean' ? undefined : p;
      expected[`position_${suffix}`] = millis === undefined ? exactSum(positions) / positions.length : at(sortedPositions, millis);
    }
    expected.position_spread = sortedPositions[sortedPositions.length - 1]! - sortedPositions[0]!;
    const prices = columns[0]![1];
    const count = BigInt(prices.length);
    const squares = prices.reduce((s, x) => s + x * x, 0n);
    expected.std_dev = Math.sqrt(Number(count * squares - sumOf(prices) ** 2n)) / prices.length;
    const fees = [...columns[1]![1]].sort(ascending);
    for (const p of AT_FEE_PERCENTILES) {
      const threshold = at(fees, p * 1000);
      const chosen = paying.filter((t) => t.priority_fee! >= threshold).map((t) => t.index / (n - 1));
      expected[`position_at_fee_p${p}`] = exactSum(chosen) / chosen.length;
    }
    expected.tx_count = paying.length;
    expected.no_priority_tx_count = nonVote.length - paying.length;
    expected.total_tx_count = n;
    expected.total_priority_fees = sumOf(nonVote.map((t) => t.priority_fee!));
    expected.total_compute_units = sumOf(nonVote.map((t) => t.compute_units_consumed!)); // a 2024 block: every value known
    expected.total_compute_budget = sumOf(nonVote.map((t) => BigInt(t.compute_unit_limit)));
    expected.cu_utilization_pct = (100 * Number(expected.total_compute_units)) / Number(expected.total_compute_budget);

    expect(Object.keys(expected).sort()).toEqual([...STAT_FIELDS].sort());
    for (const [name, want] of Object.entries(expected)) {
      const got = stats[name as keyof BlockFeeStats];
      if (typeof want === 'bigint' || Number.isInteger(want)) expect(got, name).toBe(want);
      else expect(Math.abs((got as number) - want) / Math.abs(want), name).toBeLessThan(1e-12);
    }
    expect(stats).toEqual(blockFeeStatsReference(block));
  });
});
