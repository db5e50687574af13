/**
 * Plain TypeScript references of the market kernels (assembly/market/), the test oracle: obvious
 * loops over BigInt times, the same definitions as src/kernels/market.ts and floating-point
 * operations in the same order (so results agree bit for bit).
 */
import { lowerBound } from '../windows/lower-bound.js';
import {
  DEFAULT_OUTLIER_THRESHOLD,
  type BlockAggregates,
  type BlockOptions,
  type Candles,
  type CarryIn,
  type GroupSums,
  type TradeColumns,
  type TwapWindows,
  type Twaps,
} from './market.js';

/** floor(key / width) * width in BigInt arithmetic (BigInt division truncates toward zero). */
function floorTo(key: bigint, width: bigint): bigint {
  const q = key / width;
  return (key % width < 0n ? q - 1n : q) * width;
}

/** Trade indexes grouped by floor(key / width) * width, in ascending order; keys must not decrease. */
function groupBy(name: string, keys: BigInt64Array, width: bigint): Map<bigint, number[]> {
  if (width <= 0n) throw new Error(`${name}: the window or group width must be positive`);
  const groups = new Map<bigint, number[]>();
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && keys[i]! < keys[i - 1]!) throw new Error(`${name}: trade times or group keys decrease`);
    const start = floorTo(keys[i]!, width);
    const group = groups.get(start);
    if (group) group.push(i);
    else groups.set(start, [i]);
  }
  return groups;
}

function price(trades: Pick<TradeColumns, 'baseVolume' | 'quoteVolume'>, i: number): number {
  return trades.quoteVolume[i]! / trades.baseVolume[i]!;
}

function sum(indexes: readonly number[], term: (i: number) => number): number {
  let total = 0;
  for (const i of indexes) total += term(i);
  return total;
}

function maxOf(values: readonly number[]): number {
  return values.reduce((m, v) => Math.max(m, v), -Infinity);
}

function minOf(values: readonly number[]): number {
  return values.reduce((m, v) => Math.min(m, v), Infinity);
}

/** Reference of `MarketKernels.candles`. */
export function candlesReference(trades: Omit<TradeColumns, 'isBuy'>, width: bigint): Candles {
  const groups = [...groupBy('candles', trades.time, width)];
  const g = groups.length;
  const out: Candles = {
    start: new BigInt64Array(g), open: new Float64Array(g), high: new Float64Array(g), low: new Float64Array(g),
    close: new Float64Array(g), baseVolume: new Float64Array(g), quoteVolume: new Float64Array(g),
    openUsd: new Float64Array(g), highUsd: new Float64Array(g), lowUsd: new Float64Array(g),
    closeUsd: new Float64Array(g), volumeUsd: new Float64Array(g), count: new Uint32Array(g),
  };
  groups.forEach(([start, idx], row) => {
    const prices = idx.map((i) => price(trades, i));
    const pricesUsd = idx.map((i, k) => prices[k]! * trades.quoteUsdPrice[i]!);
    const usdKnown = idx.every((i) => !Number.isNaN(trades.quoteUsdPrice[i]!));
    out.start[row] = start;
    out.open[row] = prices[0]!;
    out.high[row] = maxOf(prices);
    out.low[row] = minOf(prices);
    out.close[row] = prices[prices.length - 1]!;
    out.baseVolume[row] = sum(idx, (i) => trades.baseVolume[i]!);
    out.quoteVolume[row] = sum(idx, (i) => trades.quoteVolume[i]!);
    out.openUsd[row] = usdKnown ? pricesUsd[0]! : NaN;
    out.highUsd[row] = usdKnown ? maxOf(pricesUsd) : NaN;
    out.lowUsd[row] = usdKnown ? minOf(pricesUsd) : NaN;
    out.closeUsd[row] = usdKnown ? pricesUsd[pricesUsd.length - 1]! : NaN;
    out.volumeUsd[row] = usdKnown ? sum(idx, (i) => trades.quoteVolume[i]! * trades.quoteUsdPrice[i]!) : NaN;
    out.count[row] = idx.length;
  });
  return out;
}

