/** A sorted-array oracle and priority-fee-shaped inputs for the tests of the windows' sets. */
import { Rng } from '../../src/generate/prng.js';

export const U64_MAX = (1n << 64n) - 1n;
export const TWO_53 = 1n << 53n;
export const TWO_63 = 1n << 63n;

export type Entry = readonly [key: bigint, payload: number];

function compareEntries(a: Entry, b: Entry): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] - b[1];
}

/**
 * Brute-force oracle: the entries in two flat arrays sorted by (key, payload), `size` of them. Each
 * step copies the runs between the changes into a second pair of arrays (splicing entry by entry
 * into 150k entries would take minutes).
 */
export class SortedOracle {
  keys = new BigUint64Array(1024);
  payloads = new Float64Array(1024);
  size = 0;
  private spareKeys = new BigUint64Array(1024);
  private sparePayloads = new Float64Array(1024);
  private suffixSums: Float64Array | undefined;

  apply(added: readonly Entry[], removed: readonly Entry[]): void {
    this.rewrite([...removed].sort(compareEntries), false);
    this.rewrite([...added].sort(compareEntries), true);
    this.suffixSums = undefined;
  }

  /** Copies the entries to the spare arrays without `changes` (each must be present) or with them. */
  private rewrite(changes: readonly Entry[], add: boolean): void {
    const capacity = this.size + (add ? changes.length : 0);
    if (this.spareKeys.length < capacity) {
      this.spareKeys = new BigUint64Array(2 * capacity);
      this.sparePayloads = new Float64Array(2 * capacity);
    }
    const keys = this.spareKeys;
    const payloads = this.sparePayloads;
    let read = 0;
    let write = 0;
    const copyUpTo = (end: number): void => {
      keys.set(this.keys.subarray(read, end), write);
      payloads.set(this.payloads.subarray(read, end), write);
      write += end - read;
      read = end;
    };
    for (const entry of changes) {
      const at = this.bound(entry, read, add);
      copyUpTo(at);
      if (add) {
        keys[write] = entry[0];
        payloads[write++] = entry[1];
      } else {
        if (at === this.size || this.keys[at] !== entry[0] || this.payloads[at] !== entry[1]) {
          throw new Error(`oracle: no entry ${entry}`);
        }
        read++;
      }
    }
    copyUpTo(this.size);
    [this.spareKeys, this.sparePayloads, this.keys, this.payloads] = [this.keys, this.payloads, keys, payloads];
    this.size = write;
  }

  /** First index >= from whose entry is >= `entry` (> when `after`). */
  private bound(entry: Entry, from: number, after: boolean): number {
    let a = from;
    let b = this.size;
    while (a < b) {
      const m = (a + b) >> 1;
      const key = this.keys[m];
      const before = key < entry[0] || (key === entry[0] && (this.payloads[m] < entry[1] || (after && this.payloads[m] === entry[1])));
      if (before) a = m + 1;
      else b = m;
    }
    return a;
  }

  percentile(millis: number): bigint {
    const rank = (BigInt(millis) * BigInt(this.size) + 99_999n) / 100_000n;
    return this.keys[Math.max(0, Number(rank) - 1)];
  }

  /** Index of the first key >= x (or > x when `strict`). */
  private keyBound(x: bigint, strict: boolean): number {
    let a = 0;
    let b = this.size;
    while (a < b) {
      const m = (a + b) >> 1;
      const key = this.keys[m];
      if (key < x || (strict && key === x)) a = m + 1;
      else b = m;
    }
    return a;
  }

  countAtLeast(x: bigint): number {
    return this.size - this.keyBound(x, false);
  }

  countAtMost(x: bigint): number {
    return this.keyBound(x, true);
  }

  payloadSumAtLeast(x: bigint): number {
    if (this.suffixSums === undefined) {
      // exact suffix sums (payloads are positions: each x * 2^96 is an integer), each rounded once
      const sums = new Float64Array(this.size + 1);
      let sum = 0n;
      for (let i = this.size - 1; i >= 0; i--) {
        sum += BigInt(this.payloads[i] * 2 ** 96);
        sums[i] = Number(sum) * 2 ** -96;
      }
      this.suffixSums = sums;
    }
    return this.suffixSums[this.keyBound(x, false)];
  }
}

const PRESET_KEYS = [1n, 1_000n, 10_000n, 50_000n, 100_000n, 1_000_000n, TWO_53 - 1n, TWO_53, TWO_53 + 1n, TWO_63, U64_MAX - 1n, U64_MAX];

/** A priority-fee-like key: many repeated presets, a log-normal bulk, a tail above 2^53 and near 2^64. */
export function drawKey(rng: Rng, pool?: readonly bigint[]): bigint {
  if (pool !== undefined) return pool[rng.int(pool.length)];
  const r = rng.float();
  if (r < 0.3) return PRESET_KEYS[rng.int(PRESET_KEYS.length)];
  if (r < 0.88) return BigInt(Math.floor(rng.logNormal(20_000, 2.5)));
  if (r < 0.93) return TWO_53 + BigInt(rng.u32()) * 1_000_003n;
  if (r < 0.97) return (BigInt(rng.u32()) << 32n) | BigInt(rng.u32());
  return U64_MAX - BigInt(rng.int(1000));
}

export interface Block {
  keys: BigUint64Array;
  payloads: Float64Array;
}

/** A block's samples: payloads are positions i / (n - 1), some on a coarse grid, some exact repeats. */
export function drawBlock(rng: Rng, maxKeys: number, pool?: readonly bigint[]): Block {
  const n = rng.chance(0.05) ? 0 : rng.int(maxKeys + 1);
  const keys = new BigUint64Array(n);
  const payloads = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (i > 0 && rng.chance(0.05)) {
      const j = rng.int(i);
      keys[i] = keys[j];
      payloads[i] = payloads[j];
      continue;
    }
    keys[i] = drawKey(rng, pool);
    payloads[i] = rng.chance(0.1) ? rng.int(8) / 8 : n === 1 ? 0 : i / (n - 1);
  }
  return { keys, payloads };
}

export function entriesOf(block: Block): Entry[] {
  return Array.from(block.keys, (key, i) => [key, block.payloads[i]] as const);
}
