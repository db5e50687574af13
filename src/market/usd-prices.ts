/**
 * USD prices of quote tokens (DESIGN.md 7): a quote in the stablecoin set is worth 1; any other
 * quote Q is worth the latest block VWAP (trimmed) of a pair Q/stablecoin at or before the block,
 * the block itself included (its stable-quoted pairs are priced first). When Q/USDC and Q/USDT both
 * traded in that latest block, the stablecoin listed first in the settings wins. No route: unknown
 * (NaN here, JSON null on the wire), never 0. Only direct routes: a quote with no stablecoin pair of
 * its own stays unknown.
 */
import type { BlockStats } from './block-stats.js';

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
   * Sets `quoteUsd` of every block statistic (in any order; priced in slot order) and returns the
   * function that makes the new latest prices current, to call once the chunk is committed.
   */
  price(blocks: readonly BlockStats[]): () => void {
    const stable = this.stablecoins();
    const stableRank = (mint: string) => {
      const r = stable.indexOf(mint);
      return r < 0 ? stable.length : r;
    };
    const latest = new Map(this.#latest);
    // sorted on numbers made once (slots are below 2^53), not on BigInts and list lookups a comparison
    const slot = blocks.map((b) => Number(b.slot));
    const rank = blocks.map((b) => stableRank(b.quote));
    const order = blocks.map((_, i) => i).sort((a, b) => slot[a]! - slot[b]! || rank[a]! - rank[b]! || a - b);
    for (const i of order) {
      const block = blocks[i]!;
      if (rank[i]! < stable.length) {
        const known = latest.get(block.base);
        if (known?.slot !== block.slot) latest.set(block.base, { slot: block.slot, price: block.vwap });
        block.quoteUsd = 1;
      } else {
        block.quoteUsd = latest.get(block.quote)?.price ?? Number.NaN;
      }
    }
    return () => {
      this.#latest = latest;
    };
  }
}
