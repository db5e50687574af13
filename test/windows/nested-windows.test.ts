import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/generate/prng.js';
import { TIERS } from '../../src/schema/records.js';
import { NestedWindows, sortByKey } from '../../src/windows/nested-windows.js';
import { drawBlock, drawKey, entriesOf, SortedOracle, TWO_53, U64_MAX, type Block } from './set-oracle.js';

const MILLIS = [...TIERS.map(([, percent]) => percent * 1000), 1, 12_345, 99_999];

interface Scenario {
  seed: number;
  blocks: number;
  /** Each window's span in blocks of 400 time units, shortest first. */
  spans: readonly number[];
  maxBlockKeys: number;
  bucketTarget?: number;
  keyPool?: readonly bigint[];
  /** Added to every key (capped at u64), times the block's index: the distribution moves, buckets split and merge. */
  drift?: bigint;
  /** Whether blocks arrive and leave in pieces of up to this many entries. */
  piece?: number;
  /** Whether each block's entries come sorted by key (sortByKey), as the recommendation windows give them. */
  sorted?: boolean;
}

function fail(step: string, what: string, actual: unknown, expected: unknown): never {
  expect.unreachable(`${step}: ${what} = ${actual}, expected ${expected}`);
  throw new Error('unreachable');
}

/** Queries window w every way and compares each answer with the oracle's; returns the number of comparisons. */
function verifyWindow(sets: NestedWindows, w: number, oracle: SortedOracle, rng: Rng, keyPool: readonly bigint[] | undefined, at: string): number {
  let compared = 0;
  const n = sets.size(w);
  if (n !== oracle.size) fail(at, 'size', n, oracle.size);
  if (n === 0) {
    expect(() => sets.percentile(w, 50_000)).toThrow(RangeError);
    expect(sets.countAtLeast(w, 0n)).toBe(0);
    expect(sets.payloadSumAtLeast(w, 0n)).toBe(0);
    return compared;
  }
  for (const millis of MILLIS) {
    const p = oracle.percentile(millis);
    if (sets.percentile(w, millis) !== p) fail(at, `percentile p${millis / 1000}`, sets.percentile(w, millis), p);
    const tail = sets.percentileTail(w, millis);
    if (tail.key !== p) fail(at, `percentileTail p${millis / 1000}`, tail.key, p);
    if (tail.count !== oracle.countAtLeast(p)) fail(at, `percentileTail p${millis / 1000} count`, tail.count, oracle.countAtLeast(p));
    if (tail.payloadSum !== oracle.payloadSumAtLeast(p)) fail(at, `percentileTail p${millis / 1000} sum`, tail.payloadSum, oracle.payloadSumAtLeast(p));
    compared += 4;
  }
  for (const r of [0, n - 1, rng.int(n), rng.int(n)]) {
    if (sets.kth(w, r) !== oracle.keys[r]) fail(at, `kth(${r})`, sets.kth(w, r), oracle.keys[r]);
  }
  const hit = oracle.keys[rng.int(n)];
  for (const x of [hit, hit - 1n, hit + 1n, drawKey(rng, keyPool), 0n, -1n, U64_MAX, U64_MAX + 1n]) {
    if (sets.countAtLeast(w, x) !== oracle.countAtLeast(x)) fail(at, `countAtLeast(${x})`, sets.countAtLeast(w, x), oracle.countAtLeast(x));
    if (sets.countAtMost(w, x) !== oracle.countAtMost(x)) fail(at, `countAtMost(${x})`, sets.countAtMost(w, x), oracle.countAtMost(x));
    const sum = sets.payloadSumAtLeast(w, x);
    if (sum !== oracle.payloadSumAtLeast(x)) fail(at, `payloadSumAtLeast(${x})`, sum, oracle.payloadSumAtLeast(x));
    compared += 3;
  }
  return compared;
}

