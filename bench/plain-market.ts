/**
 * Plain TypeScript baselines of the market kernels over tumbling windows: one pass over trades
 * already in time order, window bounds by binary search, typed-array outputs, the same definitions
 * and float operation order as the kernels. (The test oracles in src/kernels/market-reference.ts
 * group through Maps of index arrays and BigInt arithmetic per trade: deliberately obvious, too
 * slow to be a fair baseline, so they are not measured.)
 */
import type { Candles, GroupSums, TradeColumns, Twaps } from '../src/kernels/market.js';
import { windowOffsets } from './data.js';

/** 1m (or any width) candles of trades in time order. */
export function candlesPlain(t: Omit<TradeColumns, 'isBuy'>, width: bigint): Candles {
  const { starts, offsets } = windowOffsets(t.time, width);
  const g = starts.length;
  const f = () => new Float64Array(g);
  const out: Candles = {
    start: BigInt64Array.from(starts), open: f(), high: f(), low: f(), close: f(), baseVolume: f(), quoteVolume: f(),
    openUsd: f(), highUsd: f(), lowUsd: f(), closeUsd: f(), volumeUsd: f(), count: new Uint32Array(g),
  };
  const { baseVolume: base, quoteVolume: quote, quoteUsdPrice: usd } = t;
  for (let w = 0; w < g; w++) {
    const a = offsets[w]!;
    const b = offsets[w + 1]!;
    let high = -Infinity, low = Infinity, highUsd = -Infinity, lowUsd = Infinity;
    let baseSum = 0, quoteSum = 0, volumeUsd = 0;
    let known = true;
    for (let i = a; i < b; i++) {
      const price = quote[i]! / base[i]!;
      const priceUsd = price * usd[i]!;
      if (price > high) high = price;
      if (price < low) low = price;
      if (priceUsd > highUsd) highUsd = priceUsd;
      if (priceUsd < lowUsd) lowUsd = priceUsd;
      baseSum += base[i]!;
      quoteSum += quote[i]!;
      volumeUsd += quote[i]! * usd[i]!;
      if (Number.isNaN(usd[i]!)) known = false;
    }
    const open = quote[a]! / base[a]!;
    const close = quote[b - 1]! / base[b - 1]!;
    out.open[w] = open;
    out.high[w] = high;
    out.low[w] = low;
    out.close[w] = close;
    out.baseVolume[w] = baseSum;
    out.quoteVolume[w] = quoteSum;
    out.openUsd[w] = known ? open * usd[a]! : NaN;
    out.highUsd[w] = known ? highUsd : NaN;
    out.lowUsd[w] = known ? lowUsd : NaN;
    out.closeUsd[w] = known ? close * usd[b - 1]! : NaN;
    out.volumeUsd[w] = known ? volumeUsd : NaN;
    out.count[w] = b - a;
  }
  return out;
}

