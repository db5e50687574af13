/**
 * TradeLog (chain::market::trades from resident columns) against brute force over every trade:
 * chunks of blocks whose trades come in any order within a block, filters by pair, base and quote,
 * limits, as-of times (`before`), retention's cut and the store's floor (`from`); u64 amounts above
 * 2^53 and the row fields come back exactly as they went in.
 */
import { describe, expect, it } from 'vitest';
import { rowsToTable } from '../../src/ingest/arrow.js';
import { randomPublicKey } from '../../src/generate/keys.js';
import { encodeBase58 } from '../../src/schema/base58.js';
import { Rng } from '../../src/generate/prng.js';
import { TradeLog } from '../../src/market/trade-log.js';
import { chunkTradesOf } from '../../src/market/chunk-trades.js';
import { collector } from '../helpers/gc.js';
import type { TradeRow } from '../../src/schema/tables.js';
import { mulberry32 } from '../helpers/prng.js';

const rng = Rng.from(11, 'trade log');
const MINTS = Array.from({ length: 6 }, () => randomPublicKey(rng));
const SIGNER = randomPublicKey(rng);
const timeOf = (slot: bigint) => slot * 400_000_000n;

/** Blocks of random trades over the pairs of MINTS, each block's rows shuffled; a few pairs trade far more often. */
function makeTrades(blocks: number, random: () => number): TradeRow[][] {
  const out: TradeRow[][] = [];
  for (let b = 0; b < blocks; b++) {
    const slot = 1000n + BigInt(b) * 2n;
    const trades: TradeRow[] = [];
    const count = Math.floor(random() * 12);
    const txs = [...Array(count).keys()].sort(() => random() - 0.5); // distinct tx_index, in no order
    for (let k = 0; k < count; k++) {
      const hot = random() < 0.7;
      const i = hot ? 0 : 1 + Math.floor(random() * 5);
      const j = hot ? 1 : (i + 1 + Math.floor(random() * 5)) % 6;
      trades.push({
        signature: `sig-${slot}-${k}`, signer: SIGNER, slot, tx_index: txs[k]!, fill_index: Math.floor(random() * 3),
        timestamp: timeOf(slot), base: MINTS[i]!, quote: MINTS[j]!, base_amount: 2n ** 60n + BigInt(k), quote_amount: 7n,
        base_decimals: 6, quote_decimals: 9, is_buy: random() < 0.5,
      });
    }
    out.push(trades);
  }
  return out;
}

/** The answer order: slot, tx_index, fill_index descending. */
const newestFirst = (a: TradeRow, b: TradeRow) =>
  a.slot !== b.slot ? (a.slot > b.slot ? -1 : 1) : b.tx_index - a.tx_index || b.fill_index - a.fill_index;

const FILTERS = [{}, { base: MINTS[0] }, { quote: MINTS[1] }, { base: MINTS[0], quote: MINTS[1] },
  ...MINTS.slice(1).flatMap((m) => [{ base: m }, { quote: m }, { base: m, quote: MINTS[(MINTS.indexOf(m) + 1) % 6] }])];

