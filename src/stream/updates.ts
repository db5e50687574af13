/**
 * What the method engines tell the streams: after a chunk is committed, the data points that each
 * of its blocks made new or changed, per method, as records of the method's schema (not yet
 * encoded). The engines produce them only for what is subscribed (`StreamDemand`), so a method
 * nobody streams costs nothing.
 */
import type { Params } from '../rpc/params.js';

/** The new or changed data points of one method after one block. */
export interface StreamUpdate {
  /** The method whose answer changed, e.g. chain::market::ohlcv. */
  readonly method: string;
  /** The block after which these points hold; undefined for a change without a block (tokens). */
  readonly slot?: bigint;
  /** That block's time, ns. */
  readonly timestamp?: bigint;
  /** Records of the method's schema, in the method's answer order. */
  readonly records: readonly object[];
  /**
   * For a method whose answer depends on more than a window or pair (an account list): each
   * subscriber's records after this block, from its own params (`records` is then empty).
   */
  readonly answer?: (params: Params) => Promise<readonly object[]>;
}

/** Which methods and windows have open subscriptions. */
export interface StreamDemand {
  /** Whether at least one subscription to `method` is open. */
  has(method: string): boolean;
  /** The windows subscribed to for `method` (empty when none). */
  windows(method: string): ReadonlySet<string>;
}

const NO_WINDOWS: ReadonlySet<string> = new Set();

/** No subscriptions at all (an engine without streams, or a test). */
export const NO_DEMAND: StreamDemand = { has: () => false, windows: () => NO_WINDOWS };

/** Collects a chunk's updates block by block and method by method; `list` gives them in slot order. */
export class BlockUpdates {
  readonly #blocks = new Map<bigint, { timestamp: bigint; methods: Map<string, object[]> }>();

  /** Adds records of `method` made new or changed by block `slot`. */
  add(method: string, slot: bigint, timestamp: bigint, ...records: object[]): void {
    let block = this.#blocks.get(slot);
    if (!block) this.#blocks.set(slot, (block = { timestamp, methods: new Map() }));
    const list = block.methods.get(method);
    if (list) list.push(...records);
    else block.methods.set(method, records);
  }

  /** The updates in slot order; each method's records sorted by `order[method]` when given (answer order). */
  list(order: Readonly<Record<string, (a: never, b: never) => number>> = {}): StreamUpdate[] {
    const slots = [...this.#blocks.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const out: StreamUpdate[] = [];
    for (const slot of slots) {
      const { timestamp, methods } = this.#blocks.get(slot)!;
      for (const [method, records] of methods) {
        const compare = order[method] as ((a: object, b: object) => number) | undefined;
        out.push({ method, slot, timestamp, records: compare ? records.sort(compare) : records });
      }
    }
    return out;
  }
}
