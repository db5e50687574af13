/**
 * chunkTrades against a plain reference: pairs by base then quote, each pair's trades by (slot,
 * tx_index, fill_index), every volume and price the exact rational rounded once (decimalAmount,
 * tradePrice on BigInts). The amounts straddle 2^53 and the decimals 0..30, where the column
 * pass leaves its double fast paths; the rows come in order (as dumps are) or shuffled.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsToTable } from '../../src/ingest/arrow.js';
import { blockStats } from '../../src/market/block-stats.js';
import { chunkTrades, compareText } from '../../src/market/chunk-trades.js';
import { decimalAmount, tradePrice } from '../../src/schema/amounts.js';
import type { TradeRow } from '../../src/schema/tables.js';

const MINTS = ['So11111111111111111111111111111111111111112', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'Es9vMFrzaCERmJfrF8H7D3FrZLuF4B7tA41bVzK2y3oK'];

const amount = fc.oneof(
  fc.bigInt({ min: 1n, max: 10n ** 12n }),
  fc.bigInt({ min: 2n ** 53n - 1000n, max: 2n ** 53n + 1000n }),
  fc.bigInt({ min: 1n, max: 2n ** 64n - 1n }),
);
const decimals = fc.oneof(fc.constantFrom(0, 6, 9), fc.integer({ min: 0, max: 30 }));

const trade = fc.record({
  slot: fc.bigInt({ min: 1n, max: 6n }),
  tx_index: fc.integer({ min: 0, max: 3 }),
  fill_index: fc.integer({ min: 0, max: 3 }),
  base: fc.constantFrom(...MINTS),
  quote: fc.constantFrom(...MINTS),
  base_amount: amount,
  quote_amount: amount,
  base_decimals: decimals,
  quote_decimals: decimals,
  is_buy: fc.boolean(),
});

type Drawn = Omit<TradeRow, 'signature' | 'signer' | 'timestamp'>;

const row = (t: Drawn): TradeRow => ({ ...t, signature: '1'.repeat(64), signer: MINTS[0]!, timestamp: t.slot * 400_000_000n });

const orderKey = (a: Drawn, b: Drawn): number =>
  compareText(a.base, b.base) || compareText(a.quote, b.quote)
  || (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : a.tx_index - b.tx_index || a.fill_index - b.fill_index);

describe('chunkTrades', () => {
  it('equals the plain reference, in order or shuffled', () => {
    fc.assert(fc.property(fc.array(trade, { minLength: 1, maxLength: 60 }), fc.boolean(), (drawn, inOrder) => {
      const rows = (inOrder ? [...drawn].sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : a.tx_index - b.tx_index || a.fill_index - b.fill_index)) : drawn).map(row);
      const got = chunkTrades(rowsToTable('trades', rows));
      // the reference order: a stable sort by pair and order key (ties keep their row order)
      const order = rows.map((_, i) => i).sort((a, b) => orderKey(rows[a]!, rows[b]!) || a - b);
      expect(Array.from(got.rows)).toEqual(order);
      order.forEach((i, k) => {
        const t = rows[i]!;
        expect(got.slot[k]).toBe(t.slot);
        expect(got.time[k]).toBe(t.timestamp);
        expect(got.baseVolume[k]).toBe(decimalAmount(t.base_amount, t.base_decimals));
        expect(got.quoteVolume[k]).toBe(decimalAmount(t.quote_amount, t.quote_decimals));
        expect(got.price[k]).toBe(tradePrice(t.base_amount, t.base_decimals, t.quote_amount, t.quote_decimals));
        expect(got.isBuy[k]).toBe(t.is_buy ? 1 : 0);
      });
      const pairs = [...new Set(order.map((i) => `${rows[i]!.base}/${rows[i]!.quote}`))];
      expect(got.pairs.map((p) => `${p.base}/${p.quote}`)).toEqual(pairs);
      expect(got.pairs.at(-1)!.to).toBe(rows.length);
    }), { numRuns: 300 });
  });
});

describe('blockStats', () => {
  it('groups a chunk by pair and slot, slots crossing 2^32 included', () => {
    // past the first slot's low word in a higher high word (2^33 - 1), the low words' difference borrows
    const slots = [2n ** 32n - 2n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 1n, 2n ** 33n - 1n, 2n ** 33n];
    const rows: TradeRow[] = [];
    slots.forEach((slot, s) => {
      for (let k = 0; k <= s; k++) {
        rows.push(row({
          slot, tx_index: k, fill_index: 0, base: MINTS[k % 2]!, quote: MINTS[2]!,
          base_amount: 1_000_000n, quote_amount: BigInt(1 + k + s), base_decimals: 6, quote_decimals: 6, is_buy: k % 3 === 0,
        }));
      }
    });
    const columns = blockStats(chunkTrades(rowsToTable('trades', rows)), 0.25);
    const stats = columns.pairs.flatMap(({ base, from, to }) => Array.from({ length: to - from }, (_, k) => ({
      base, slot: columns.slot[from + k]!, time: columns.time[from + k]!, count: columns.count[from + k]!,
    })));
    expect(stats.length).toBe(columns.rows);
    const expected = new Map<string, number>();
    for (const r of rows) expected.set(`${r.base}/${r.slot}`, (expected.get(`${r.base}/${r.slot}`) ?? 0) + 1);
    expect(new Map(stats.map((s) => [`${s.base}/${s.slot}`, s.count]))).toEqual(expected);
    for (const s of stats) expect(s.time).toBe(s.slot * 400_000_000n);
  });
});
