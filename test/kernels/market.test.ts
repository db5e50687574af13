import { beforeAll, describe, expect, it } from 'vitest';
import {
  createMarketKernels,
  MARKET_STATUS,
  marketModule,
  type MarketKernels,
  type TradeColumns,
  type TwapWindows,
} from '../../src/kernels/market.js';
import {
  blockAggregatesReference,
  candlesReference,
  groupSumsReference,
  twapReference,
  weightedMedianReference,
} from '../../src/kernels/market-reference.js';
import { MARKET_WINDOWS, windowNanos } from '../../src/schema/time.js';
import { mulberry32 } from '../helpers/prng.js';

/*
 * Exactness: the kernels and the references run the same floating-point operations in the same
 * order (sums in trade order, max/min with the same NaN and signed-zero rules, no fused
 * multiply-add in either WebAssembly or JS), so every kernel result is compared bit for bit
 * (Object.is: NaN equals NaN). Only the additivity checks at the end compare sums taken in another
 * order (per block, then per window); those use the error bound of recursive summation of
 * positive terms, 2 * count * 2^-53 relative.
 */

const NS = 1_000_000_000n;

interface Market extends TradeColumns {
  readonly slot: BigInt64Array;
}

/**
 * `n` trades of one pair: blocks every 400 ms slot with skipped slots, block times floored to the
 * second 60% of the time (so consecutive blocks share a time, and times land on window starts),
 * rare idle gaps of up to 2 h (empty windows), 1-8 trades per block, a random-walk price with 1%
 * outliers (x or / e^0.4..e^1.6), log-normal sizes, and a per-block USD price unknown in 5% of blocks.
 */
function randomMarket(n: number, seed: number): Market {
  const rand = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const time = new BigInt64Array(n);
  const slot = new BigInt64Array(n);
  const baseVolume = new Float64Array(n);
  const quoteVolume = new Float64Array(n);
  const quoteUsdPrice = new Float64Array(n);
  const isBuy = new Uint8Array(n);
  let s = 250_000_000n;
  let clock = 1_700_000_000n * NS;
  let blockTime = 0n;
  let logPrice = Math.log(150);
  let usd = 1.0;
  for (let i = 0; i < n; ) {
    const skipped = rand() < 0.05 ? 1 + Math.floor(rand() * 3) : 0;
    s += BigInt(1 + skipped);
    clock += BigInt(1 + skipped) * 400_000_000n;
    if (rand() < 0.00005) clock += BigInt(Math.floor(rand() * 7200)) * NS + BigInt(Math.floor(rand() * 1e9));
    const candidate = rand() < 0.6 ? (clock / NS) * NS : clock + BigInt(Math.floor(rand() * 50_000_000));
    blockTime = candidate > blockTime ? candidate : blockTime;
    logPrice += 0.002 * normal();
    usd *= Math.exp(0.001 * normal());
    const blockUsd = rand() < 0.05 ? NaN : usd;
    const trades = Math.min(n - i, 1 + Math.floor(rand() * 8));
    for (let k = 0; k < trades; k++, i++) {
      let price = Math.exp(logPrice + 0.003 * normal());
      if (rand() < 0.01) price *= Math.exp((rand() < 0.5 ? -1 : 1) * (0.4 + 1.2 * rand()));
      const base = 10 * Math.exp(1.5 * normal());
      time[i] = blockTime;
      slot[i] = s;
      baseVolume[i] = base;
      quoteVolume[i] = base * price;
      quoteUsdPrice[i] = blockUsd;
      isBuy[i] = rand() < 0.5 ? 1 : 0;
    }
  }
  return { time, slot, baseVolume, quoteVolume, quoteUsdPrice, isBuy };
}

/** The first `n` trades. */
function prefix(market: Market, n: number): Market {
  return {
    time: market.time.subarray(0, n), slot: market.slot.subarray(0, n),
    baseVolume: market.baseVolume.subarray(0, n), quoteVolume: market.quoteVolume.subarray(0, n),
    quoteUsdPrice: market.quoteUsdPrice.subarray(0, n), isBuy: market.isBuy.subarray(0, n),
  };
}

type Column = ArrayLike<number | bigint>;