describe('TradeLog', () => {
  it('answers the exact newest trades of every filter and limit, live and as of any time, in chunks of any size', async () => {
    const random = mulberry32(5);
    const log = new TradeLog();
    const all: TradeRow[] = [];
    const blocks = makeTrades(500, random);
    for (let start = 0, size = 1; start < blocks.length; start += size, size = 1 + Math.floor(random() * 20)) {
      const chunk = blocks.slice(start, start + size).flat();
      all.push(...chunk.map((t) => ({ ...t })));
      if (chunk.length > 0) (await log.prepare({ blocks: [], trades: rowsToTable('trades', chunk) })).apply();
      const sorted = [...all].sort(newestFirst);
      const newestSlot = 1000n + 2n * BigInt(Math.min(start + size, blocks.length) - 1); // the chunk's last block
      const times = [undefined, timeOf(1000n), timeOf(1001n), timeOf(newestSlot), timeOf(1000n + BigInt(Math.floor(random() * 2 * (start + size))))];
      for (const filter of FILTERS) {
        for (const limit of [1, 37, 1000]) {
          for (const before of times) {
            const matching = sorted.filter((t) => (filter.base === undefined || t.base === filter.base) &&
              (filter.quote === undefined || t.quote === filter.quote) && (before === undefined || t.timestamp < before));
            const label = `${JSON.stringify(filter)} limit ${limit} before ${before} after ${all.length} trades`;
            expect(log.newest(filter, limit, before), label).toEqual(matching.slice(0, limit));
          }
        }
      }
    }
  });

  it('keeps u64 amounts above 2^53 and every field exact', async () => {
    const log = new TradeLog();
    const trade: TradeRow = {
      signature: 'sig-big', signer: SIGNER, slot: 2n ** 63n + 5n, tx_index: 4_000_000_000, fill_index: 3, timestamp: 1_710_441_678_123_456_789n,
      base: MINTS[2]!, quote: MINTS[3]!, base_amount: 2n ** 64n - 1n, quote_amount: 2n ** 53n + 1n, base_decimals: 255, quote_decimals: 0, is_buy: true,
    };
    (await log.prepare({ blocks: [], trades: rowsToTable('trades', [trade]) })).apply();
    expect(log.newest({ base: MINTS[2], quote: MINTS[3] }, 10)).toEqual([trade]);
    expect(log.newest({ base: MINTS[3] }, 10)).toEqual([]);
  });

  it('answers nothing before retention\'s cut or the store\'s floor, and drops the segments wholly before the cut', async () => {
    const random = mulberry32(8);
    const log = new TradeLog();
    const all = makeTrades(200, random);
    for (let b = 0; b < all.length; b += 10) {
      const chunk = all.slice(b, b + 10).flat();
      if (chunk.length > 0) (await log.prepare({ blocks: [], trades: rowsToTable('trades', chunk) })).apply();
    }
    const sorted = all.flat().sort(newestFirst);
    const cut = timeOf(1000n + 2n * 55n); // inside a chunk: its older rows are hidden, not dropped
    const floor = timeOf(1000n + 2n * 77n);
    log.pruned(cut);
    for (const filter of FILTERS) {
      expect(log.newest(filter, 1000)).toEqual(sorted.filter((t) => t.timestamp >= cut &&
        (filter.base === undefined || t.base === filter.base) && (filter.quote === undefined || t.quote === filter.quote)));
      expect(log.newest(filter, 1000, undefined, floor).every((t) => t.timestamp >= floor)).toBe(true);
    }
    expect(log.newest({}, 1000, cut)).toEqual([]); // as of the cut: nothing held
    log.pruned(timeOf(10_000n));
    expect(log.newest({}, 1000)).toEqual([]);
  });

  it('keeps each trade its signer through retention and the compaction of the signers\' dictionary', async () => {
    const signer = (n: number) => encodeBase58(Uint8Array.from({ length: 32 }, (_, i) => (i < 4 ? (n >>> (8 * i)) & 0xff : 7 + i)));
    const trade = (slot: bigint, k: number, who: string): TradeRow => ({
      signature: `sig-${slot}-${k}`, signer: who, slot, tx_index: k, fill_index: 0, timestamp: timeOf(slot),
      base: MINTS[0]!, quote: MINTS[1]!, base_amount: BigInt(k + 1), quote_amount: 7n, base_decimals: 6, quote_decimals: 9, is_buy: k % 2 === 0,
    });
    const add = async (trades: TradeRow[]) => (await log.prepare({ blocks: [], trades: rowsToTable('trades', trades) })).apply;
    const log = new TradeLog();
    // 70,000 signers in the old blocks (past the compaction threshold), a few of them also in the new ones
    for (let b = 0; b < 7; b++) (await add(Array.from({ length: 10_000 }, (_, k) => trade(BigInt(100 + b), k, signer(b * 10_000 + k)))))();
    const recent = [trade(200n, 0, signer(5)), trade(200n, 1, signer(123_456)), trade(201n, 0, signer(69_999))];
    (await add(recent))();
    expect(log.signers.size).toBe(70_001);
    // interned before the compaction, appended after it: its signers move to the new dictionary
    const late = await add([trade(300n, 0, signer(5)), trade(300n, 1, signer(42))]);
    const before = log.signers;
    log.pruned(timeOf(200n));
    expect(log.signers).not.toBe(before);
    expect(log.signers.size).toBe(3); // only the signers still held
    late();
    const newest = [trade(300n, 1, signer(42)), trade(300n, 0, signer(5)), ...[...recent].reverse()];
    expect(log.newest({}, 100)).toEqual(newest);
    expect(log.signers.size).toBe(4);
  });

  it('keeps only its own columns of a chunk, not the chunk\'s table or its chunkTrades', async () => {
    const gc = collector();
    const log = new TradeLog();
    // made in a function of their own, so that nothing here holds the table or its chunkTrades
    const feed = async (trades: TradeRow[]) => {
      const table = rowsToTable('trades', trades);
      (await log.prepare({ blocks: [], trades: table })).apply();
      return { table: new WeakRef(table), chunk: new WeakRef(chunkTradesOf(table)) };
    };
    const refs = await feed(makeTrades(20, mulberry32(9)).flat());
    await new Promise((resolve) => setTimeout(resolve, 0)); // past the job that made the WeakRefs
    gc();
    expect(refs.table.deref()).toBeUndefined();
    expect(refs.chunk.deref()).toBeUndefined();
    expect(log.newest({}, 1).length).toBe(1);
  });
});
