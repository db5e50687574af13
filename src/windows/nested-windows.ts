/**
 * Exact order statistics over nested trailing windows of one stream of (u64 key, f64 payload)
 * entries: nearest-rank percentiles (DESIGN.md 6), ranks, counts and payload sums for each window.
 *
 * The windows share their entries. Entries arrive in time order (`add`) and leave each window in
 * the same order, shortest window first (`leave`), so each window is a suffix of the stream; an
 * entry is held once, from its arrival until it leaves the last (longest) window. The key space is
 * cut into value buckets (ranges of keys), each holding its entries unsorted, oldest first, with a
 * count and a payload sum per window; buckets split around their median key when they hold more
 * than twice `bucketTarget` entries (a heavy key ends in a bucket of its own) and neighbours merge
 * when the buckets grow many for the entries held. Within a bucket, a window's entries are the
 * newest ones, as many as its count.
 *
 * Complexity, n entries, B buckets (about n / bucketTarget), W windows: an arrival or a window's
 * leave O(log B) (the bucket's binary search, in cache) plus O(1) counter updates, with no search
 * through the entries; an order statistic, count or payload sum O(B / 64 + 64 + bucketTarget) (the
 * groups of 64 buckets scanned, then one group's buckets, then a selection within one bucket). A
 * growing set (`growing`: one window, no departures) sorts a bucket when first asked and then only
 * merges in the arrivals since, so an order statistic of a bucket unchanged since is a read by index.
 *
 * Why: the seven recommendation windows each kept an ordered multiset (a chunked sorted list) that
 * every fee-paying sample went into and out of, seven insertions and seven removals a sample, each
 * a binary search through megabytes; here a sample costs one arrival, one departure and six moves
 * between layers, each a few counters.
 */
import { checkStatus } from '../kernels/instance.js';
import { wasmBytes } from '../kernels/nested-windows.wasm.generated.js';
import { U64_MAX } from '../schema/amounts.js';
import { isPosition, LIMBS, sumValue } from './position-sum.js';

const WHO = 'NestedWindows';
const DEFAULT_BUCKET_TARGET = 512;

/** The raw exports of build/nested-windows.wasm. */
interface NestedWindowsExports {
  readonly memory: WebAssembly.Memory;
  reserve(n: number): number;
  inputKeysPtr(): number;
  inputPayloadsPtr(): number;
  init(windows: number, payloads: number, bucketTarget: number, growing: number): number;
  outPtr(): number;
  add(n: number, withPayloads: number): number;
  leave(window: number, n: number, withPayloads: number): number;
  size(window: number): number;
  kth(window: number, k: number): bigint;
  percentile(window: number, millis: number): bigint;
  percentileTail(window: number, millis: number): bigint;
  countAtLeast(window: number, x: bigint): number;
  payloadSumAtLeast(window: number, x: bigint): void;
  bucketCount(): number;
  clear(): void;
  sortInput(n: number, withPayloads: number): number;
}

let compiled: WebAssembly.Module | undefined;
const instantiate = (): NestedWindowsExports =>
  new WebAssembly.Instance((compiled ??= new WebAssembly.Module(wasmBytes())), {}).exports as unknown as NestedWindowsExports;

/** An instance that holds no windows: its input region sorts batches for `sortByKey`. */
let sorter: NestedWindowsExports | undefined;

/**
 * Sorts `keys` ascending in place, and `payloads` (as many) with them. A batch given to `add` and
 * `leave` in key order finds its buckets a few steps apart, in the order of their records, and
 * makes a group's changes once for its run of entries: the seven recommendation windows' departures
 * of a mainnet-profile block took about half the time sorted.
 */
export function sortByKey(keys: BigUint64Array, payloads?: Float64Array): void {
  const n = keys.length;
  if (payloads !== undefined && payloads.length !== n) throw new RangeError(`${WHO}.sortByKey: ${n} keys but ${payloads.length} payloads`);
  if (!sorter) {
    sorter = instantiate();
    checkStatus(WHO, sorter.init(1, 1, DEFAULT_BUCKET_TARGET, 0));
  }
  checkStatus(WHO, sorter.reserve(n));
  const inKeys = new BigUint64Array(sorter.memory.buffer, sorter.inputKeysPtr(), n);
  const inPayloads = new Float64Array(sorter.memory.buffer, sorter.inputPayloadsPtr(), n);
  inKeys.set(keys);
  if (payloads !== undefined) inPayloads.set(payloads);
  checkStatus(WHO, sorter.sortInput(n, payloads === undefined ? 0 : 1));
  keys.set(inKeys);
  if (payloads !== undefined) payloads.set(inPayloads);
}

