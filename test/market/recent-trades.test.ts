/**
 * RecentTrades (the live chain::market::trades) against brute force over every trade: with a small
 * budget and many pairs, so that pairs are trimmed and emptied, an answer from memory must be the
 * exact newest trades of the filter, and memory must decline (undefined: the store answers) only
 * when it does not hold them.
 */
import { describe, expect, it } from 'vitest';
import { rowsToTable } from '../../src/ingest/arrow.js';
import { randomPublicKey } from '../../src/generate/keys.js';
import { Rng } from '../../src/generate/prng.js';
import { MAX_LIMIT, RecentTrades } from '../../src/market/recent-trades.js';
import type { TradeRow } from '../../src/schema/tables.js';
import { mulberry32 } from '../helpers/prng.js';

const rng = Rng.from(11, 'recent trades');
const MINTS = Array.from({ length: 6 }, () => randomPublicKey(rng));
const SIGNER = randomPublicKey(rng);

/** Blocks of random trades over the pairs of MINTS; a few pairs trade far more often than the rest. */
function makeTrades(blocks: number, random: () => number): TradeRow[][] {
  const out: TradeRow[][] = [];
  for (let b = 0; b < blocks; b++) {
    const slot = 1000n + BigInt(b) * 2n;
    const trades: TradeRow[] = [];
    const count = Math.floor(random() * 12);
    for (let k = 0; k < count; k++) {
      const hot = random() < 0.7;
      const i = hot ? 0 : 1 + Math.floor(random() * 5);
      const j = hot ? 1 : (i + 1 + Math.floor(random() * 5)) % 6;
      trades.push({
        signature: `sig-${slot}-${k}`, signer: SIGNER, slot, tx_index: Math.floor(random() * 50), fill_index: k,
        timestamp: slot * 400_000_000n, base: MINTS[i]!, quote: MINTS[j]!, base_amount: BigInt(1 + k), quote_amount: 7n,
        base_decimals: 6, quote_decimals: 6, is_buy: random() < 0.5,
      });
    }
    out.push(trades);
  }
  return out;
}

/** The store's order: slot, tx_index, fill_index descending. */
const newestFirst = (a: TradeRow, b: TradeRow) =>
  a.slot !== b.slot ? (a.slot > b.slot ? -1 : 1) : b.tx_index - a.tx_index || b.fill_index - a.fill_index;

describe('RecentTrades', () => {
  it('answers exactly or declines, with pairs trimmed and emptied', () => {
    const random = mulberry32(5);
    const trades = new RecentTrades(undefined, 1500);
    const all: TradeRow[] = [];
    let answered = 0;
    let declined = 0;
    const blocks = makeTrades(700, random);
    for (let start = 0, size = 1; start < blocks.length; start += size, size = 1 + Math.floor(random() * 20)) {
      const chunk = blocks.slice(start, start + size).flat();
      all.push(...chunk.map((t) => ({ ...t })));
      if (chunk.length > 0) trades.prepare({ blocks: [], trades: rowsToTable('trades', chunk) }).apply();
      const sorted = [...all].sort(newestFirst);
      const filters = [{}, { base: MINTS[0] }, { quote: MINTS[1] }, { base: MINTS[0], quote: MINTS[1] },
        ...MINTS.slice(1).flatMap((m) => [{ base: m }, { quote: m }, { base: m, quote: MINTS[(MINTS.indexOf(m) + 1) % 6] }])];
      for (const filter of filters) {
        for (const limit of [1, 37, MAX_LIMIT]) {
          const got = trades.latest(filter, limit);
          const matching = sorted.filter((t) => (filter.base === undefined || t.base === filter.base) && (filter.quote === undefined || t.quote === filter.quote));
          const label = `${JSON.stringify(filter)} limit ${limit} after ${all.length} trades`;
          if (got === undefined) {
            declined++;
            expect(Object.keys(filter).length, `the unfiltered answer is always held (${label})`).toBeGreaterThan(0);
          } else {
            answered++;
            expect(got.map((t) => t.signature), label).toEqual(matching.slice(0, limit).map((t) => t.signature));
          }
        }
      }
    }
    expect(answered).toBeGreaterThan(declined);
    expect(declined).toBeGreaterThan(0);
  });

  it('holds the newest MAX_LIMIT of a busy pair whatever the others do', () => {
    const random = mulberry32(9);
    const trades = new RecentTrades(undefined, 1500);
    const blocks = makeTrades(1200, random);
    for (const block of blocks) if (block.length > 0) trades.prepare({ blocks: [], trades: rowsToTable('trades', block) }).apply();
    // the hot pair traded last: it keeps its newest 1000
    expect(trades.latest({ base: MINTS[0], quote: MINTS[1] }, MAX_LIMIT)).toHaveLength(MAX_LIMIT);
    expect(trades.latest({}, MAX_LIMIT)).toHaveLength(MAX_LIMIT);
  });
});
