/**
 * The newest blocks with trades and the pairs that traded in each, in answer order. A live answer
 * over many pairs (chain::market::block, volume, vwap and twap without both mints) walks these
 * newest first instead of merging every pair's series, so it costs the points it answers rather
 * than the number of pairs: a limit-1 answer over the 10-minute mainnet-profile dump's pairs took
 * 1.0-1.3 ms merged. chain::market::ohlcv walks them too, a candle per pair and time bucket with
 * trades. Answers as of a time, and the rare walk that runs out of kept blocks, merge.
 */
import type { MarketPair } from './market-pair.js';
import { comparePairs } from './pairs.js';
import { windowStart } from '../windows/time-windows.js';

/** Blocks kept at least: the largest limit (1,000) when every block has a trade. */
const KEPT = 1000;

interface TradedBlock {
  readonly time: bigint;
  /** The pairs that traded in the block, by base then quote. */
  readonly pairs: readonly MarketPair[];
}

/** One item of an answer: the pair's k-th newest block (k = 0 for its newest). */
export interface RecentItem {
  readonly pair: MarketPair;
  readonly k: number;
}

export class RecentTradedBlocks {
  /** Oldest first; trimmed by KEPT at a time once it holds twice that. */
  #blocks: TradedBlock[] = [];
  /** Whether an older block with trades was let go: a walk reaching the oldest kept block cannot tell more. */
  #dropped = false;

  /** Appends the newest block's pairs (any order). */
  add(time: bigint, pairs: MarketPair[]): void {
    this.#blocks.push({ time, pairs: pairs.sort(comparePairs) });
    if (this.#blocks.length >= 2 * KEPT) {
      this.#blocks = this.#blocks.slice(KEPT);
      this.#dropped = true;
    }
  }

  /**
   * The newest `limit` items of the pairs `matches` takes, newest block first and then by pair,
   * from the blocks at or after `from`; undefined when the kept blocks end before the answer does.
   */
  newest(limit: number, matches: (pair: MarketPair) => boolean, from?: bigint): RecentItem[] | undefined {
    const out: RecentItem[] = [];
    const seen = new Map<MarketPair, number>();
    for (let b = this.#blocks.length - 1; b >= 0; b--) {
      const block = this.#blocks[b]!;
      if (from !== undefined && block.time < from) return out;
      for (const pair of block.pairs) {
        if (!matches(pair)) continue;
        const k = seen.get(pair) ?? 0;
        seen.set(pair, k + 1);
        out.push({ pair, k });
        if (out.length === limit) return out;
      }
    }
    return this.#dropped ? undefined : out;
  }

  /**
   * The newest `limit` candles of `width` of the pairs `matches` takes, opening in [from, to): by
   * opening time descending, then by pair; each the pair's k-th newest candle in that range. A pair
   * has a candle where it has blocks, so a time bucket is whole once the walk reaches an older one;
   * undefined when the kept blocks end before the answer does.
   */
  newestCandles(width: bigint, limit: number, matches: (pair: MarketPair) => boolean, from?: bigint, to?: bigint): RecentItem[] | undefined {
    const out: RecentItem[] = [];
    const counts = new Map<MarketPair, number>();
    let bucket: bigint | undefined;
    let pairs = new Set<MarketPair>(); // the pairs with a candle in `bucket`, in the order met
    const close = () => {
      for (const pair of [...pairs].sort(comparePairs)) {
        const k = counts.get(pair) ?? 0;
        counts.set(pair, k + 1);
        out.push({ pair, k });
      }
      pairs = new Set();
    };
    for (let b = this.#blocks.length - 1; b >= 0; b--) {
      const block = this.#blocks[b]!;
      const start = windowStart(block.time, width);
      if (to !== undefined && start >= to) continue;
      if (start !== bucket) {
        close();
        if (out.length >= limit) return out.slice(0, limit);
        if (from !== undefined && start < from) return out;
        bucket = start;
      }
      for (const pair of block.pairs) if (matches(pair)) pairs.add(pair);
    }
    if (this.#dropped) return undefined;
    close();
    return out.slice(0, limit);
  }
}