/** Reference of `MarketKernels.groupSums`. */
export function groupSumsReference(trades: Omit<TradeColumns, 'time'>, keys: BigInt64Array, width: bigint): GroupSums {
  const groups = [...groupBy('groupSums', keys, width)];
  const g = groups.length;
  const out: GroupSums = {
    start: new BigInt64Array(g), baseVolume: new Float64Array(g), quoteVolume: new Float64Array(g),
    priceVolume: new Float64Array(g), buyVolume: new Float64Array(g), sellVolume: new Float64Array(g),
    volumeUsd: new Float64Array(g), priceVolumeUsd: new Float64Array(g), buyVolumeUsd: new Float64Array(g),
    sellVolumeUsd: new Float64Array(g), count: new Uint32Array(g), buyCount: new Uint32Array(g),
    usdUnknown: new Uint32Array(g),
  };
  const usd = trades.quoteUsdPrice;
  groups.forEach(([start, idx], row) => {
    const buys = idx.filter((i) => trades.isBuy[i] !== 0);
    const sells = idx.filter((i) => trades.isBuy[i] === 0);
    const known = (list: number[]) => list.filter((i) => !Number.isNaN(usd[i]!));
    out.start[row] = start;
    out.baseVolume[row] = sum(idx, (i) => trades.baseVolume[i]!);
    out.quoteVolume[row] = sum(idx, (i) => trades.quoteVolume[i]!);
    out.priceVolume[row] = sum(idx, (i) => price(trades, i) * trades.baseVolume[i]!);
    out.buyVolume[row] = sum(buys, (i) => trades.baseVolume[i]!);
    out.sellVolume[row] = sum(sells, (i) => trades.baseVolume[i]!);
    out.volumeUsd[row] = sum(known(idx), (i) => trades.quoteVolume[i]! * usd[i]!);
    out.priceVolumeUsd[row] = sum(known(idx), (i) => price(trades, i) * usd[i]! * trades.baseVolume[i]!);
    out.buyVolumeUsd[row] = sum(known(buys), (i) => trades.quoteVolume[i]! * usd[i]!);
    out.sellVolumeUsd[row] = sum(known(sells), (i) => trades.quoteVolume[i]! * usd[i]!);
    out.count[row] = idx.length;
    out.buyCount[row] = buys.length;
    out.usdUnknown[row] = idx.length - known(idx).length;
  });
  return out;
}

/**
 * Reference of `MarketKernels.twap`, as the integral of a step function: trade i holds its price on
 * [t_i, t_{i+1}) (the last trade until forever) and the carry-in on (-forever, t_0); a window adds
 * each stretch's overlap with it, in time order.
 */
export function twapReference(trades: Omit<TradeColumns, 'isBuy'>, windows: TwapWindows, carry?: CarryIn): Twaps {
  const { time } = trades;
  const n = time.length;
  const m = windows.start.length;
  for (let i = 1; i < n; i++) if (time[i]! < time[i - 1]!) throw new Error('twap: trade times or group keys decrease');
  for (let j = 0; j < m; j++) {
    if (windows.end[j]! < windows.start[j]! || (j > 0 && windows.start[j]! < windows.start[j - 1]!)) {
      throw new Error('twap: a window ends before it starts, or starts before the previous window');
    }
  }
  interface Stretch { from: bigint | null; to: bigint | null; price: number; priceUsd: number }
  const stretches: Stretch[] = [];
  if (carry && !Number.isNaN(carry.price)) {
    stretches.push({ from: null, to: n > 0 ? time[0]! : null, price: carry.price, priceUsd: carry.priceUsd });
  }
  for (let i = 0; i < n; i++) {
    const p = price(trades, i);
    stretches.push({ from: time[i]!, to: i + 1 < n ? time[i + 1]! : null, price: p, priceUsd: p * trades.quoteUsdPrice[i]! });
  }
  const out: Twaps = {
    durationNs: new BigInt64Array(m), weightedSum: new Float64Array(m), weightedSumUsd: new Float64Array(m),
    twap: new Float64Array(m), twapUsd: new Float64Array(m), lastPrice: new Float64Array(m),
    lastPriceUsd: new Float64Array(m), count: new Uint32Array(m),
  };
  const offset = stretches.length - n; // 1 with a carry-in stretch
  for (let j = 0; j < m; j++) {
    const start = windows.start[j]!;
    const end = windows.end[j]!;
    const first = lowerBound(time, start);
    let duration = 0n;
    let weighted = 0;
    let weightedUsd = 0;
    let last: Stretch | undefined;
    // Stretches before the one holding at `start` end before the window.
    for (let k = Math.max(0, first - 1 + offset); k < stretches.length; k++) {
      const s = stretches[k]!;
      if (s.from !== null && s.from >= end) break;
      last = s;
      const from = s.from === null || s.from < start ? start : s.from;
      const to = s.to === null || s.to > end ? end : s.to;
      if (to <= from) continue;
      const seconds = Number(to - from) / 1e9;
      weighted += s.price * seconds;
      weightedUsd += s.priceUsd * seconds;
      duration += to - from;
    }
    const count = lowerBound(time, end) - first;
    const covered = Number(duration) / 1e9;
    out.durationNs[j] = duration;
    out.weightedSum[j] = weighted;
    out.weightedSumUsd[j] = weightedUsd;
    out.twap[j] = duration > 0n ? weighted / covered : NaN;
    out.twapUsd[j] = duration > 0n ? weightedUsd / covered : NaN;
    out.lastPrice[j] = last ? last.price : NaN;
    out.lastPriceUsd[j] = last ? last.priceUsd : NaN;
    out.count[j] = count;
  }
  return out;
}