/** Same fields, same array types, every element Object.is-equal; reports the first difference. */
function expectIdentical(actual: object, expected: object, label: string): void {
  const got = actual as Record<string, Column>;
  const want = expected as Record<string, Column>;
  expect(Object.keys(got).sort(), label).toEqual(Object.keys(want).sort());
  for (const [name, column] of Object.entries(want)) {
    const values = got[name]!;
    expect(values.constructor, `${label} ${name}`).toBe(column.constructor);
    expect(values.length, `${label} ${name} length`).toBe(column.length);
    for (let i = 0; i < column.length; i++) {
      if (!Object.is(values[i], column[i])) {
        expect({ field: name, row: i, value: values[i] }, label).toEqual({ field: name, row: i, value: column[i] });
      }
    }
  }
}

/** Tumbling windows of `width` from one window before the first trade to one after the last. */
function tumblingWindows(time: BigInt64Array, width: bigint): TwapWindows {
  const first = (time[0]! / width) * width - width;
  const last = (time[time.length - 1]! / width) * width + width;
  const m = Number((last - first) / width) + 1;
  const start = BigInt64Array.from({ length: m }, (_, j) => first + BigInt(j) * width);
  return { start, end: start.map((s) => s + width) };
}

/** Trailing windows [t + 1 - width, t + 1) ending at every `step`-th trade's time (DESIGN.md 5). */
function trailingWindows(time: BigInt64Array, width: bigint, step: number): TwapWindows {
  const ends: bigint[] = [];
  for (let i = 0; i < time.length; i += step) ends.push(time[i]! + 1n);
  const end = BigInt64Array.from(ends);
  return { start: end.map((e) => e - width), end };
}

const kernels = createMarketKernels();
const N = 1_000_000;
let market: Market;

beforeAll(() => {
  market = randomMarket(N, 20240601);
});

describe('market kernels vs the references on 10^6 seeded trades', () => {
  it('the data reaches the interesting cases', () => {
    const usdUnknown = market.quoteUsdPrice.filter(Number.isNaN).length;
    expect(usdUnknown).toBeGreaterThan(N * 0.02);
    expect(usdUnknown).toBeLessThan(N * 0.1);
    const shared = market.time.filter((t, i) => i > 0 && t === market.time[i - 1]).length;
    expect(shared).toBeGreaterThan(N * 0.7); // several trades per block, blocks sharing a time
    const onSecond = market.time.filter((t) => t % NS === 0n).length;
    expect(onSecond).toBeGreaterThan(N * 0.3);
    const blocks = kernels.blockAggregates(market, market.slot);
    const outliers = blocks.outlierCount.reduce((a, b) => a + b, 0);
    expect(outliers).toBeGreaterThan(N * 0.002);
  });

  for (const window of MARKET_WINDOWS) {
    const width = windowNanos(window);

    it(`candles, ${window}`, () => {
      const actual = kernels.candles(market, width);
      expectIdentical(actual, candlesReference(market, width), `candles ${window}`);
      expect(actual.count.reduce((a, b) => a + b, 0)).toBe(N);
    });

    it(`VWAP and volume partial sums per ${window} bucket`, () => {
      const actual = kernels.groupSums(market, market.time, width);
      expectIdentical(actual, groupSumsReference(market, market.time, width), `groupSums ${window}`);
    });

    it(`TWAP over tumbling ${window} windows, without and with a carry-in`, () => {
      const windows = tumblingWindows(market.time, width);
      expectIdentical(kernels.twap(market, windows), twapReference(market, windows), `twap ${window}`);
      const carry = { price: 149.5, priceUsd: 149.5 * 1.01 };
      const withCarry = kernels.twap(market, windows, carry);
      expectIdentical(withCarry, twapReference(market, windows, carry), `twap ${window} with carry-in`);
      expect(withCarry.lastPrice[0]).toBe(149.5);
    });
  }

  it('VWAP partial sums per block (keys = slots)', () => {
    expectIdentical(kernels.groupSums(market, market.slot, 1n), groupSumsReference(market, market.slot, 1n), 'per block');
  });

  for (const window of ['1s', '1m', '1h'] as const) {
    it(`TWAP over trailing ${window} windows ending at blocks (overlapping windows)`, () => {
      const trades = prefix(market, 200_000);
      const windows = trailingWindows(trades.time, windowNanos(window), 997);
      expectIdentical(kernels.twap(trades, windows), twapReference(trades, windows), `trailing twap ${window}`);
    });
  }

  it('block aggregates per slot, at the default threshold and at 0 and 1', () => {
    expectIdentical(kernels.blockAggregates(market, market.slot), blockAggregatesReference(market, market.slot), 't = 0.25');
    const trades = prefix(market, 100_000);
    for (const threshold of [0, 1]) {
      expectIdentical(
        kernels.blockAggregates(trades, trades.slot, { threshold }),
        blockAggregatesReference(trades, trades.slot, { threshold }),
        `t = ${threshold}`,
      );
    }
  });

  it('block aggregates over large groups (whole 1h buckets, merge sort with ties)', () => {
    const trades = prefix(market, 100_000);
    // Round prices to 3 significant digits so many trades share a price (ties keep trade order).
    const quoteVolume = trades.quoteVolume.map((q, i) => Number((q / trades.baseVolume[i]!).toPrecision(3)) * trades.baseVolume[i]!);
    const tied = { ...trades, quoteVolume };
    const options = { width: windowNanos('1h') };
    const actual = kernels.blockAggregates(tied, trades.time, options);
    expect(Math.max(...actual.count)).toBeGreaterThan(5000);
    expectIdentical(actual, blockAggregatesReference(tied, trades.time, options), '1h groups');
  });
});

