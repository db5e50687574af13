/**
 * A handful of trades whose candles, VWAPs, TWAPs, outliers and USD prices are worked out on paper
 * (the comments give the arithmetic), and the window edges: a block exactly at a trailing window's
 * start, a window with one trade, TWAP carry-in across an empty window, a pair's first block (no
 * carry-in), a pair with no USD route, a candle in progress as of a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LENS_MINT, PUPS_MINT, SOL_MINT, USDC_MINT } from '../../src/generate/constants.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import type { TradeRow } from '../../src/schema/tables.js';
import { callAny } from '../helpers/call.js';

type Wire = Record<string, string | number | boolean | null>;

const S = 1_000_000_000n;
const T0 = 1_767_225_600n * S; // 2026-01-01T00:00:00Z, a multiple of every window
const T99 = T0 + 5n * S;
const T100 = T0 + 10n * S;
const T101 = T0 + 20n * S - 1n; // its 10s trailing window starts exactly at T100
const T102 = T0 + 60n * S; // exactly at a minute's start
const T103 = T0 + 200n * S; // after an empty minute

const SOL = 1_000_000_000n; // 9 decimals
const USDC = 1_000_000n; // 6 decimals
const PUPS = 1_000_000n; // 6 decimals
const LENS = 1_000_000n;

let signatures = 0;
function trade(slot: number, timestamp: bigint, base: string, quote: string, baseAmount: bigint, quoteAmount: bigint, isBuy: boolean, tx: number): TradeRow {
  const decimals = (mint: string) => (mint === SOL_MINT ? 9 : 6);
  return {
    signature: `sig${++signatures}`, signer: USDC_MINT, slot: BigInt(slot), tx_index: tx, fill_index: 0, timestamp,
    base, quote, base_amount: baseAmount, quote_amount: quoteAmount,
    base_decimals: decimals(base), quote_decimals: decimals(quote), is_buy: isBuy,
  };
}

const TRADES: TradeRow[] = [
  // PUPS/SOL before any SOL/USDC block: no USD price yet
  trade(99, T99, PUPS_MINT, SOL_MINT, 1000n * PUPS, SOL / 2n, true, 0), // 0.0005 SOL
  // SOL/USDC: 2 SOL at 100, 1 SOL at 500 (an outlier), 1 SOL at 102
  trade(100, T100, SOL_MINT, USDC_MINT, 2n * SOL, 200n * USDC, true, 0),
  trade(100, T100, SOL_MINT, USDC_MINT, 1n * SOL, 500n * USDC, true, 1),
  trade(100, T100, SOL_MINT, USDC_MINT, 1n * SOL, 102n * USDC, false, 2),
  trade(101, T101, SOL_MINT, USDC_MINT, 1n * SOL, 110n * USDC, false, 0),
  trade(101, T101, PUPS_MINT, SOL_MINT, 2000n * PUPS, (12n * SOL) / 10n, false, 1), // 0.0006 SOL, at $110
  trade(102, T102, SOL_MINT, USDC_MINT, 4n * SOL, 480n * USDC, true, 0), // 120
  trade(102, T102, LENS_MINT, PUPS_MINT, 10n * LENS, 40n * PUPS, true, 1), // 4 PUPS: no route to USD
  trade(103, T103, SOL_MINT, USDC_MINT, 1n * SOL, 130n * USDC, true, 0),
];

/** Floats within 1e-12 relative of the paper value; everything else exactly. */
function expectRecord(actual: Wire | undefined, expected: Record<string, string | number | null>) {
  expect(actual).toBeDefined();
  for (const [field, value] of Object.entries(expected)) {
    const got = actual![field];
    if (typeof value === 'number') {
      expect(typeof got, field).toBe('string');
      expect(Math.abs(Number(got) - value), `${field}: ${got} vs ${value}`).toBeLessThanOrEqual(Math.abs(value) * 1e-12);
    } else expect(got, field).toBe(value);
  }
}

const at = (t: bigint) => encodeTimestamp(t);

async function engineWith(trades: TradeRow[]): Promise<Engine> {
  const engine = await createEngine();
  for (const slot of [...new Set(trades.map((t) => t.slot))]) await engine.ingest({ trades: trades.filter((t) => t.slot === slot) });
  return engine;
}