/**
 * The lower volume-weighted median: sort by price (ties in trade order), sum base volume in that
 * order, and take the first price at which the running sum reaches half of the whole sum.
 */
export function weightedMedianReference(prices: readonly number[], volumes: readonly number[]): number {
  const order = prices.map((_, k) => k).sort((a, b) => prices[a]! - prices[b]!); // stable
  let total = 0;
  for (const k of order) total += volumes[k]!;
  let cumulative = 0;
  for (const k of order) {
    cumulative += volumes[k]!;
    if (cumulative >= total / 2) return prices[k]!;
  }
  throw new Error('weightedMedianReference: no prices');
}

/** Reference of `MarketKernels.blockAggregates`. */
export function blockAggregatesReference(
  trades: Omit<TradeColumns, 'time'>,
  keys: BigInt64Array,
  options: BlockOptions = {},
): BlockAggregates {
  const threshold = options.threshold ?? DEFAULT_OUTLIER_THRESHOLD;
  if (!(threshold >= 0) || threshold === Infinity) throw new Error('blockAggregates: the outlier threshold must be finite and >= 0');
  const groups = [...groupBy('blockAggregates', keys, options.width ?? 1n)];
  const g = groups.length;
  const f = () => new Float64Array(g);
  const out: BlockAggregates = {
    key: new BigInt64Array(g), vwap: f(), vwapRaw: f(), reference: f(), min: f(), max: f(), baseVolume: f(),
    quoteVolume: f(), buyVolume: f(), sellVolume: f(), outlierVolumePct: f(), vwapUsd: f(), vwapUsdRaw: f(),
    minUsd: f(), maxUsd: f(), volumeUsd: f(), buyVolumeUsd: f(), sellVolumeUsd: f(),
    count: new Uint32Array(g), buyCount: new Uint32Array(g), outlierCount: new Uint32Array(g),
  };
  const { baseVolume: base, quoteVolume: quote, quoteUsdPrice: usd } = trades;
  groups.forEach(([key, idx], row) => {
    const prices = idx.map((i) => price(trades, i));
    const reference = weightedMedianReference(prices, idx.map((i) => base[i]!));
    const ceiling = reference * (1 + threshold);
    const floor = reference / (1 + threshold);
    const outliers = idx.filter((_, k) => prices[k]! > ceiling || prices[k]! < floor);
    const kept = idx.filter((_, k) => !(prices[k]! > ceiling || prices[k]! < floor));
    const buys = idx.filter((i) => trades.isBuy[i] !== 0);
    const sells = idx.filter((i) => trades.isBuy[i] === 0);
    const usdKnown = idx.every((i) => !Number.isNaN(usd[i]!));
    const orNaN = (value: number) => (usdKnown ? value : NaN);
    const baseSum = sum(idx, (i) => base[i]!);
    const quoteUsd = (i: number) => quote[i]! * usd[i]!;
    out.key[row] = key;
    out.vwap[row] = sum(kept, (i) => quote[i]!) / sum(kept, (i) => base[i]!);
    out.vwapRaw[row] = sum(idx, (i) => quote[i]!) / baseSum;
    out.reference[row] = reference;
    out.min[row] = minOf(prices);
    out.max[row] = maxOf(prices);
    out.baseVolume[row] = baseSum;
    out.quoteVolume[row] = sum(idx, (i) => quote[i]!);
    out.buyVolume[row] = sum(buys, (i) => base[i]!);
    out.sellVolume[row] = sum(sells, (i) => base[i]!);
    out.outlierVolumePct[row] = (100 * sum(outliers, (i) => base[i]!)) / baseSum;
    out.vwapUsd[row] = orNaN(sum(kept, quoteUsd) / sum(kept, (i) => base[i]!));
    out.vwapUsdRaw[row] = orNaN(sum(idx, quoteUsd) / baseSum);
    out.minUsd[row] = orNaN(minOf(prices.map((p, k) => p * usd[idx[k]!]!)));
    out.maxUsd[row] = orNaN(maxOf(prices.map((p, k) => p * usd[idx[k]!]!)));
    out.volumeUsd[row] = orNaN(sum(idx, quoteUsd));
    out.buyVolumeUsd[row] = orNaN(sum(buys, quoteUsd));
    out.sellVolumeUsd[row] = orNaN(sum(sells, quoteUsd));
    out.count[row] = idx.length;
    out.buyCount[row] = buys.length;
    out.outlierCount[row] = outliers.length;
  });
  return out;
}