describe('additivity of the partials (another summation order: relative tolerance)', () => {
  /** |a - b| <= 2 * terms * 2^-53 * |b|: the bound for summing `terms` positive values. */
  function expectClose(actual: number, expected: number, terms: number, label: string): void {
    expect(Math.abs(actual - expected), label).toBeLessThanOrEqual(2 * terms * 2 ** -53 * Math.abs(expected));
  }

  it('per-block sums added up per 1m bucket equal the 1m sums', () => {
    const width = windowNanos('1m');
    const perMinute = kernels.groupSums(market, market.time, width);
    const perBlock = kernels.groupSums(market, market.slot, 1n);
    // Every trade of a block shares its time, so each block lies in one minute.
    const blockMinute = new BigInt64Array(perBlock.start.length);
    let at = 0;
    perBlock.count.forEach((count, b) => {
      blockMinute[b] = (market.time[at]! / width) * width;
      at += count;
    });
    const fields = ['baseVolume', 'quoteVolume', 'priceVolume', 'buyVolume', 'sellVolume', 'volumeUsd', 'priceVolumeUsd'] as const;
    let b = 0;
    for (let row = 0; row < perMinute.start.length; row++) {
      const totals: Record<string, number> = Object.fromEntries(fields.map((f) => [f, 0]));
      let count = 0;
      let unknown = 0;
      for (; b < blockMinute.length && blockMinute[b] === perMinute.start[row]; b++) {
        for (const f of fields) totals[f]! += perBlock[f][b]!;
        count += perBlock.count[b]!;
        unknown += perBlock.usdUnknown[b]!;
      }
      expect(count).toBe(perMinute.count[row]);
      expect(unknown).toBe(perMinute.usdUnknown[row]);
      for (const f of fields) expectClose(totals[f]!, perMinute[f][row]!, count, `${f} at ${perMinute.start[row]}`);
    }
    expect(b).toBe(blockMinute.length);
  });

  it('TWAP sums over 1m windows add up to the sums over their 1h window', () => {
    const hours = tumblingWindows(market.time, windowNanos('1h'));
    const minute = windowNanos('1m');
    const first = hours.start[0]!;
    const m = Number((hours.end[hours.end.length - 1]! - first) / minute);
    const start = BigInt64Array.from({ length: m }, (_, j) => first + BigInt(j) * minute);
    const minutes = { start, end: start.map((s) => s + minute) };
    const carry = { price: 150, priceUsd: 150 };
    const byMinute = kernels.twap(market, minutes, carry);
    const byHour = kernels.twap(market, hours, carry);
    let j = 0;
    for (let h = 0; h < hours.start.length; h++) {
      let duration = 0n;
      let sum = 0;
      let terms = 0;
      for (; j < m && minutes.start[j]! < hours.end[h]!; j++) {
        duration += byMinute.durationNs[j]!;
        sum += byMinute.weightedSum[j]!;
        terms += byMinute.count[j]! + 1;
      }
      expect(duration).toBe(byHour.durationNs[h]);
      expectClose(sum, byHour.weightedSum[h]!, terms + 60, `hour ${hours.start[h]}`);
    }
  });
});

/*
 * A hand-computed market. B = 1_700_000_040 s is a multiple of 60 (28_333_334 * 60), so minutes
 * start at B, B + 60, B + 120. price = quote / base.
 *
 *   trade slot time     base quote price side usd
 *   1     100  B + 10   2    20    10    buy  1
 *   2     100  B + 10   1    12    12    sell 1
 *   3     101  B + 30   1    11    11    buy  1
 *   4     105  B + 120  4    36    9     sell 2     (exactly at a minute start)
 *   5     105  B + 120  1    40    40    buy  2     (an outlier of block 105)
 *   6     106  B + 150  2    20    10    buy  NaN   (USD unknown)
 */