/** VWAP partial sums per window of trades in time order. */
export function groupSumsPlain(t: TradeColumns, width: bigint): GroupSums {
  const { starts, offsets } = windowOffsets(t.time, width);
  const g = starts.length;
  const f = () => new Float64Array(g);
  const u = () => new Uint32Array(g);
  const out: GroupSums = {
    start: BigInt64Array.from(starts), baseVolume: f(), quoteVolume: f(), priceVolume: f(), buyVolume: f(), sellVolume: f(),
    volumeUsd: f(), priceVolumeUsd: f(), buyVolumeUsd: f(), sellVolumeUsd: f(), count: u(), buyCount: u(), usdUnknown: u(),
  };
  const { baseVolume: base, quoteVolume: quote, quoteUsdPrice: usd, isBuy } = t;
  for (let w = 0; w < g; w++) {
    const a = offsets[w]!;
    const b = offsets[w + 1]!;
    let baseSum = 0, quoteSum = 0, priceVolume = 0, buy = 0, sell = 0;
    let volumeUsd = 0, priceVolumeUsd = 0, buyUsd = 0, sellUsd = 0, buys = 0, unknown = 0;
    for (let i = a; i < b; i++) {
      const price = quote[i]! / base[i]!;
      baseSum += base[i]!;
      quoteSum += quote[i]!;
      priceVolume += price * base[i]!;
      const bought = isBuy[i] !== 0;
      if (bought) {
        buy += base[i]!;
        buys++;
      } else sell += base[i]!;
      const q = usd[i]!;
      if (Number.isNaN(q)) {
        unknown++;
        continue;
      }
      const quoteUsd = quote[i]! * q;
      volumeUsd += quoteUsd;
      priceVolumeUsd += price * q * base[i]!;
      if (bought) buyUsd += quoteUsd;
      else sellUsd += quoteUsd;
    }
    out.baseVolume[w] = baseSum;
    out.quoteVolume[w] = quoteSum;
    out.priceVolume[w] = priceVolume;
    out.buyVolume[w] = buy;
    out.sellVolume[w] = sell;
    out.volumeUsd[w] = volumeUsd;
    out.priceVolumeUsd[w] = priceVolumeUsd;
    out.buyVolumeUsd[w] = buyUsd;
    out.sellVolumeUsd[w] = sellUsd;
    out.count[w] = b - a;
    out.buyCount[w] = buys;
    out.usdUnknown[w] = unknown;
  }
  return out;
}

/**
 * TWAP of each tumbling window of trades in time order: trade i holds its price from its time to
 * the next trade's (the last one until the window ends), the price before a window's first trade
 * holds from the window start.
 */
export function twapPlain(t: Omit<TradeColumns, 'isBuy'>, width: bigint): Twaps {
  const { starts, offsets } = windowOffsets(t.time, width);
  const g = starts.length;
  const f = () => new Float64Array(g);
  const out: Twaps = {
    durationNs: new BigInt64Array(g), weightedSum: f(), weightedSumUsd: f(), twap: f(), twapUsd: f(),
    lastPrice: f(), lastPriceUsd: f(), count: new Uint32Array(g),
  };
  const { time, baseVolume: base, quoteVolume: quote, quoteUsdPrice: usd } = t;
  const n = time.length;
  for (let w = 0; w < g; w++) {
    const start = starts[w]!;
    const end = start + width;
    const a = offsets[w]!;
    const b = offsets[w + 1]!;
    let duration = 0n;
    let weighted = 0, weightedUsd = 0;
    let last = NaN, lastUsd = NaN;
    if (a > 0) {
      const price = quote[a - 1]! / base[a - 1]!;
      const to = b > a ? time[a]! : end;
      last = price;
      lastUsd = price * usd[a - 1]!;
      if (to > start) {
        const seconds = Number(to - start) / 1e9;
        weighted += price * seconds;
        weightedUsd += lastUsd * seconds;
        duration += to - start;
      }
    }
    for (let i = a; i < b; i++) {
      const price = quote[i]! / base[i]!;
      const priceUsd = price * usd[i]!;
      const from = time[i]!;
      const next = i + 1 < n ? time[i + 1]! : end;
      const to = next < end ? next : end;
      last = price;
      lastUsd = priceUsd;
      if (to <= from) continue;
      const seconds = Number(to - from) / 1e9;
      weighted += price * seconds;
      weightedUsd += priceUsd * seconds;
      duration += to - from;
    }
    const covered = Number(duration) / 1e9;
    out.durationNs[w] = duration;
    out.weightedSum[w] = weighted;
    out.weightedSumUsd[w] = weightedUsd;
    out.twap[w] = duration > 0n ? weighted / covered : NaN;
    out.twapUsd[w] = duration > 0n ? weightedUsd / covered : NaN;
    out.lastPrice[w] = last;
    out.lastPriceUsd[w] = lastUsd;
    out.count[w] = b - a;
  }
  return out;
}
