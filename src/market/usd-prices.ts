/**
 * USD prices of quote tokens (DESIGN.md 7): a quote in the stablecoin set is worth 1; any other
 * quote Q is worth the latest block VWAP (trimmed) of a pair Q/stablecoin at or before the block,
 * the block itself included (its stable-quoted pairs are priced first). When Q/USDC and Q/USDT both
 * traded in that latest block, the stablecoin listed first in the settings wins. No route: unknown
 * (NaN here, JSON null on the wire), never 0. Only direct routes: a quote with no stablecoin pair of
 * its own stays unknown.
 */
import type { ChunkBlockStats } from './block-stats.js';

interface Quoted {
  slot: bigint;
  price: number;
}

/** The latest USD price of every quote token with a stablecoin route. */
export class UsdPrices {
  /** Per token, its latest block VWAP against a stablecoin. */
  #latest = new Map<string, Quoted>();

  constructor(private readonly stablecoins: () => readonly string[]) {}

  /**
   * Sets `quoteUsd` of every row of a chunk's statistics (priced in slot order) and returns the
   * function that makes the new latest prices current, to call once the chunk is committed.
   */
  price(stats: ChunkBlockStats): () => void {
    const stable = this.stablecoins();
    const latest = new Map(this.#latest);
    // each row's pair and the rank of its quote among the stablecoins, made once a pair
    const pairOf = new Int32Array(stats.rows);
    const pairRank = stats.pairs.map(({ quote }) => {
      const r = stable.indexOf(quote);
      return r < 0 ? stable.length : r;
    });
    stats.pairs.forEach((pair, p) => pairOf.fill(p, pair.from, pair.to));
    // sorted on numbers made once (slots are below 2^53), not on BigInts and list lookups a comparison
    const slot = new Float64Array(stats.rows);
    const order = new Uint32Array(stats.rows);
    for (let i = 0; i < stats.rows; i++) (slot[i] = Number(stats.slot[i]!)), (order[i] = i);
    order.sort((a, b) => slot[a]! - slot[b]! || pairRank[pairOf[a]!]! - pairRank[pairOf[b]!]! || a - b);
    for (const i of order) {
      const pair = stats.pairs[pairOf[i]!]!;
      if (pairRank[pairOf[i]!]! < stable.length) {
        const known = latest.get(pair.base);
        const at = stats.slot[i]!;
        if (known?.slot !== at) latest.set(pair.base, { slot: at, price: stats.vwap[i]! });
        stats.quoteUsd[i] = 1;
      } else {
        stats.quoteUsd[i] = latest.get(pair.quote)?.price ?? Number.NaN;
      }
    }
    return () => {
      this.#latest = latest;
    };
  }
}