const B = 1_700_000_040n * NS;
const sec = (s: number) => B + BigInt(s) * NS;
const HAND: Market = {
  slot: BigInt64Array.of(100n, 100n, 101n, 105n, 105n, 106n),
  time: BigInt64Array.of(sec(10), sec(10), sec(30), sec(120), sec(120), sec(150)),
  baseVolume: Float64Array.of(2, 1, 1, 4, 1, 2),
  quoteVolume: Float64Array.of(20, 12, 11, 36, 40, 20),
  quoteUsdPrice: Float64Array.of(1, 1, 1, 2, 2, NaN),
  isBuy: Uint8Array.of(1, 0, 1, 0, 1, 1),
};
const MINUTE = windowNanos('1m');

describe('market kernels on a hand-computed market', () => {
  it('1m candles: the empty minute B + 60 has none; a USD-unknown trade blanks its candle USD', () => {
    const expected = {
      start: BigInt64Array.of(B, sec(120)),
      open: Float64Array.of(10, 9), // trades 1 and 4 open their minutes
      high: Float64Array.of(12, 40),
      low: Float64Array.of(10, 9),
      close: Float64Array.of(11, 10), // trades 3 and 6
      baseVolume: Float64Array.of(2 + 1 + 1, 4 + 1 + 2),
      quoteVolume: Float64Array.of(20 + 12 + 11, 36 + 40 + 20),
      openUsd: Float64Array.of(10, NaN), // usd 1: the prices; minute 2 has trade 6 (USD unknown)
      highUsd: Float64Array.of(12, NaN),
      lowUsd: Float64Array.of(10, NaN),
      closeUsd: Float64Array.of(11, NaN),
      volumeUsd: Float64Array.of(43, NaN),
      count: Uint32Array.of(3, 3),
    };
    expectIdentical(kernels.candles(HAND, MINUTE), expected, 'kernel');
    expectIdentical(candlesReference(HAND, MINUTE), expected, 'reference');
  });

  it('VWAP partial sums per 1m and per block', () => {
    const perMinute = {
      start: BigInt64Array.of(B, sec(120)),
      baseVolume: Float64Array.of(4, 7),
      quoteVolume: Float64Array.of(43, 96), // vwap 43 / 4 = 10.75 and 96 / 7
      priceVolume: Float64Array.of(10 * 2 + 12 * 1 + 11 * 1, 9 * 4 + 40 * 1 + 10 * 2),
      buyVolume: Float64Array.of(2 + 1, 1 + 2), // trades 1, 3 and 5, 6
      sellVolume: Float64Array.of(1, 4), // trades 2 and 4
      volumeUsd: Float64Array.of(43, 36 * 2 + 40 * 2), // trade 6 (USD unknown) left out
      priceVolumeUsd: Float64Array.of(43, 9 * 2 * 4 + 40 * 2 * 1),
      buyVolumeUsd: Float64Array.of(20 + 11, 80),
      sellVolumeUsd: Float64Array.of(12, 72),
      count: Uint32Array.of(3, 3),
      buyCount: Uint32Array.of(2, 2),
      usdUnknown: Uint32Array.of(0, 1),
    };
    expectIdentical(kernels.groupSums(HAND, HAND.time, MINUTE), perMinute, 'kernel 1m');
    expectIdentical(groupSumsReference(HAND, HAND.time, MINUTE), perMinute, 'reference 1m');
    const perBlock = kernels.groupSums(HAND, HAND.slot, 1n);
    expect([...perBlock.start]).toEqual([100n, 101n, 105n, 106n]);
    expect([...perBlock.quoteVolume].map((q, k) => q / perBlock.baseVolume[k]!)).toEqual([32 / 3, 11, 76 / 5, 10]);
    expect([...perBlock.usdUnknown]).toEqual([0, 0, 0, 1]);
  });

  const windows: TwapWindows = {
    start: BigInt64Array.of(sec(-60), B, sec(60), sec(120), sec(135)),
    end: BigInt64Array.of(B, sec(60), sec(120), sec(180), sec(165)),
  };

  it('TWAP: carry-in across an empty minute, a trade at a window start, a window with one trade', () => {
    const expected = {
      // [B-60, B): nothing before it and no carry-in: nothing covered.
      // [B, B+60): trade 1 holds 0 s (trade 2 shares its time); 12 x 20 s (B+10..B+30) + 11 x 30 s.
      // [B+60, B+120): no trades; trade 3's 11 carries in for 60 s.
      // [B+120, B+180): trade 4 at the start (the carry-in and trade 4 hold 0 s); 40 x 30 s + 10 x 30 s;
      //   trade 6's USD price is unknown.
      // [B+135, B+165): trade 5's 40 carries in for 15 s, then trade 6 (the only one inside) 10 x 15 s.
      durationNs: BigInt64Array.of(0n, 50n * NS, 60n * NS, 60n * NS, 30n * NS),
      weightedSum: Float64Array.of(0, 240 + 330, 660, 1200 + 300, 600 + 150),
      weightedSumUsd: Float64Array.of(0, 570, 660, NaN, NaN),
      twap: Float64Array.of(NaN, 11.4, 11, 25, 25), // 570 / 50, 660 / 60, 1500 / 60, 750 / 30
      twapUsd: Float64Array.of(NaN, 11.4, 11, NaN, NaN),
      lastPrice: Float64Array.of(NaN, 11, 11, 10, 10),
      lastPriceUsd: Float64Array.of(NaN, 11, 11, NaN, NaN),
      count: Uint32Array.of(0, 3, 0, 3, 1),
    };
    expectIdentical(kernels.twap(HAND, windows), expected, 'kernel');
    expectIdentical(twapReference(HAND, windows), expected, 'reference');
  });

  it('TWAP with a caller carry-in before the first trade (price 8, USD 16)', () => {
    const carry = { price: 8, priceUsd: 16 };
    const actual = kernels.twap(HAND, windows, carry);
    expectIdentical(actual, twapReference(HAND, windows, carry), 'kernel vs reference');
    // [B-60, B): 8 x 60 s. [B, B+60): 8 x 10 s (B..B+10) + 570; USD 16 x 10 + 570. Later windows
    // carry trades of the list, not the caller's price.
    expect([...actual.durationNs.slice(0, 3)]).toEqual([60n * NS, 60n * NS, 60n * NS]);
    expect([...actual.weightedSum.slice(0, 3)]).toEqual([480, 80 + 570, 660]);
    expect([...actual.weightedSumUsd.slice(0, 2)]).toEqual([960, 160 + 570]);
    expect([...actual.twap.slice(0, 2)]).toEqual([8, 650 / 60]);
    expect([...actual.twapUsd.slice(0, 2)]).toEqual([16, 730 / 60]);
    expect([...actual.lastPrice.slice(0, 1)]).toEqual([8]);
  });

  it('block aggregates: trade 5 is an outlier of block 105', () => {
    // Block 105: prices 9 (base 4), 40 (base 1); C = 4 >= 5 / 2 at 9, so reference 9.
    // Outliers: above 9 x 1.25 = 11.25 or below 9 / 1.25 = 7.2: trade 5 (40).
    // Block 100: prices 10 (2), 12 (1): C = 2 >= 1.5 at 10; bounds 12.5 and 8: no outlier.
    const expected = {
      key: BigInt64Array.of(100n, 101n, 105n, 106n),
      vwap: Float64Array.of(32 / 3, 11, 36 / 4, 10),
      vwapRaw: Float64Array.of(32 / 3, 11, 76 / 5, 10),
      reference: Float64Array.of(10, 11, 9, 10),
      min: Float64Array.of(10, 11, 9, 10),
      max: Float64Array.of(12, 11, 40, 10),
      baseVolume: Float64Array.of(3, 1, 5, 2),
      quoteVolume: Float64Array.of(32, 11, 76, 20),
      buyVolume: Float64Array.of(2, 1, 1, 2),
      sellVolume: Float64Array.of(1, 0, 4, 0),
      outlierVolumePct: Float64Array.of(0, 0, (100 * 1) / 5, 0),
      vwapUsd: Float64Array.of(32 / 3, 11, 72 / 4, NaN), // block 106: USD unknown
      vwapUsdRaw: Float64Array.of(32 / 3, 11, 152 / 5, NaN),
      minUsd: Float64Array.of(10, 11, 18, NaN),
      maxUsd: Float64Array.of(12, 11, 80, NaN),
      volumeUsd: Float64Array.of(32, 11, 152, NaN),
      buyVolumeUsd: Float64Array.of(20, 11, 80, NaN),
      sellVolumeUsd: Float64Array.of(12, 0, 72, NaN),
      count: Uint32Array.of(2, 1, 2, 1),
      buyCount: Uint32Array.of(1, 1, 1, 1),
      outlierCount: Uint32Array.of(0, 0, 1, 0),
    };
    expectIdentical(kernels.blockAggregates(HAND, HAND.slot), expected, 'kernel');
    expectIdentical(blockAggregatesReference(HAND, HAND.slot), expected, 'reference');
  });

  it('the weighted median is the lower one, ties in trade order; the bounds are inclusive', () => {
    expect(weightedMedianReference([20, 10], [1, 1])).toBe(10); // C = 1 >= 2 / 2 at 10
    expect(weightedMedianReference([30, 10, 20], [2, 1, 1])).toBe(20); // C = 1, 2 >= 4 / 2
    expect(weightedMedianReference([30, 10, 20], [3, 1, 1])).toBe(30); // C = 1, 2, 5 >= 2.5
    // Reference 10, t = 0.25: 12.5 and 8 are kept, 12.51 and 7.99 are outliers.
    const prices = [10, 12.5, 8, 12.51, 7.99];
    const block = {
      baseVolume: Float64Array.of(10, 1, 1, 1, 1),
      quoteVolume: Float64Array.from(prices, (p, i) => p * [10, 1, 1, 1, 1][i]!),
      quoteUsdPrice: new Float64Array(5).fill(1),
      isBuy: new Uint8Array(5),
    };
    const keys = new BigInt64Array(5);
    const result = kernels.blockAggregates(block, keys);
    expect(result.reference[0]).toBe(10);
    expect(result.outlierCount[0]).toBe(2);
    expect(result.vwap[0]).toBe((100 + 12.5 + 8) / 12);
    expect(kernels.blockAggregates(block, keys, { threshold: 0 }).outlierCount[0]).toBe(4);
  });
});