/** A percentile and the entries at or above it. */
export interface PercentileTail {
  key: bigint;
  /** Entries with key >= `key`. */
  count: number;
  /** The f64 nearest the exact sum of their payloads. */
  payloadSum: number;
}

/** Options of {@link NestedWindows}. */
export interface NestedWindowsOptions {
  /** Whether entries carry payloads (positions); default false (every payload 0, no sums kept). */
  payloads?: boolean;
  /** Entries a bucket holds before it may split in two, about; default 512. Small values only make sense in tests. */
  bucketTarget?: number;
  /**
   * A growing set: one window that entries only enter (no `leave`) until it is cleared, as a
   * tumbling fee window's. Its buckets are sorted when first asked and read by index until an
   * arrival changes them, so order statistics asked again after each block mostly skip the selection.
   */
  growing?: boolean;
}

/** `windows` nested windows, 0 the shortest; see the module comment. */
export class NestedWindows {
  readonly #set: NestedWindowsExports;
  readonly #payloads: boolean;
  readonly #growing: boolean;

  constructor(readonly windows: number, options: NestedWindowsOptions = {}) {
    const target = options.bucketTarget ?? DEFAULT_BUCKET_TARGET;
    if (!Number.isInteger(windows) || windows < 1 || windows > 16) throw new RangeError(`${WHO}: windows must be an integer in 1..16, got ${windows}`);
    if (!Number.isInteger(target) || target < 2 || target > 1 << 20) throw new RangeError(`${WHO}: bucketTarget must be an integer in 2..2^20, got ${target}`);
    this.#payloads = options.payloads ?? false;
    this.#growing = options.growing ?? false;
    if (this.#growing && windows !== 1) throw new RangeError(`${WHO}: a growing set has one window, got ${windows}`);
    this.#set = instantiate();
    checkStatus(WHO, this.#set.init(windows, this.#payloads ? 1 : 0, target, this.#growing ? 1 : 0));
  }

  /** The newest entries arrive: they enter every window. */
  add(keys: BigUint64Array, payloads?: Float64Array): void {
    this.#input(keys, payloads);
    try {
      checkStatus(`${WHO}.add`, this.#set.add(keys.length, payloads ? 1 : 0));
    } catch (error) {
      // a trap: the memory could not grow (the set stopped mid-change and is unusable)
      if (error instanceof WebAssembly.RuntimeError) throw new Error(`${WHO}: WebAssembly memory cannot grow that far (wasm32 holds at most 4 GiB)`, { cause: error });
      throw error;
    }
  }

  /**
   * The oldest entries of `window` leave it, exactly as they arrived (the same keys and payloads,
   * a whole arrival or its start, after they left every shorter window). Leaving the last window
   * takes them out. The order is the caller's to keep: it is not checked entry by entry.
   */
  leave(window: number, keys: BigUint64Array, payloads?: Float64Array): void {
    if (this.#growing) throw new Error(`${WHO}.leave: entries only enter a growing set (clear it instead)`);
    this.#window(window);
    this.#input(keys, payloads);
    const status = this.#set.leave(window, keys.length, payloads ? 1 : 0);
    if (status !== 0) throw new Error(`${WHO}.leave: window ${window} does not hold these entries (status ${status}); the windows are no longer consistent`);
  }

  /** Empties every window (the memory is kept for reuse: WebAssembly memory is freed only with its instance). */
  clear(): void {
    this.#set.clear();
  }

  /** Entries in `window`. */
  size(window: number): number {
    this.#window(window);
    return this.#set.size(window);
  }

  /** The k-th smallest key of `window`, k 0-based in [0, size). */
  kth(window: number, k: number): bigint {
    const size = this.size(window);
    if (!Number.isInteger(k) || k < 0 || k >= size) throw new RangeError(`${WHO}.kth: rank ${k} outside [0, ${size})`);
    return BigInt.asUintN(64, this.#set.kth(window, k));
  }

  /** The smallest key of a non-empty `window`. */
  min(window: number): bigint {
    return this.kth(window, 0);
  }

  /** The largest key of a non-empty `window`. */
  max(window: number): bigint {
    return this.kth(window, this.size(window) - 1);
  }

  /** Nearest-rank percentile (DESIGN.md 6) of `window`, `millis` in thousandths of a percent (0..100000). */
  percentile(window: number, millis: number): bigint {
    this.#percentileArgs(window, millis);
    return BigInt.asUintN(64, this.#set.percentile(window, millis));
  }

  /**
   * {@link percentile}, with the entries at or above it: their number and their payloads' sum (as
   * {@link countAtLeast} and {@link payloadSumAtLeast} of the percentile would give, in one search).
   */
  percentileTail(window: number, millis: number): PercentileTail {
    this.#percentileArgs(window, millis);
    const key = BigInt.asUintN(64, this.#set.percentileTail(window, millis));
    const out = new Float64Array(this.#set.memory.buffer, this.#set.outPtr(), LIMBS + 1);
    return { key, count: out[LIMBS], payloadSum: sumValue(out) };
  }

  /** Entries of `window` with key >= x (x any bigint). */
  countAtLeast(window: number, x: bigint): number {
    if (x <= 0n) return this.size(window);
    this.#window(window);
    if (x > U64_MAX) return 0;
    return this.#set.countAtLeast(window, x);
  }

  /** Entries of `window` with key <= x (x any bigint). */
  countAtMost(window: number, x: bigint): number {
    if (x < 0n) return (this.#window(window), 0);
    if (x >= U64_MAX) return this.size(window);
    return this.size(window) - this.countAtLeast(window, x + 1n);
  }

  /** The f64 nearest the exact sum of the payloads of `window`'s entries with key >= x (x any bigint); 0 when there are none. */
  payloadSumAtLeast(window: number, x: bigint): number {
    this.#window(window);
    if (x > U64_MAX) return 0;
    this.#set.payloadSumAtLeast(window, x < 0n ? 0n : x);
    return sumValue(new Float64Array(this.#set.memory.buffer, this.#set.outPtr(), LIMBS));
  }

  /** Value buckets in use (for tests and measurements). */
  get buckets(): number {
    return this.#set.bucketCount();
  }

  /** Checks a batch and copies it into the instance's input region. */
  #input(keys: BigUint64Array, payloads: Float64Array | undefined): void {
    const n = keys.length;
    const set = this.#set;
    if (payloads !== undefined) {
      if (!this.#payloads) throw new RangeError(`${WHO}: payloads given to windows made without them`);
      if (payloads.length !== n) throw new RangeError(`${WHO}: ${n} keys but ${payloads.length} payloads`);
      for (let i = 0; i < n; i++) {
        if (!isPosition(payloads[i])) throw new RangeError(`${WHO}: payload ${payloads[i]} is not a position (an f64 in [0, 1] on the 2^-96 grid)`);
      }
    }
    checkStatus(WHO, set.reserve(n));
    // reserve() may have grown the memory, which detaches older views: make views only now
    new BigUint64Array(set.memory.buffer, set.inputKeysPtr(), n).set(keys);
    if (payloads !== undefined) new Float64Array(set.memory.buffer, set.inputPayloadsPtr(), n).set(payloads);
  }

  #percentileArgs(window: number, millis: number): void {
    if (!Number.isInteger(millis) || millis < 0 || millis > 100_000) {
      throw new RangeError(`${WHO}.percentile: ${millis} is not an integer in 0..100000 (thousandths of a percent)`);
    }
    if (this.size(window) === 0) throw new RangeError(`${WHO}.percentile: window ${window} is empty`);
  }

  #window(window: number): void {
    if (!Number.isInteger(window) || window < 0 || window >= this.windows) {
      throw new RangeError(`${WHO}: window ${window} outside [0, ${this.windows})`);
    }
  }
}
