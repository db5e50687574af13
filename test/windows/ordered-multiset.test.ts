import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/generate/prng.js';
import { STAT_SUFFIXES, suffixMillis } from '../../src/schema/records.js';
import { OrderedMultiset } from '../../src/windows/ordered-multiset.js';
import { SlidingBlocks } from '../../src/windows/sliding.js';
import { drawBlock, drawKey, entriesOf, SortedOracle, TWO_53, TWO_63, U64_MAX, type Block, type Entry } from './set-oracle.js';

/** Every percentile of the project's stat families (mean has none). */
const SUFFIX_MILLIS = STAT_SUFFIXES.map(suffixMillis).filter((p): p is number => p !== undefined);

interface Scenario {
  seed: number;
  blocks: number;
  windowBlocks: number;
  maxBlockKeys: number;
  chunkCapacity?: number;
  keyPool?: readonly bigint[];
  /** Blocks before this one add their keys without payloads (all 0). */
  payloadsFrom?: number;
}

function fail(step: string, what: string, actual: unknown, expected: unknown): never {
  expect.unreachable(`${step}: ${what} = ${actual}, expected ${expected}`);
  throw new Error('unreachable');
}

/**
 * Slides a window over `blocks` blocks, then drains it; after every step queries the multiset and
 * compares it with the oracle. Returns how many payload sums it compared.
 */
function simulate(scenario: Scenario): number {
  const rng = Rng.from(scenario.seed, 'ordered-multiset');
  const set = new OrderedMultiset({ chunkCapacity: scenario.chunkCapacity });
  const oracle = new SortedOracle();
  const window = new SlidingBlocks<Block>();
  let sums = 0;
  const span = BigInt(scenario.windowBlocks) * 400n;
  let time = 1_700_000_000_000n;

  const verify = (step: string): void => {
    const n = set.size;
    if (n !== oracle.size) fail(step, 'size', n, oracle.size);
    if (n === 0) {
      expect(() => set.percentile(50_000)).toThrow(RangeError);
      expect(set.countAtLeast(0n)).toBe(0);
      expect(set.payloadSumAtLeast(0n)).toBe(0);
      return;
    }
    const percentiles = set.percentiles(SUFFIX_MILLIS);
    const ranks = [rng.int(n), rng.int(n), rng.int(n), 0, n - 1];
    const kths = ranks.map((k) => set.kth(k));
    const hit = set.kth(rng.int(n));
    const min = set.min();
    const max = set.max();
    const probes = [hit, hit - 1n, hit + 1n, drawKey(rng, scenario.keyPool), 0n, -1n, min - 1n, max + 1n, U64_MAX, U64_MAX + 1n];
    SUFFIX_MILLIS.forEach((millis, i) => {
      const expected = oracle.percentile(millis);
      if (percentiles[i] !== expected) fail(step, `percentiles p${millis / 1000}`, percentiles[i], expected);
      if (set.percentile(millis) !== expected) fail(step, `percentile p${millis / 1000}`, set.percentile(millis), expected);
    });
    ranks.forEach((k, i) => {
      if (kths[i] !== oracle.keys[k]) fail(step, `kth(${k})`, kths[i], oracle.keys[k]);
    });
    if (min !== oracle.keys[0]) fail(step, 'min', min, oracle.keys[0]);
    if (max !== oracle.keys[n - 1]) fail(step, 'max', max, oracle.keys[n - 1]);
    for (const x of probes) {
      const atLeast = set.countAtLeast(x);
      const atMost = set.countAtMost(x);
      const sum = set.payloadSumAtLeast(x);
      sums++;
      if (atLeast !== oracle.countAtLeast(x)) fail(step, `countAtLeast(${x})`, atLeast, oracle.countAtLeast(x));
      if (atMost !== oracle.countAtMost(x)) fail(step, `countAtMost(${x})`, atMost, oracle.countAtMost(x));
      const expected = oracle.payloadSumAtLeast(x);
      if (sum !== expected) fail(step, `payloadSumAtLeast(${x})`, sum, expected);
    }
  };

  const expire = (start: bigint): Entry[] => {
    const removed: Entry[] = [];
    for (const { data } of window.expire(start)) {
      // callers may hand a block back in any order
      if (rng.chance(0.3)) set.remove(data.keys.slice().reverse(), data.payloads.slice().reverse());
      else set.remove(data.keys, data.payloads);
      removed.push(...entriesOf(data));
    }
    return removed;
  };

  for (let b = 0; b < scenario.blocks; b++) {
    time += rng.chance(0.02) ? 4_000n : rng.chance(0.1) ? 800n : 400n;
    const block = drawBlock(rng, scenario.maxBlockKeys, scenario.keyPool);
    window.push(time, block);
    if (b < (scenario.payloadsFrom ?? 0)) {
      block.payloads.fill(0);
      set.add(block.keys);
    } else set.add(block.keys, block.payloads);
    // the window is [time + 1 - span, time + 1): the new block is in it
    const removed = expire(time + 1n - span);
    oracle.apply(entriesOf(block), removed);
    verify(`block ${b}`);
  }
  while (window.size > 0) {
    time += span / 8n;
    const removed = expire(time + 1n - span);
    oracle.apply([], removed);
    verify(`drain at ${time}`);
  }
  expect(set.size).toBe(0);
  return sums;
}