describe('market kernel edges', () => {
  it('floors negative times toward minus infinity', () => {
    const trades = {
      time: BigInt64Array.of(-NS - 1n, -1n, 0n),
      baseVolume: Float64Array.of(1, 1, 1),
      quoteVolume: Float64Array.of(1, 2, 3),
      quoteUsdPrice: Float64Array.of(1, 1, 1),
    };
    expect([...kernels.candles(trades, NS).start]).toEqual([-2n * NS, -NS, 0n]);
    expect([...candlesReference(trades, NS).start]).toEqual([-2n * NS, -NS, 0n]);
  });

  it('no trades: no candles or groups; TWAP windows covered by the carry-in alone', () => {
    const none = randomMarket(0, 1);
    expect(kernels.candles(none, MINUTE).start.length).toBe(0);
    expect(kernels.groupSums(none, none.slot, 1n).count.length).toBe(0);
    expect(kernels.blockAggregates(none, none.slot).count.length).toBe(0);
    const twap = kernels.twap(none, { start: BigInt64Array.of(0n), end: BigInt64Array.of(NS) }, { price: 2, priceUsd: NaN });
    expect(twap.twap[0]).toBe(2);
    expect(twap.twapUsd[0]).toBeNaN();
  });

  it('rejects unsorted trades, bad widths, windows and thresholds with clear errors', () => {
    const swapped = { ...HAND, time: HAND.time.slice().reverse(), slot: HAND.slot.slice().reverse() };
    expect(() => kernels.candles(swapped, MINUTE)).toThrow(/decrease/);
    expect(() => candlesReference(swapped, MINUTE)).toThrow(/decrease/);
    expect(() => kernels.groupSums(swapped, swapped.slot, 1n)).toThrow(/decrease/);
    expect(() => kernels.blockAggregates(swapped, swapped.slot)).toThrow(/decrease/);
    expect(() => kernels.twap(swapped, { start: BigInt64Array.of(0n), end: BigInt64Array.of(1n) })).toThrow(/decrease/);
    expect(() => kernels.candles(HAND, 0n)).toThrow(/positive/);
    expect(() => candlesReference(HAND, 0n)).toThrow(/positive/);
    const backwards = { start: BigInt64Array.of(sec(60), B), end: BigInt64Array.of(sec(120), sec(60)) };
    expect(() => kernels.twap(HAND, backwards)).toThrow(/window/);
    expect(() => twapReference(HAND, backwards)).toThrow(/window/);
    expect(() => kernels.twap(HAND, { start: BigInt64Array.of(B), end: BigInt64Array.of(B - 1n) })).toThrow(/window/);
    for (const threshold of [-0.1, NaN, Infinity]) {
      expect(() => kernels.blockAggregates(HAND, HAND.slot, { threshold })).toThrow(/threshold/);
      expect(() => blockAggregatesReference(HAND, HAND.slot, { threshold })).toThrow(/threshold/);
    }
    expect(() => kernels.candles({ ...HAND, baseVolume: HAND.baseVolume.subarray(1) }, MINUTE)).toThrow(RangeError);
  });

  it('groupSums in chunks: the same sums bit for bit, open groups carried across chunks', () => {
    // The wrapper counts the groups on a fresh instance (every trade at once); it goes by chunks of
    // 65536 trades when the key span fits the group rows reserved (here made room for beforehand,
    // as the data has idle hours): both paths against the reference, 1m groups straddling chunks.
    const fresh = createMarketKernels();
    const trades = prefix(market, 300_000);
    const reference = groupSumsReference(trades, trades.time, MINUTE);
    expectIdentical(fresh.groupSums(trades, trades.time, MINUTE), reference, 'all at once');
    expect(fresh.exports.tradeCapacity()).toBeGreaterThanOrEqual(300_000);
    expect(fresh.exports.reserve(0, 100_000, 0)).toBe(0);
    expectIdentical(fresh.groupSums(trades, trades.time, MINUTE), reference, 'in chunks');
    // (It did go by chunks: the key area starts with the last chunk's keys.)
    const firstKey = (k: MarketKernels) => new BigInt64Array(k.exports.memory.buffer, k.exports.keyPtr(), 1)[0];
    expect(firstKey(fresh)).toBe(trades.time[4 * 65536]);
    // Per block, skipped slots in the span: the first call makes room for the span, the next goes by chunks.
    const blocks = createMarketKernels();
    const perBlock = groupSumsReference(trades, trades.slot, 1n);
    expectIdentical(blocks.groupSums(trades, trades.slot, 1n), perBlock, 'per block, all at once');
    expect(firstKey(blocks)).toBe(trades.slot[0]);
    expectIdentical(blocks.groupSums(trades, trades.slot, 1n), perBlock, 'per block, in chunks');
    expect(firstKey(blocks)).toBe(trades.slot[4 * 65536]);
    // Through the exports, chunks of 1 to 7 trades (odd ones end a group's run mid-pair).
    const small = prefix(market, 5_000);
    const x = fresh.exports;
    expect(fresh.groupSums(small, small.slot, 1n).count.length).toBeGreaterThan(500);
    x.groupSumsBegin();
    for (let at = 0, size = 1; at < small.slot.length; at += size, size = (size % 7) + 1) {
      const end = Math.min(small.slot.length, at + size);
      const column = (ptr: number, values: BigInt64Array | Float64Array | Uint8Array) =>
        new Uint8Array(x.memory.buffer, ptr, values.byteLength).set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
      column(x.keyPtr(), small.slot.subarray(at, end));
      column(x.basePtr(), small.baseVolume.subarray(at, end));
      column(x.quotePtr(), small.quoteVolume.subarray(at, end));
      column(x.usdPtr(), small.quoteUsdPrice.subarray(at, end));
      column(x.isBuyPtr(), small.isBuy.subarray(at, end));
      expect(x.groupSumsNext(x.keyPtr(), x.basePtr(), x.quotePtr(), x.usdPtr(), x.isBuyPtr(), end - at, 1n, x.columnPtr(0), x.groupCapacity())).toBe(0);
    }
    expect(x.groupSumsEnd(x.columnPtr(0), x.groupCapacity())).toBe(0);
    const reference2 = groupSumsReference(small, small.slot, 1n);
    expect(x.groupCount()).toBe(reference2.count.length);
    const start = new BigInt64Array(x.memory.buffer, x.columnPtr(0), x.groupCount());
    const priceVolumeUsd = new Float64Array(x.memory.buffer, x.columnPtr(7), x.groupCount());
    const unknown = new Uint32Array(x.memory.buffer, x.columnPtr(12), x.groupCount());
    expectIdentical({ start, priceVolumeUsd, unknown }, {
      start: reference2.start, priceVolumeUsd: reference2.priceVolumeUsd, unknown: reference2.usdUnknown,
    }, 'chunks of 1-7 trades');
    // Keys that decrease between chunks (first and last in order): found in the chunks, reported.
    const unsorted = { ...trades, time: trades.time.slice() };
    unsorted.time[100_000] = unsorted.time[200_000]! + NS;
    expect(() => fresh.groupSums(unsorted, unsorted.time, MINUTE)).toThrow(/decrease/);
  });

  it('candles in chunks: the same candles bit for bit, the open candle carried across chunks', () => {
    // As groupSums: the first call counts the candles (all at once), the next goes by chunks of
    // 65536 trades once the span fits the rows reserved; 1m candles straddle chunks.
    const fresh = createMarketKernels();
    const trades = prefix(market, 300_000);
    const reference = candlesReference(trades, MINUTE);
    expectIdentical(fresh.candles(trades, MINUTE), reference, 'all at once');
    expect(fresh.exports.reserve(0, 100_000, 0)).toBe(0);
    expectIdentical(fresh.candles(trades, MINUTE), reference, 'in chunks');
    const x = fresh.exports;
    expect(new BigInt64Array(x.memory.buffer, x.keyPtr(), 1)[0]).toBe(trades.time[4 * 65536]);
    // Through the exports, chunks of 1 to 7 trades (odd ones end a candle's run mid-pair).
    const small = prefix(market, 5_000);
    x.candlesBegin();
    for (let at = 0, size = 1; at < small.time.length; at += size, size = (size % 7) + 1) {
      const end = Math.min(small.time.length, at + size);
      const column = (ptr: number, values: BigInt64Array | Float64Array) =>
        new Uint8Array(x.memory.buffer, ptr, values.byteLength).set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
      column(x.keyPtr(), small.time.subarray(at, end));
      column(x.basePtr(), small.baseVolume.subarray(at, end));
      column(x.quotePtr(), small.quoteVolume.subarray(at, end));
      column(x.usdPtr(), small.quoteUsdPrice.subarray(at, end));
      expect(x.candlesNext(x.keyPtr(), x.basePtr(), x.quotePtr(), x.usdPtr(), end - at, NS, x.columnPtr(0), x.groupCapacity())).toBe(0);
    }
    expect(x.candlesEnd(x.columnPtr(0), x.groupCapacity())).toBe(0);
    const expected = candlesReference(small, NS);
    const rows = x.groupCount();
    expect(rows).toBe(expected.count.length);
    const f64 = (k: number) => new Float64Array(x.memory.buffer, x.columnPtr(k), rows);
    expectIdentical({
      start: new BigInt64Array(x.memory.buffer, x.columnPtr(0), rows), open: f64(1), high: f64(2), low: f64(3), close: f64(4),
      baseVolume: f64(5), highUsd: f64(8), lowUsd: f64(9), closeUsd: f64(10), volumeUsd: f64(11),
      count: new Uint32Array(x.memory.buffer, x.columnPtr(12), rows),
    }, {
      start: expected.start, open: expected.open, high: expected.high, low: expected.low, close: expected.close,
      baseVolume: expected.baseVolume, highUsd: expected.highUsd, lowUsd: expected.lowUsd, closeUsd: expected.closeUsd,
      volumeUsd: expected.volumeUsd, count: expected.count,
    }, 'chunks of 1-7 trades');
    // Times that decrease within a chunk and between chunks: reported.
    for (const [i, j] of [[100_000, 100_001], [2 * 65536 - 1, 2 * 65536]] as const) {
      const unsorted = { ...trades, time: trades.time.slice() };
      unsorted.time[i] = unsorted.time[j]! + NS;
      expect(() => fresh.candles(unsorted, MINUTE)).toThrow(/decrease/);
    }
  });

  it('survives memory growth between calls (views re-created after reserve)', () => {
    const fresh = createMarketKernels();
    for (const n of [10, 300_000, 50, 600_000, 7]) {
      const trades = prefix(market, n);
      expectIdentical(fresh.candles(trades, NS), candlesReference(trades, NS), `candles n = ${n}`);
      expectIdentical(fresh.blockAggregates(trades, trades.slot), blockAggregatesReference(trades, trades.slot), `blocks n = ${n}`);
    }
    expect(fresh.exports.tradeCapacity()).toBeGreaterThanOrEqual(600_000);
  });

  it('keeps the status table in step with assembly/market/status.ts', () => {
    const globals = kernels.exports as unknown as Record<string, WebAssembly.Global>;
    const exported = WebAssembly.Module.exports(marketModule())
      .filter((e) => e.kind === 'global' && e.name.startsWith('Status.'))
      .map((e) => [e.name.slice('Status.'.length), globals[e.name]!.value]);
    const mirrored = Object.entries(MARKET_STATUS).map(([code, [name]]) => [name, Number(code)]);
    expect(exported).toEqual([['OK', 0], ...mirrored]);
  });
});