/** Sorts a block's keys with sortByKey, checked against a sort of its (key, payload) pairs in JS: the multiset of pairs is kept. */
function sortBlock(block: Block): void {
  const pairs = entriesOf(block).map(([key, payload]) => `${key}:${payload}`).sort();
  sortByKey(block.keys, block.payloads);
  for (let i = 1; i < block.keys.length; i++) expect(block.keys[i - 1]! <= block.keys[i]!).toBe(true);
  expect(entriesOf(block).map(([key, payload]) => `${key}:${payload}`).sort()).toEqual(pairs);
}

/** Calls `f` with consecutive pieces of a block (the whole block when `piece` is undefined). */
function inPieces(block: Block, piece: number | undefined, f: (keys: BigUint64Array, payloads: Float64Array) => void): void {
  const step = piece ?? Math.max(1, block.keys.length);
  if (block.keys.length === 0) f(block.keys, block.payloads);
  for (let i = 0; i < block.keys.length; i += step) f(block.keys.subarray(i, i + step), block.payloads.subarray(i, i + step));
}

/**
 * Slides nested windows over `blocks` blocks, then drains them; after every step queries every
 * window and compares it with an oracle per window (a sorted array of the window's entries).
 * Returns the number of comparisons.
 */
function simulate(scenario: Scenario): number {
  const rng = Rng.from(scenario.seed, 'nested-windows');
  const k = scenario.spans.length;
  const sets = new NestedWindows(k, { payloads: true, bucketTarget: scenario.bucketTarget });
  const oracles = scenario.spans.map(() => new SortedOracle());
  const held: { time: bigint; block: Block }[] = [];
  const firstIn = scenario.spans.map(() => 0); // per window, the index in `held` of its oldest block
  let dropped = 0; // blocks dropped from the front of `held`
  let compared = 0;
  let time = 1_700_000_000_000n;

  const verify = (step: string): void => {
    for (let w = 0; w < k; w++) compared += verifyWindow(sets, w, oracles[w], rng, scenario.keyPool, `${step}, window ${w}`);
  };

  /** Every window lets go of its blocks older than `now`'s span, shortest window first. */
  const expire = (now: bigint): void => {
    for (let w = 0; w < k; w++) {
      const start = now + 1n - BigInt(scenario.spans[w]) * 400n;
      const removed = [];
      while (firstIn[w] - dropped < held.length && held[firstIn[w] - dropped].time < start) {
        const { block } = held[firstIn[w] - dropped];
        inPieces(block, scenario.piece, (keys, payloads) => sets.leave(w, keys, payloads));
        removed.push(...entriesOf(block));
        firstIn[w]++;
      }
      oracles[w].apply([], removed);
    }
    while (dropped < firstIn[k - 1]) {
      held.shift();
      dropped++;
    }
  };

  for (let b = 0; b < scenario.blocks; b++) {
    time += rng.chance(0.02) ? 4_000n : rng.chance(0.1) ? 800n : 400n;
    const block = drawBlock(rng, scenario.maxBlockKeys, scenario.keyPool);
    if (scenario.drift !== undefined) {
      const shift = BigInt(b) * scenario.drift;
      block.keys.forEach((key, i) => (block.keys[i] = key + shift > U64_MAX ? U64_MAX : key + shift));
    }
    if (scenario.sorted) sortBlock(block);
    held.push({ time, block });
    inPieces(block, scenario.piece, (keys, payloads) => sets.add(keys, payloads));
    for (const oracle of oracles) oracle.apply(entriesOf(block), []);
    expire(time);
    verify(`block ${b}`);
  }
  const longest = BigInt(scenario.spans[k - 1]) * 400n;
  while (held.length > 0) {
    time += longest / 8n;
    expire(time);
    verify(`drain at ${time}`);
  }
  for (let w = 0; w < k; w++) expect(sets.size(w)).toBe(0);
  return compared;
}