describe('OrderedMultiset against a sorted-array oracle', () => {
  const scenarios: [string, Scenario][] = [
    ['priority-fee shape: 600-key blocks, 500-block window over 3000 blocks', { seed: 1, blocks: 3000, windowBlocks: 500, maxBlockKeys: 600 }],
    ['tiny chunks (every split, merge and rebalance path)', { seed: 2, blocks: 1500, windowBlocks: 40, maxBlockKeys: 60, chunkCapacity: 8 }],
    // the set's memory grows while it holds entries: batches over its first input size, slabs
    // doubled, the payloads' slab made only when the first non-zero payload comes
    ['payloads first seen after 300 blocks without them, in batches of up to 2,000', { seed: 4, blocks: 600, windowBlocks: 200, maxBlockKeys: 2000, payloadsFrom: 300 }],
    ['few distinct keys: long runs of equal keys across chunks', { seed: 3, blocks: 800, windowBlocks: 30, maxBlockKeys: 80, chunkCapacity: 16, keyPool: [7n, 8n, U64_MAX] }],
  ];
  for (const [name, scenario] of scenarios) {
    it(name, () => {
      // every payload sum equals the oracle's exact one, so it does not depend on the order of operations
      expect(simulate(scenario)).toBeGreaterThan(1000);
    });
  }
});

