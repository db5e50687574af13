/**
 * Exact order statistics over a sliding window: a multiset of u64 keys, each entry carrying an f64
 * payload, that answers nearest-rank percentiles (DESIGN.md 6), ranks, counts and payload sums.
 *
 * Layout: a chunked sorted list (the sortedcontainers design), kept in a WebAssembly instance of its
 * own (assembly/multiset/index.ts). Entries are ordered by (key, payload) and held in chunks of fewer
 * than `chunkCapacity` entries: a chunk that fills splits in half, one that drops below a quarter
 * merges with (or borrows from) a neighbour. Every chunk is a fixed-size slot of one slab (keys as
 * u64, payloads as f64 in a slab apart, made only once a payload is not 0), so a chunk is an offset
 * rather than an object. Per chunk, in key order: slot, length, last entry and payload sum. Payloads
 * are positions and their sums exact (position-sum.ts), so a payload sum does not depend on the order
 * the entries came in, and adding or taking away one entry's payload keeps a chunk's sum exact; a
 * chunk that split or merged has its sum recomputed from its entries when a payload query needs it.
 *
 * Complexity, n entries, chunk capacity B, C ~ n / B chunks: add or remove one entry O(log n + B)
 * (a binary search over the chunks' last entries, one inside the chunk, a memmove of the chunk's
 * tail; O(C) more on a split or merge, which is rare); kth, percentile and counts O(log n), after an
 * O(C) refresh of the chunk prefix counts once per batch of changes; payloadSumAtLeast O(log n + B),
 * after recomputing the sums of chunks that split or merged (O(B) each) and an O(C) suffix sum once
 * per batch.
 *
 * Why WebAssembly: the replay moves every fee-paying sample through 18 of these sets and out of 14.
 * The same design in JavaScript (keys as u32 halves, since V8 compares BigInts slowly) took 40% of
 * the one-hour replay. In WebAssembly an add or a remove in a 900k-entry set takes ~275-315 ns
 * against ~420-500 on a quiet machine (the rest is the binary searches' dependent loads, which no layout of this kind
 * avoids), and a set without payloads holds 8 bytes an entry, not 16.
 */
import { wasmBytes } from '../kernels/multiset.wasm.generated.js';
import { checkStatus } from '../kernels/instance.js';
import { U64_MAX } from '../schema/amounts.js';
import { LIMBS, sumValue } from './position-sum.js';
import { checkKey, checkPayload, copyInput, grows } from './set-input.js';

const WHO = 'OrderedMultiset';

const DEFAULT_CHUNK_CAPACITY = 128;

/** The raw exports of build/multiset.wasm. */
interface MultisetExports {
  readonly memory: WebAssembly.Memory;
  init(chunkCapacity: number): number;
  reserve(n: number): number;
  inputKeysPtr(): number;
  inputPayloadsPtr(): number;
  outPtr(): number;
  size(): number;
  add(n: number, withPayloads: number): number;
  remove(n: number, withPayloads: number): number;
  addOne(key: bigint, payload: number): void;
  removeOne(key: bigint, payload: number): number;
  clear(): void;
  kth(k: number): bigint;
  percentile(millis: number): bigint;
  smallest(): bigint;
  largest(): bigint;
  countAtLeast(x: bigint): number;
  payloadSumAtLeast(x: bigint): void;
}

let compiled: WebAssembly.Module | undefined;

/** Options of an {@link OrderedMultiset}. */
export interface OrderedMultisetOptions {
  /** Entries per chunk before it splits (even, >= 8); default 128. Small values only make sense in tests. */
  chunkCapacity?: number;
}

/** A multiset of (u64 key, f64 payload) entries with exact order statistics; see the module comment. */
export class OrderedMultiset {
  readonly #set: MultisetExports;