describe('market methods on hand-computed trades', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await engineWith(TRADES);
  });
  afterAll(() => engine.close());

  const call = (method: string, params: Record<string, unknown>) => callAny(engine, `chain::market::${method}`, params) as Promise<Wire[]>;
  const sol = { base: SOL_MINT, quote: USDC_MINT };
  const pups = { base: PUPS_MINT, quote: SOL_MINT };

  it('block: outlier trimming, sides, USD routes', async () => {
    const all = await call('block', {});
    expect(all.map((r) => [r.slot, r.base])).toEqual([
      ['103', SOL_MINT], ['102', LENS_MINT], ['102', SOL_MINT], ['101', PUPS_MINT], ['101', SOL_MINT], ['100', SOL_MINT], ['99', PUPS_MINT],
    ]);
    // reference: prices sorted 100 (2 SOL), 102 (1), 500 (1); half the volume (2) is reached at 100.
    // 500 > 100 x 1.25: an outlier; vwap = (200 + 102) / 3, vwap_raw = 802 / 4
    expectRecord(all[5], {
      timestamp: at(T100), vwap: 302 / 3, vwap_raw: 200.5, min: '100', max: '500', base_volume: '4', quote_volume: '802',
      total_volume: '4', buy_volume: '3', sell_volume: '1', num_swaps: '3', buy_swaps: '2', sell_swaps: '1',
      quote_usd_price: '1', vwap_usd: 302 / 3, vwap_usd_raw: 200.5, min_usd: '100', max_usd: '500', volume_usd: '802',
      buy_volume_usd: '700', sell_volume_usd: '102', outlier_count: '1', outlier_volume_pct: '25',
    });
    // PUPS/SOL at 101 is worth 0.0006 SOL x $110 (SOL/USDC's VWAP in the same block)
    expectRecord(all[3], {
      vwap: 0.0006, min: '0.0006', max: '0.0006', quote_usd_price: '110', vwap_usd: 0.066, min_usd: 0.066,
      volume_usd: 132, buy_volume_usd: '0', sell_volume_usd: 132, outlier_count: '0', outlier_volume_pct: '0',
    });
    const noUsd = { quote_usd_price: null, vwap_usd: null, vwap_usd_raw: null, min_usd: null, max_usd: null, volume_usd: null, buy_volume_usd: null, sell_volume_usd: null };
    expectRecord(all[6], { vwap: 0.0005, ...noUsd }); // before the first SOL/USDC block
    expectRecord(all[1], { vwap: 4, quote: PUPS_MINT, ...noUsd }); // PUPS has no stablecoin pair
    expect(await call('block', { base: SOL_MINT, limit: 2 })).toEqual([all[0], all[2]]);
    expect(await call('block', { quote: SOL_MINT })).toEqual([all[3], all[6]]);
  });

  it('ohlcv: 1m and 10s candles; empty windows have none; USD unknown in a candle blanks its USD fields', async () => {
    const minutes = await call('ohlcv', { ...sol, window: '1m' });
    expect(minutes.map((c) => c.timestamp)).toEqual([at(T0 + 180n * S), at(T0 + 60n * S), at(T0)]);
    expectRecord(minutes[2], {
      window_duration: 'PT1M', window_start: at(T0), window_end: at(T0 + 60n * S),
      open: '100', high: '500', low: '100', close: '110', base_volume: '5', quote_volume: '912',
      open_usd: '100', high_usd: '500', low_usd: '100', close_usd: '110', volume_usd: '912', data_points: '4',
    });
    expectRecord(minutes[1], { open: '120', close: '120', base_volume: '4', quote_volume: '480', data_points: '1' });
    // T101 = 00:00:19.999999999 is in the same 10s candle as T100
    const tens = await call('ohlcv', { ...sol, window: '10s' });
    expect(tens.map((c) => c.timestamp)).toEqual([at(T0 + 200n * S), at(T0 + 60n * S), at(T0 + 10n * S)]);
    expectRecord(tens[2], { open: '100', close: '110', data_points: '4', window_end: at(T0 + 20n * S) });
    const [pupsMinute] = await call('ohlcv', { ...pups, window: '1m' });
    expectRecord(pupsMinute, {
      open: '0.0005', close: '0.0006', high: '0.0006', low: '0.0005', base_volume: '3000', quote_volume: 1.7, data_points: '2',
      open_usd: null, high_usd: null, low_usd: null, close_usd: null, volume_usd: null,
    });
  });

  it('vwap and volume: a block exactly at the window start is inside; a window with one trade', async () => {
    const [tenAt101] = await call('vwap', { ...sol, window: '10s', at: at(T101 + 1n) });
    // [T100, T101 + 1ns): slots 100 and 101, 5 SOL for 912 USDC
    expectRecord(tenAt101, {
      slot: '101', timestamp: at(T101), window_start: at(T100), window_end: at(T101 + 1n), vwap: 182.4,
      total_volume: '5', cumulative_price_volume: '912', current_price: '110', current_price_usd: '110', data_points: '4',
    });
    const [oneAt101] = await call('vwap', { ...sol, window: '1s', at: at(T101 + 1n) });
    expectRecord(oneAt101, { vwap: '110', total_volume: '1', total_volume_usd: '110', data_points: '1' });
    const [minuteAt102] = await call('volume', { ...sol, window: '1m', at: at(T102 + 1n) });
    // slots 100-102: buys 2 + 1 + 4 SOL (700 + 480 USDC), sells 1 + 1 SOL (102 + 110 USDC)
    expectRecord(minuteAt102, {
      base_volume: '9', quote_volume: '1392', buy_volume: '7', sell_volume: '2', total_volume: '9',
      buy_swaps: '3', sell_swaps: '2', total_swaps: '5', buy_sell_ratio: '3.5', data_points: '5', duration: 'PT1M',
      buy_volume_usd: '1180', sell_volume_usd: '212', total_volume_usd: '1392',
    });
    const [newest] = await call('volume', { ...sol, window: '1s' });
    expectRecord(newest, { buy_sell_ratio: null, sell_volume: '0', total_swaps: '1' });
    // PUPS/SOL: the 1m window holds slot 99 (no USD price), the 10s window only slot 101
    const [pupsMinute] = await call('volume', { ...pups, window: '1m' });
    expectRecord(pupsMinute, { base_volume: '3000', total_volume_usd: null, buy_volume_usd: null, data_points: '2' });
    const [pupsTen] = await call('volume', { ...pups, window: '10s' });
    expectRecord(pupsTen, { base_volume: '2000', total_volume_usd: 132, sell_volume_usd: 132, buy_volume_usd: '0' });
    const [lens] = await call('vwap', { base: LENS_MINT, window: '24h' });
    expectRecord(lens, { vwap: '4', vwap_usd: null, current_price_usd: null, total_volume_usd: null });
  });

  it('twap: carry-in, carry-in across an empty window, a pair\'s first block, unknown USD', async () => {
    // 1s at 101: 102 (slot 100's close) held from 00:00:19 for 1s - 1ns, then 110 for 1ns
    const [oneAt101] = await call('twap', { ...sol, window: '1s', at: at(T101 + 1n) });
    expectRecord(oneAt101, {
      twap: 102.000000008, cumulative_weighted_sum: 102.000000008, twap_usd: 102.000000008,
      total_duration: 'PT1S', current_price: '110', data_points: '1', window_start: at(T0 + 19n * S),
    });
    // 1m at 103: nothing traded in the minute before; 120 carried in for 60s - 1ns, then 130 for 1ns
    const [minuteAt103] = await call('twap', { ...sol, window: '1m' });
    expectRecord(minuteAt103, {
      slot: '103', twap: 7200000000010 / 6e10, cumulative_weighted_sum: 7200.00000001, total_duration: 'PT1M',
      current_price: '130', data_points: '1',
    });
    // PUPS/SOL at 99: its first block, nothing to carry in: 1ns covered
    const [first] = await call('twap', { ...pups, window: '1m', at: at(T99 + 1n) });
    expectRecord(first, { twap: '0.0005', total_duration: 'PT0.000000001S', twap_usd: null, current_price_usd: null });
    // at 101: 0.0005 held from T99 for 15s - 1ns (no USD price), then 0.0006 for 1ns
    const [minute] = await call('twap', { ...pups, window: '1m' });
    expectRecord(minute, {
      twap: (0.0005 * 14999999999 + 0.0006) / 15e9, total_duration: 'PT15S', twap_usd: null, cumulative_weighted_sum_usd: null,
      current_price: '0.0006', current_price_usd: 0.066, data_points: '2',
    });
  });

  it('as of a time inside a candle: the candle so far; as-of equals a live engine fed the earlier trades', async () => {
    const [partial] = await call('ohlcv', { ...sol, window: '1m', at: at(T101) });
    expectRecord(partial, { open: '100', high: '500', low: '100', close: '102', base_volume: '4', data_points: '3' });
    for (const cut of [T100, T101, T101 + 1n, T102, T103, T103 + 1n]) {
      const live = await engineWith(TRADES.filter((t) => t.timestamp < cut));
      try {
        for (const method of ['block', 'ohlcv', 'volume', 'vwap', 'twap']) {
          for (const window of ['1s', '10s', '1m', '24h']) {
            const params = method === 'block' ? {} : { window };
            expect(await call(method, { ...params, at: at(cut) }), `${method} ${window} at ${cut}`).toEqual(
              await callAny(live, `chain::market::${method}`, params));
            if (method === 'block') break;
          }
        }
      } finally {
        await live.close();
      }
    }
  });
});

describe('market engine settings', () => {
  it('outlierThreshold and stablecoins', async () => {
    const engine = await createEngine({ outlierThreshold: 5, stablecoins: [] });
    try {
      await engine.ingest({ trades: TRADES });
      const blocks = (await engine.call('chain::market::block', { base: SOL_MINT })) as Wire[];
      // 500 < 100 x (1 + 5): no outlier at slot 100; no stablecoin: no USD price anywhere
      expectRecord(blocks.find((r) => r.slot === '100'), { outlier_count: '0', outlier_volume_pct: '0', vwap: 200.5, quote_usd_price: null, volume_usd: null });
      const [candle] = (await engine.call('chain::market::ohlcv', { base: SOL_MINT, window: '24h' })) as Wire[];
      expectRecord(candle, { open: '100', close: '130', data_points: '6', volume_usd: null, open_usd: null });
    } finally {
      await engine.close();
    }
  });
});