describe('OrderedMultiset edge cases', () => {
  it('empty', () => {
    const set = new OrderedMultiset();
    expect(set.size).toBe(0);
    expect(() => set.percentile(50_000)).toThrow(RangeError);
    expect(() => set.percentiles([0])).toThrow(RangeError);
    expect(set.percentiles([])).toEqual(new BigUint64Array(0));
    expect(() => set.kth(0)).toThrow(RangeError);
    expect(() => set.min()).toThrow(RangeError);
    expect(() => set.max()).toThrow(RangeError);
    expect(set.countAtLeast(0n)).toBe(0);
    expect(set.countAtMost(U64_MAX)).toBe(0);
    expect(set.payloadSumAtLeast(0n)).toBe(0);
  });

  it('single entry', () => {
    const set = new OrderedMultiset();
    set.addOne(U64_MAX, 0.25);
    expect(set.size).toBe(1);
    expect([...set.percentiles(SUFFIX_MILLIS)].every((v) => v === U64_MAX)).toBe(true);
    expect(set.kth(0)).toBe(U64_MAX);
    expect(set.min()).toBe(U64_MAX);
    expect(set.max()).toBe(U64_MAX);
    expect(set.countAtLeast(U64_MAX)).toBe(1);
    expect(set.countAtMost(U64_MAX - 1n)).toBe(0);
    expect(set.payloadSumAtLeast(U64_MAX)).toBe(0.25);
    expect(set.payloadSumAtLeast(U64_MAX + 1n)).toBe(0);
    set.removeOne(U64_MAX, 0.25);
    expect(set.size).toBe(0);
  });

  it('all duplicates, across many chunks', () => {
    const set = new OrderedMultiset({ chunkCapacity: 8 });
    const keys = new BigUint64Array(5000).fill(TWO_53 + 1n);
    const payloads = new Float64Array(5000).fill(1);
    set.add(keys, payloads);
    expect([...set.percentiles(SUFFIX_MILLIS)].every((v) => v === TWO_53 + 1n)).toBe(true);
    expect(set.countAtLeast(TWO_53 + 1n)).toBe(5000);
    expect(set.countAtLeast(TWO_53 + 2n)).toBe(0);
    expect(set.countAtMost(TWO_53)).toBe(0);
    expect(set.countAtMost(TWO_53 + 1n)).toBe(5000);
    expect(set.payloadSumAtLeast(TWO_53 + 1n)).toBe(5000);
    set.remove(keys.subarray(0, 4999), payloads.subarray(0, 4999));
    expect(set.size).toBe(1);
    expect(set.payloadSumAtLeast(0n)).toBe(1);
    expect(() => set.remove(keys.subarray(0, 2), payloads.subarray(0, 2))).toThrow(RangeError);
    expect(set.size).toBe(1);
  });

  it('removing a missing entry throws and leaves the contents unchanged', () => {
    const set = new OrderedMultiset({ chunkCapacity: 8 });
    const keys = BigUint64Array.from({ length: 40 }, (_, i) => BigInt(i % 10));
    const payloads = Float64Array.from({ length: 40 }, (_, i) => i / 39);
    set.add(keys, payloads);
    const before = set.percentiles(SUFFIX_MILLIS);
    const sumBefore = set.payloadSumAtLeast(0n);
    expect(() => set.removeOne(3n, 0.5)).toThrow(RangeError); // key present, payload not
    expect(() => set.removeOne(99n, 0)).toThrow(RangeError);
    expect(() => set.remove(BigUint64Array.of(0n, 1n, 11n), Float64Array.of(0, 1 / 39, 0))).toThrow(RangeError);
    expect(() => set.remove(BigUint64Array.of(0n, 0n), Float64Array.of(0, 0))).toThrow(RangeError); // present once
    expect(set.size).toBe(40);
    expect(set.percentiles(SUFFIX_MILLIS)).toEqual(before);
    expect(set.payloadSumAtLeast(0n)).toBeCloseTo(sumBefore, 12);
    set.remove(BigUint64Array.of(0n, 1n), Float64Array.of(0, 1 / 39));
    expect(set.size).toBe(38);
    expect(() => new OrderedMultiset().removeOne(0n)).toThrow(RangeError);
  });

  it('nearest rank in integer arithmetic: n = 100, p55 is the 55th smallest', () => {
    const set = new OrderedMultiset({ chunkCapacity: 8 });
    const rng = Rng.from(4, 'shuffle');
    const keys = BigUint64Array.from({ length: 100 }, (_, i) => BigInt(i + 1));
    for (let i = keys.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [keys[i], keys[j]] = [keys[j], keys[i]];
    }
    set.add(keys);
    expect(set.percentile(55_000)).toBe(55n);
    expect(set.percentile(0)).toBe(1n);
    expect(set.percentile(500)).toBe(1n);
    expect(set.percentile(1_000)).toBe(1n);
    expect(set.percentile(1_001)).toBe(2n);
    expect(set.percentile(50_000)).toBe(50n);
    expect(set.percentile(99_900)).toBe(100n);
    expect(set.percentile(100_000)).toBe(100n);
    expect(set.percentiles(Uint32Array.of(25_000, 75_000, 99_000))).toEqual(BigUint64Array.of(25n, 75n, 99n));
    for (const bad of [-1, 100_001, 1.5, Number.NaN]) expect(() => set.percentile(bad)).toThrow(RangeError);
    expect(() => set.kth(100)).toThrow(RangeError);
    expect(() => set.kth(-1)).toThrow(RangeError);
  });

  it('counts and payload sums on a small example', () => {
    const set = new OrderedMultiset();
    set.add(BigUint64Array.of(2n, 1n, 3n, 2n), Float64Array.of(0.25, 0.125, 1, 0.5));
    expect(set.countAtLeast(2n)).toBe(3);
    expect(set.countAtMost(2n)).toBe(3);
    expect(set.payloadSumAtLeast(2n)).toBe(1.75);
    expect(set.payloadSumAtLeast(3n)).toBe(1);
    expect(set.payloadSumAtLeast(4n)).toBe(0);
    expect(set.payloadSumAtLeast(-1n)).toBe(1.875);
    expect(set.countAtLeast(-1n)).toBe(4);
    expect(set.countAtMost(0n)).toBe(0);
    expect(set.countAtMost(U64_MAX + 5n)).toBe(4);
    expect(set.countAtLeast(1n << 70n)).toBe(0);
  });

  it('keys stay exact above 2^53 and up to 2^64 - 1', () => {
    const set = new OrderedMultiset();
    const keys = BigUint64Array.of(U64_MAX, TWO_53 + 1n, U64_MAX - 1n, TWO_53, TWO_63 - 1n, TWO_63, 0n);
    set.add(keys);
    expect([0, 1, 2, 3, 4, 5, 6].map((k) => set.kth(k))).toEqual([0n, TWO_53, TWO_53 + 1n, TWO_63 - 1n, TWO_63, U64_MAX - 1n, U64_MAX]);
    expect(set.countAtLeast(TWO_53 + 1n)).toBe(5);
    expect(set.countAtMost(TWO_63 - 1n)).toBe(4);
  });

  it('batches may be subarrays; payloads default to 0; -0 is stored as 0', () => {
    const set = new OrderedMultiset();
    const keys = BigUint64Array.of(9n, 9n, 5n, 6n, 7n, 9n);
    set.add(keys.subarray(2, 5));
    expect([set.min(), set.max(), BigInt(set.size)]).toEqual([5n, 7n, 3n]);
    set.remove(keys.subarray(3, 4));
    expect(set.countAtMost(6n)).toBe(1);
    set.addOne(8n, -0);
    set.removeOne(8n, 0);
    set.addOne(8n, 0);
    set.remove(BigUint64Array.of(8n), Float64Array.of(-0));
    expect(Object.is(set.payloadSumAtLeast(0n), 0)).toBe(true);
  });

  it('rejects bad input without changing anything', () => {
    const set = new OrderedMultiset();
    expect(() => set.add(BigUint64Array.of(1n, 2n), Float64Array.of(1))).toThrow(RangeError);
    expect(() => set.add(BigUint64Array.of(1n, 2n), Float64Array.of(1, Number.NaN))).toThrow(RangeError);
    // payloads are positions: in [0, 1], on the 2^-96 grid their exact sums keep
    for (const bad of [-0.5, 1.5, 2 ** -100, Number.POSITIVE_INFINITY]) expect(() => set.addOne(1n, bad)).toThrow(RangeError);
    expect(() => set.addOne(-1n)).toThrow(RangeError);
    expect(() => set.addOne(U64_MAX + 1n)).toThrow(RangeError);
    expect(set.size).toBe(0);
    expect(() => new OrderedMultiset({ chunkCapacity: 7 })).toThrow(RangeError);
    expect(() => new OrderedMultiset({ chunkCapacity: 4 })).toThrow(RangeError);
  });

  it('payloads may first come after entries without them', () => {
    const set = new OrderedMultiset({ chunkCapacity: 8 });
    set.add(BigUint64Array.from({ length: 40 }, (_, i) => BigInt(i % 10)));
    set.add(BigUint64Array.of(5n, 0n, 9n, 5n), Float64Array.of(0.5, 0.25, 1, 0.125));
    set.remove(BigUint64Array.of(5n, 3n));
    expect(set.size).toBe(42);
    expect(set.payloadSumAtLeast(0n)).toBe(1.875);
    expect(set.payloadSumAtLeast(5n)).toBe(1.625);
    expect(set.payloadSumAtLeast(6n)).toBe(1);
    set.remove(BigUint64Array.of(5n), Float64Array.of(0.5));
    expect(set.payloadSumAtLeast(1n)).toBe(1.125);
    expect(set.countAtLeast(5n)).toBe(21);
  });

  it('clear empties and the set is reusable', () => {
    const set = new OrderedMultiset({ chunkCapacity: 8 });
    set.add(BigUint64Array.from({ length: 100 }, (_, i) => BigInt(i)));
    set.clear();
    expect(set.size).toBe(0);
    expect(set.countAtLeast(0n)).toBe(0);
    set.add(BigUint64Array.of(3n, 1n, 2n), Float64Array.of(0.75, 0.25, 0.5));
    expect(set.percentiles([0, 50_000, 100_000])).toEqual(BigUint64Array.of(1n, 2n, 3n));
    expect(set.payloadSumAtLeast(2n)).toBe(1.25);
  });
});