  constructor(options: OrderedMultisetOptions = {}) {
    const capacity = options.chunkCapacity ?? DEFAULT_CHUNK_CAPACITY;
    if (!Number.isInteger(capacity) || capacity < 8 || capacity % 2 !== 0 || capacity > 1 << 16) {
      throw new RangeError(`OrderedMultiset: chunkCapacity must be an even integer in 8..65536, got ${capacity}`);
    }
    this.#set = new WebAssembly.Instance((compiled ??= new WebAssembly.Module(wasmBytes())), {}).exports as unknown as MultisetExports;
    checkStatus('OrderedMultiset', this.#set.init(capacity));
  }

  /** Number of entries. */
  get size(): number {
    return this.#set.size();
  }

  /** Adds one entry per key; `payloads` (same length, positions) default to 0 for every entry. */
  add(keys: BigUint64Array, payloads?: Float64Array): void {
    copyInput(WHO, this.#set, keys, payloads);
    grows(WHO, () => checkStatus('OrderedMultiset.add', this.#set.add(keys.length, payloads ? 1 : 0)));
  }

  /**
   * Removes exactly these (key, payload) entries. If one is absent it throws a RangeError and the
   * entries already removed by this call are added back, so the contents are unchanged.
   */
  remove(keys: BigUint64Array, payloads?: Float64Array): void {
    copyInput(WHO, this.#set, keys, payloads);
    const absent = grows(WHO, () => this.#set.remove(keys.length, payloads ? 1 : 0));
    if (absent >= 0) throw new RangeError(`OrderedMultiset.remove: no entry (${keys[absent]}, ${payloads?.[absent] ?? 0})`);
  }

  /** Adds one entry. */
  addOne(key: bigint, payload = 0): void {
    checkKey(WHO, key);
    checkPayload(WHO, payload);
    grows(WHO, () => this.#set.addOne(key, payload));
  }

  /** Removes one (key, payload) entry; throws a RangeError if there is none. */
  removeOne(key: bigint, payload = 0): void {
    checkKey(WHO, key);
    checkPayload(WHO, payload);
    if (!grows(WHO, () => this.#set.removeOne(key, payload))) throw new RangeError(`OrderedMultiset.removeOne: no entry (${key}, ${payload})`);
  }

  /** Removes every entry (the memory is kept for reuse). */
  clear(): void {
    this.#set.clear();
  }

  /** The k-th smallest key, k 0-based in [0, size). */
  kth(k: number): bigint {
    if (!Number.isInteger(k) || k < 0 || k >= this.size) {
      throw new RangeError(`OrderedMultiset.kth: rank ${k} outside [0, ${this.size})`);
    }
    return BigInt.asUintN(64, this.#set.kth(k));
  }

  /** Nearest-rank percentile (DESIGN.md 6), `millis` in thousandths of a percent (0..100000). */
  percentile(millis: number): bigint {
    if (!Number.isInteger(millis) || millis < 0 || millis > 100_000) {
      throw new RangeError(`OrderedMultiset.percentile: ${millis} is not an integer in 0..100000 (thousandths of a percent)`);
    }
    if (this.size === 0) throw new RangeError('OrderedMultiset.percentile: empty');
    return BigInt.asUintN(64, this.#set.percentile(millis));
  }

  /** {@link percentile} of each of `millis`. */
  percentiles(millis: Uint32Array | readonly number[]): BigUint64Array {
    const out = new BigUint64Array(millis.length);
    for (let i = 0; i < millis.length; i++) out[i] = this.percentile(millis[i]);
    return out;
  }

  /** The smallest key; throws when empty. */
  min(): bigint {
    if (this.size === 0) throw new RangeError('OrderedMultiset.min: empty');
    return BigInt.asUintN(64, this.#set.smallest());
  }

  /** The largest key; throws when empty. */
  max(): bigint {
    if (this.size === 0) throw new RangeError('OrderedMultiset.max: empty');
    return BigInt.asUintN(64, this.#set.largest());
  }

  /** Number of entries with key >= x (x any bigint). */
  countAtLeast(x: bigint): number {
    if (x <= 0n) return this.size;
    if (x > U64_MAX) return 0;
    return this.#set.countAtLeast(x);
  }

  /** Number of entries with key <= x (x any bigint). */
  countAtMost(x: bigint): number {
    if (x < 0n) return 0;
    if (x >= U64_MAX) return this.size;
    return this.size - this.countAtLeast(x + 1n);
  }

  /** The f64 nearest the exact sum of the payloads of the entries with key >= x (x any bigint); 0 when there are none. */
  payloadSumAtLeast(x: bigint): number {
    if (x > U64_MAX) return 0;
    this.#set.payloadSumAtLeast(x < 0n ? 0n : x);
    return sumValue(new Float64Array(this.#set.memory.buffer, this.#set.outPtr(), LIMBS));
  }
}
