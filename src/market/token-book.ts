/**
 * chain::market::token live: every known token in memory, sorted by mint, kept as the store keeps
 * its tokens table (upserted by mint, the last row of a mint in a commit wins). Token metadata is
 * not versioned in time, so this is the whole answer; the store is read only for `at` queries.
 */
import { tableToRows } from '../ingest/arrow.js';
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import { recordId } from '../schema/ids.js';
import type { TokenRecord } from '../schema/records.js';
import type { TokenRow } from '../schema/tables.js';
import { mergeOrdered } from './pairs.js';

/** The record of a token row (the query's, whether read from memory or the store). */
export function tokenRecord(t: TokenRow): TokenRecord {
  return {
    id: recordId('chain::market::token', t.mint),
    mint: t.mint,
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    supply: t.supply ?? null,
  };
}

/** Ascending by mint: base58 is ASCII, so code-unit order is the store's byte order. */
const byMint = (a: TokenRow, b: TokenRow): number => (a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0);

/** The known tokens; fed by the pipeline with each commit's token rows. */
export class TokenBook implements ChunkObserver {
  readonly #byMint = new Map<string, TokenRow>();
  /** Every token, sorted by mint. */
  #sorted: readonly TokenRow[] = [];

  /** The token with `mint`, or every token sorted by mint. */
  tokens(mint?: string): readonly TokenRow[] {
    if (mint === undefined) return this.#sorted;
    const token = this.#byMint.get(mint);
    return token ? [token] : [];
  }

  prepare(chunk: ChunkView): ChunkEffect {
    if (!chunk.tokens || chunk.tokens.numRows === 0) return { records: [], apply() {} };
    const written = new Map<string, TokenRow>();
    for (const row of tableToRows('tokens', chunk.tokens)) written.set(row.mint, row);
    // the new order is built aside and swapped in at apply with the map: readers never see half of it
    const sorted = mergeOrdered(
      [this.#sorted.map((t) => written.get(t.mint) ?? t), [...written.values()].filter((t) => !this.#byMint.has(t.mint)).sort(byMint)],
      byMint,
      Infinity,
    );
    return {
      records: [],
      apply: () => {
        for (const [mint, row] of written) this.#byMint.set(mint, row);
        this.#sorted = sorted;
      },
    };
  }
}