describe('SlidingBlocks', () => {
  it('expires blocks before the window start; a block exactly at the start stays', () => {
    const window = new SlidingBlocks<string>();
    window.push(100n, 'a');
    window.push(200n, 'b');
    window.push(200n, 'c');
    window.push(300n, 'd');
    expect(window.expire(100n)).toEqual([]);
    expect(window.expire(200n)).toEqual([{ timestamp: 100n, data: 'a' }]);
    expect(window.size).toBe(3);
    expect(window.expire(201n).map((b) => b.data)).toEqual(['b', 'c']);
    expect(window.oldest()?.data).toBe('d');
    expect(window.newest()?.data).toBe('d');
    expect(() => window.push(299n, 'x')).toThrow(RangeError);
    window.push(300n, 'e');
    expect(window.expire(300n)).toEqual([]);
    expect(window.expire(1000n).map((b) => b.data)).toEqual(['d', 'e']);
    expect(window.size).toBe(0);
    expect(window.oldest()).toBeUndefined();
    expect(window.newest()).toBeUndefined();
    window.push(5n, 'after');
    expect([...window].map((b) => b.data)).toEqual(['after']);
  });

  it('keeps time order through many pushes and expiries', () => {
    const window = new SlidingBlocks<number>();
    let next = 0;
    for (let step = 0; step < 300; step++) {
      for (let i = 0; i < 5; i++) window.push(BigInt(next), next++);
      const start = BigInt(Math.max(0, next - 40));
      const expired = window.expire(start);
      expect(expired.every((b) => b.timestamp < start)).toBe(true);
      expect([...window].map((b) => b.data)).toEqual(Array.from({ length: next - Number(start) }, (_, i) => Number(start) + i));
    }
    window.clear();
    expect(window.size).toBe(0);
  });
});