describe('NestedWindows against a sorted-array oracle per window', () => {
  const scenarios: [string, Scenario][] = [
    ['the recommendation windows\' shape: 1 to 120 blocks, 300-key blocks', { seed: 1, blocks: 700, spans: [1, 3, 10, 40, 120], maxBlockKeys: 300 }],
    ['small buckets and a moving distribution (every split and merge path)', { seed: 2, blocks: 900, spans: [1, 2, 5, 13, 30], maxBlockKeys: 60, bucketTarget: 3, drift: 997n }],
    ['arrivals and departures in pieces, buckets of 8', { seed: 3, blocks: 500, spans: [2, 7, 25], maxBlockKeys: 90, bucketTarget: 8, piece: 7 }],
    ['few distinct keys: buckets of a single key grow past their target', { seed: 4, blocks: 600, spans: [1, 4, 20], maxBlockKeys: 80, bucketTarget: 4, keyPool: [0n, 7n, 8n, TWO_53, U64_MAX - 1n, U64_MAX] }],
    ['one window', { seed: 5, blocks: 400, spans: [15], maxBlockKeys: 100, bucketTarget: 5, drift: 1_000_003n }],
    ['blocks sorted by key: runs of entries in one bucket and one group', { seed: 6, blocks: 700, spans: [1, 3, 10, 40, 120], maxBlockKeys: 300, bucketTarget: 4, sorted: true }],
    ['blocks sorted by key, in pieces, a moving distribution', { seed: 7, blocks: 600, spans: [1, 2, 5, 13, 30], maxBlockKeys: 90, bucketTarget: 3, drift: 997n, piece: 7, sorted: true }],
  ];
  for (const [name, scenario] of scenarios) {
    it(name, () => {
      expect(simulate(scenario)).toBeGreaterThan(10_000);
    });
  }
});

/**
 * A growing set (one window, entries only arrive, cleared now and then) after every block against
 * the oracle: its buckets are sorted when asked and merged with the arrivals since when asked again.
 */
function simulateGrowing(scenario: Omit<Scenario, 'spans'> & { clearEvery: number }): number {
  const rng = Rng.from(scenario.seed, 'nested-windows growing');
  const sets = new NestedWindows(1, { payloads: true, growing: true, bucketTarget: scenario.bucketTarget });
  let oracle = new SortedOracle();
  let compared = 0;
  for (let b = 0; b < scenario.blocks; b++) {
    if (b % scenario.clearEvery === scenario.clearEvery - 1) {
      sets.clear();
      oracle = new SortedOracle();
    }
    const block = drawBlock(rng, scenario.maxBlockKeys, scenario.keyPool);
    if (scenario.drift !== undefined) {
      const shift = BigInt(b % scenario.clearEvery) * scenario.drift;
      block.keys.forEach((key, i) => (block.keys[i] = key + shift > U64_MAX ? U64_MAX : key + shift));
    }
    inPieces(block, scenario.piece, (keys, payloads) => sets.add(keys, payloads));
    oracle.apply(entriesOf(block), []);
    // asked after most blocks, not all: some buckets take two blocks' arrivals between sorts
    if (rng.chance(0.8)) compared += verifyWindow(sets, 0, oracle, rng, scenario.keyPool, `block ${b}`);
  }
  return compared;
}

