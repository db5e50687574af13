import { describe, expect, it } from 'vitest';
import { createKernels, KERNEL_STATUS, kernelsModule } from '../../src/kernels/instance.js';
import { percentilesU64Reference } from '../../src/kernels/reference.js';
import { STAT_SUFFIXES, suffixMillis } from '../../src/schema/records.js';

const U64_MAX = (1n << 64n) - 1n;
const TWO_53 = 1n << 53n;

/** The project's percentiles: every pN, median, min and max suffix (mean has none). */
const SUFFIX_MILLIS = Uint32Array.from(
  STAT_SUFFIXES.map(suffixMillis).filter((p): p is number => p !== undefined),
);

/** splitmix64 over BigInt: a seeded u64 generator. */
function splitmix64(seed: bigint): () => bigint {
  let state = BigInt.asUintN(64, seed);
  return () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

function values(n: number, seed: bigint, draw: (next: () => bigint) => bigint): BigUint64Array {
  const next = splitmix64(seed);
  const out = new BigUint64Array(n);
  for (let i = 0; i < n; i++) out[i] = draw(next);
  return out;
}

/** Many uniform u64 values, fast: xorshift32 fills both u32 halves (BigInt is too slow at 10^7). */
function manyValues(n: number, seed: number): BigUint64Array {
  const out = new BigUint64Array(n);
  const halves = new Uint32Array(out.buffer);
  let s = seed | 1;
  for (let i = 0; i < halves.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    halves[i] = s >>> 0;
  }
  return out;
}

/** Distributions that reach every path of the radix select. */
const DISTRIBUTIONS: Record<string, (next: () => bigint) => bigint> = {
  'uniform u64': (next) => next(),
  'log-uniform (fee-like)': (next) => next() >> (next() % 64n),
  'near 2^64 - 1': (next) => U64_MAX - (next() >> 44n),
  'just above 2^53 (f64 would merge them)': (next) => TWO_53 + (next() >> 50n),
  'few distinct values': (next) => [0n, 1n, TWO_53 - 1n, TWO_53, TWO_53 + 1n, U64_MAX][Number(next() % 6n)]!,
  'differing only in the low byte': (next) => (1n << 60n) + (next() & 0xffn),
  'many duplicates of fee tiers': (next) => [1n, 1000n, 10_000n, 100_000n, next() >> 40n][Number(next() % 5n)]!,
};

const kernels = createKernels();

function expectMatchesReference(input: BigUint64Array, millis: Uint32Array): void {
  const expected = percentilesU64Reference(input, millis);
  expect(kernels.percentilesU64(input, millis)).toEqual(expected);
}

describe('percentilesU64 kernel vs the reference', () => {
  it('uses the 29 distinct suffix percentiles of the schema (median = p50)', () => {
    expect(SUFFIX_MILLIS.length).toBe(STAT_SUFFIXES.length - 1);
    const some = [0, 100_000, 50_000, 5000, 95_000, 99_900, 99_990, 99_999];
    expect([...SUFFIX_MILLIS]).toEqual(expect.arrayContaining(some));
  });

  for (const [name, draw] of Object.entries(DISTRIBUTIONS)) {
    it(`agrees on 100003 values: ${name}`, () => {
      expectMatchesReference(values(100_003, 42n, draw), SUFFIX_MILLIS);
    });
  }

  it('agrees on sorted and reverse-sorted input', () => {
    const ascending = BigUint64Array.from({ length: 65_536 }, (_, i) => TWO_53 + BigInt(i));
    expectMatchesReference(ascending, SUFFIX_MILLIS);
    expectMatchesReference(ascending.slice().reverse(), SUFFIX_MILLIS);
  });

  it('agrees on every size from 1 to 300 with random percentiles', () => {
    const next = splitmix64(7n);
    for (let n = 1; n <= 300; n++) {
      const millis = Uint32Array.from({ length: 40 }, () => Number(next() % 100_001n));
      const draw = n % 2 ? DISTRIBUTIONS['uniform u64']! : DISTRIBUTIONS['few distinct values']!;
      expectMatchesReference(values(n, BigInt(n), draw), millis);
    }
  });

  it('returns results in the order the percentiles were asked, duplicates included', () => {
    const input = BigUint64Array.from({ length: 1000 }, (_, i) => BigInt(1000 - i));
    const millis = Uint32Array.from([100_000, 0, 50_000, 50_000, 99_999, 1]);
    expect([...kernels.percentilesU64(input, millis)]).toEqual([1000n, 1n, 500n, 500n, 1000n, 1n]);
  });

  it('survives memory growth between calls (views re-created after reserve)', () => {
    const fresh = createKernels();
    for (const n of [10, 100_000, 3_000_000, 50]) {
      const input = manyValues(n, n);
      expect(fresh.percentilesU64(input, SUFFIX_MILLIS)).toEqual(percentilesU64Reference(input, SUFFIX_MILLIS));
    }
    expect(fresh.exports.capacity()).toBeGreaterThanOrEqual(3_000_000);
  });

  it('handles 2 * 10^7 values', () => {
    const input = manyValues(20_000_000, 1);
    input[123] = U64_MAX;
    input[456] = 0n;
    expectMatchesReference(input, SUFFIX_MILLIS);
  });
});

describe('percentilesU64 edge cases', () => {
  it('throws a clear error on no values', () => {
    expect(() => kernels.percentilesU64(new BigUint64Array(0), SUFFIX_MILLIS)).toThrow(/no values/);
    expect(() => percentilesU64Reference(new BigUint64Array(0), SUFFIX_MILLIS)).toThrow(/no values/);
  });

  it('throws on a percentile above 100000 and on too many percentiles', () => {
    const input = BigUint64Array.of(1n, 2n);
    expect(() => kernels.percentilesU64(input, Uint32Array.of(100_001))).toThrow(/outside 0\.\.100000/);
    const tooMany = new Uint32Array(kernels.exports.maxPercentiles() + 1);
    expect(() => kernels.percentilesU64(input, tooMany)).toThrow(/at most/);
  });

  it('gives an empty result for no percentiles', () => {
    expect(kernels.percentilesU64(BigUint64Array.of(5n), new Uint32Array(0))).toEqual(new BigUint64Array(0));
  });

  it('n = 1: every percentile is the value', () => {
    expect([...kernels.percentilesU64(BigUint64Array.of(U64_MAX), SUFFIX_MILLIS)]).toEqual(
      Array(SUFFIX_MILLIS.length).fill(U64_MAX),
    );
  });

  it('n = 2: p50 is the lower value, anything above p50 the upper', () => {
    const input = BigUint64Array.of(U64_MAX, TWO_53 + 1n);
    const millis = Uint32Array.of(0, 50_000, 50_001, 99_999, 100_000);
    expect([...kernels.percentilesU64(input, millis)]).toEqual([TWO_53 + 1n, TWO_53 + 1n, U64_MAX, U64_MAX, U64_MAX]);
  });

  it('all duplicates', () => {
    const input = new BigUint64Array(100_000).fill(TWO_53 + 1n);
    expect(new Set(kernels.percentilesU64(input, SUFFIX_MILLIS))).toEqual(new Set([TWO_53 + 1n]));
  });

  it('p0 is the min, p100 the max, p99.999 the nearest rank', () => {
    const input = BigUint64Array.from({ length: 100_000 }, (_, i) => TWO_53 + BigInt(i) * 3n);
    const [p0, p100, p99999] = kernels.percentilesU64(input.slice().reverse(), Uint32Array.of(0, 100_000, 99_999));
    expect(p0).toBe(TWO_53);
    expect(p100).toBe(TWO_53 + 99_999n * 3n);
    expect(p99999).toBe(TWO_53 + 99_998n * 3n); // ceil(99999 * 100000 / 100000) = rank 99999
  });

  it('uses integer arithmetic where numpy lands one rank higher (n = 100, p55 = x[54])', () => {
    const input = BigUint64Array.from({ length: 100 }, (_, i) => BigInt(i + 1));
    expect([...kernels.percentilesU64(input, Uint32Array.of(55_000))]).toEqual([55n]);
  });

  it('keeps the status table in step with assembly/status.ts', () => {
    const globals = kernels.exports as unknown as Record<string, WebAssembly.Global>;
    const exported = WebAssembly.Module.exports(kernelsModule())
      .filter((e) => e.kind === 'global' && e.name.startsWith('Status.'))
      .map((e) => [e.name.slice('Status.'.length), globals[e.name]!.value]);
    const mirrored = Object.entries(KERNEL_STATUS).map(([code, [name]]) => [name, Number(code)]);
    expect(exported).toEqual([['OK', 0], ...mirrored]);
  });
});