describe('NestedWindows growing (sorted buckets) against a sorted-array oracle', () => {
  const scenarios: [string, Parameters<typeof simulateGrowing>[0]][] = [
    ['a tumbling fee window\'s shape: 300-key blocks, cleared every 150', { seed: 11, blocks: 400, maxBlockKeys: 300, clearEvery: 150 }],
    ['small buckets and a moving distribution: sorted buckets split and merge', { seed: 12, blocks: 500, maxBlockKeys: 60, bucketTarget: 3, drift: 997n, clearEvery: 170 }],
    ['arrivals in pieces, buckets of 8', { seed: 13, blocks: 300, maxBlockKeys: 90, bucketTarget: 8, piece: 7, clearEvery: 1000 }],
    ['few distinct keys: runs of equal keys in sorted buckets', { seed: 14, blocks: 300, maxBlockKeys: 80, bucketTarget: 6, keyPool: [0n, 7n, 8n, 9n, 10n, TWO_53, U64_MAX - 1n, U64_MAX], clearEvery: 120 }],
  ];
  for (const [name, scenario] of scenarios) {
    it(name, () => {
      expect(simulateGrowing(scenario)).toBeGreaterThan(10_000);
    });
  }

  it('has one window and lets no entry leave', () => {
    expect(() => new NestedWindows(2, { growing: true })).toThrow(/one window/);
    const set = new NestedWindows(1, { growing: true });
    set.add(BigUint64Array.of(5n, 3n));
    expect(() => set.leave(0, BigUint64Array.of(5n))).toThrow(/only enter a growing set/);
    expect(set.percentile(0, 50_000)).toBe(3n);
  });
});

describe('NestedWindows edge cases', () => {
  it('rejects windows, ranks and payloads outside its shape', () => {
    const sets = new NestedWindows(2);
    expect(() => new NestedWindows(0)).toThrow(RangeError);
    expect(() => new NestedWindows(2, { bucketTarget: 1 })).toThrow(RangeError);
    expect(() => sets.size(2)).toThrow(RangeError);
    expect(() => sets.add(BigUint64Array.of(1n), Float64Array.of(0.5))).toThrow(/without them/);
    sets.add(BigUint64Array.of(5n, 3n));
    expect(() => sets.kth(0, 2)).toThrow(RangeError);
    expect(() => sets.percentile(1, 100_001)).toThrow(RangeError);
    expect(sets.kth(1, 0)).toBe(3n);
  });

  it('cleared, it holds nothing, then answers for what came after as a fresh one', () => {
    const rng = Rng.from(6, 'nested-windows-clear');
    const sets = new NestedWindows(2, { payloads: true, bucketTarget: 4 });
    for (let round = 0; round < 3; round++) {
      const oracle = new SortedOracle();
      for (let b = 0; b < 40; b++) {
        const block = drawBlock(rng, 50);
        sets.add(block.keys, block.payloads);
        oracle.apply(entriesOf(block), []);
      }
      for (const w of [0, 1]) {
        expect(sets.size(w)).toBe(oracle.size);
        expect(sets.percentile(w, 50_000)).toBe(oracle.percentile(50_000));
        expect(sets.max(w)).toBe(oracle.keys[oracle.size - 1]);
        expect(sets.payloadSumAtLeast(w, 0n)).toBe(oracle.payloadSumAtLeast(0n));
      }
      sets.clear();
      expect(sets.size(1)).toBe(0);
      expect(sets.countAtLeast(1, 0n)).toBe(0);
    }
  });

  it('says so when the last window is asked to let go of entries it does not hold', () => {
    const sets = new NestedWindows(1);
    expect(() => sets.leave(0, BigUint64Array.of(4n))).toThrow(/does not hold/);
  });

  it('a heavy key among others: 10,000 equal entries in a bucket of their own', () => {
    const sets = new NestedWindows(2, { bucketTarget: 4 });
    const keys = new BigUint64Array(10_000).fill(TWO_53 + 1n);
    keys[17] = 1n;
    keys[9_000] = U64_MAX;
    sets.add(keys);
    expect(sets.buckets).toBeLessThan(8);
    expect(sets.percentile(0, 50_000)).toBe(TWO_53 + 1n);
    expect(sets.kth(1, 0)).toBe(1n);
    expect(sets.kth(1, 9_999)).toBe(U64_MAX);
    expect(sets.countAtLeast(0, TWO_53 + 1n)).toBe(9_999);
    expect(sets.countAtMost(0, TWO_53 + 1n)).toBe(9_999);
    sets.leave(0, keys);
    expect(sets.size(0)).toBe(0);
    expect(sets.size(1)).toBe(10_000);
    sets.leave(1, keys);
    expect(sets.size(1)).toBe(0);
  });
});
