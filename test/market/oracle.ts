/**
 * A brute-force market oracle for tests: plain loops over trade rows, written from DESIGN.md 5 and
 * 7 and docs/semantics.md ("Market methods") without the engine's code. Per (slot, pair): sums in
 * trade order, prices exact (tradePrice), the outlier reference as the lower volume-weighted median
 * of quote/base; aggregates over several blocks: exact rational sums of the block values, rounded
 * once (exact.ts); trailing windows and TWAPs recomputed from scratch for every data point, with
 * prefix sums of exact rationals. Records come out as wire objects (encodeRecord).
 */
import { decimalAmount, tradePrice } from '../../src/schema/amounts.js';
import { encodeRecord, type WireRecord } from '../../src/schema/encode.js';
import { recordId } from '../../src/schema/ids.js';
import { BlockTrades, Candle, Twap, Volume, Vwap } from '../../src/schema/records.js';
import type { TradeRow } from '../../src/schema/tables.js';
import { windowNanos } from '../../src/schema/time.js';
import { exactSum, scaled, unscaled } from './exact.js';

export const STABLECOINS = ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'];

/** One pair's trades in one block, summarised by plain loops. */
export interface OracleBlock {
  base: string;
  quote: string;
  slot: bigint;
  time: bigint;
  open: number;
  high: number;
  low: number;
  close: number;
  vwap: number;
  vwapRaw: number;
  baseVolume: number;
  quoteVolume: number;
  buyVolume: number;
  sellVolume: number;
  buyQuote: number;
  sellQuote: number;
  count: number;
  buyCount: number;
  outliers: number;
  outlierPct: number;
  /** NaN when unknown. */
  usd: number;
}

const floorTo = (t: bigint, w: bigint) => {
  const q = t / w;
  return (t % w < 0n ? q - 1n : q) * w;
};

/** Per (slot, pair) summaries of the trades, with USD prices; slot ascending. */
export function oracleBlocks(trades: readonly TradeRow[], threshold = 0.25): OracleBlock[] {
  const groups = new Map<string, TradeRow[]>();
  for (const t of trades) {
    const key = `${t.slot}|${t.base}|${t.quote}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(t);
  }
  const blocks: OracleBlock[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) => a.tx_index - b.tx_index || a.fill_index - b.fill_index);
    const b = list.map((t) => decimalAmount(t.base_amount, t.base_decimals));
    const q = list.map((t) => decimalAmount(t.quote_amount, t.quote_decimals));
    const p = list.map((t) => tradePrice(t.base_amount, t.base_decimals, t.quote_amount, t.quote_decimals));
    const plain = (idx: number[], values: number[]) => idx.reduce((s, i) => s + values[i]!, 0);
    const all = list.map((_, i) => i);
    const buys = all.filter((i) => list[i]!.is_buy);
    const sells = all.filter((i) => !list[i]!.is_buy);
    // lower volume-weighted median of quote/base
    const ratio = all.map((i) => q[i]! / b[i]!);
    const sorted = [...all].sort((x, y) => ratio[x]! - ratio[y]! || x - y);
    const half = plain(sorted, b) / 2;
    let cumulative = 0;
    let reference = 0;
    for (const i of sorted) {
      cumulative += b[i]!;
      if (cumulative >= half) {
        reference = ratio[i]!;
        break;
      }
    }
    const outlier = (i: number) => ratio[i]! > reference * (1 + threshold) || ratio[i]! < reference / (1 + threshold);
    const kept = all.filter((i) => !outlier(i));
    const baseVolume = plain(all, b);
    blocks.push({
      base: list[0]!.base,
      quote: list[0]!.quote,
      slot: list[0]!.slot,
      time: list.at(-1)!.timestamp,
      open: p[0]!,
      high: Math.max(...p),
      low: Math.min(...p),
      close: p.at(-1)!,
      vwap: plain(kept, q) / plain(kept, b),
      vwapRaw: plain(all, q) / baseVolume,
      baseVolume,
      quoteVolume: plain(all, q),
      buyVolume: plain(buys, b),
      sellVolume: plain(sells, b),
      buyQuote: plain(buys, q),
      sellQuote: plain(sells, q),
      count: list.length,
      buyCount: buys.length,
      outliers: list.length - kept.length,
      outlierPct: (100 * plain(all.filter(outlier), b)) / baseVolume,
      usd: Number.NaN,
    });
  }
  blocks.sort((x, y) => (x.slot < y.slot ? -1 : x.slot > y.slot ? 1 : 0));
  // USD: per slot, stable-quoted pairs first (the first stablecoin wins a tie), then the others
  const latest = new Map<string, number>();
  const slots = [...new Set(blocks.map((x) => x.slot))];
  for (const slot of slots) {
    const here = blocks.filter((x) => x.slot === slot);
    const seen = new Set<string>();
    for (const stable of STABLECOINS) {
      for (const x of here.filter((y) => y.quote === stable)) {
        if (!seen.has(x.base)) latest.set(x.base, x.vwap);
        seen.add(x.base);
        x.usd = 1;
      }
    }
    for (const x of here) if (!STABLECOINS.includes(x.quote)) x.usd = latest.get(x.quote) ?? Number.NaN;
  }
  return blocks;
}

const usdOf = (x: number, u: number) => (Number.isNaN(u) ? null : x * u);

export function blockRecord(x: OracleBlock): WireRecord {
  return encodeRecord(BlockTrades, {
    id: recordId('chain::market::block', x.base, x.quote, x.slot),
    slot: x.slot, timestamp: x.time, base: x.base, quote: x.quote,
    vwap: x.vwap, vwap_raw: x.vwapRaw, min: x.low, max: x.high,
    base_volume: x.baseVolume, quote_volume: x.quoteVolume, total_volume: x.baseVolume,
    buy_volume: x.buyVolume, sell_volume: x.sellVolume,
    num_swaps: x.count, buy_swaps: x.buyCount, sell_swaps: x.count - x.buyCount,
    quote_usd_price: Number.isNaN(x.usd) ? null : x.usd,
    vwap_usd: usdOf(x.vwap, x.usd), vwap_usd_raw: usdOf(x.vwapRaw, x.usd),
    min_usd: usdOf(x.low, x.usd), max_usd: usdOf(x.high, x.usd), volume_usd: usdOf(x.quoteVolume, x.usd),
    buy_volume_usd: usdOf(x.buyQuote, x.usd), sell_volume_usd: usdOf(x.sellQuote, x.usd),
    outlier_count: x.outliers, outlier_volume_pct: x.outlierPct,
  });
}

/** The candles of one pair's blocks (slot ascending), oldest first. */
export function candleRecords(blocks: readonly OracleBlock[], window: string): WireRecord[] {
  const w = windowNanos(window);
  const groups = new Map<bigint, OracleBlock[]>();
  for (const x of blocks) {
    const start = floorTo(x.time, w);
    if (!groups.has(start)) groups.set(start, []);
    groups.get(start)!.push(x);
  }
  return [...groups].map(([start, list]) => {
    const known = list.every((x) => !Number.isNaN(x.usd));
    const first = list[0]!;
    const last = list.at(-1)!;
    return encodeRecord(Candle, {
      id: recordId('chain::market::ohlcv', first.base, first.quote, window, start),
      base: first.base, quote: first.quote, timestamp: start, window_duration: w,
      open: first.open, high: Math.max(...list.map((x) => x.high)), low: Math.min(...list.map((x) => x.low)), close: last.close,
      base_volume: exactSum(list.map((x) => x.baseVolume)), quote_volume: exactSum(list.map((x) => x.quoteVolume)),
      open_usd: known ? first.open * first.usd : null,
      high_usd: known ? Math.max(...list.map((x) => x.high * x.usd)) : null,
      low_usd: known ? Math.min(...list.map((x) => x.low * x.usd)) : null,
      close_usd: known ? last.close * last.usd : null,
      volume_usd: known ? exactSum(list.map((x) => x.quoteVolume * x.usd)) : null,
      data_points: list.reduce((s, x) => s + x.count, 0),
      window_start: start, window_end: start + w,
    });
  });
}

/** Volume, VWAP and TWAP records of one pair's blocks (slot ascending), one per block, oldest first. */
export function trailingRecords(blocks: readonly OracleBlock[], window: string) {
  const w = windowNanos(window);
  const prefix = (value: (x: OracleBlock) => number) => {
    const out = [0n];
    for (const x of blocks) out.push(out.at(-1)! + scaled(value(x)));
    return out;
  };
  const sums = {
    base: prefix((x) => x.baseVolume), quote: prefix((x) => x.quoteVolume), buy: prefix((x) => x.buyVolume),
    sell: prefix((x) => x.sellVolume),
    usd: prefix((x) => (Number.isNaN(x.usd) ? 0 : x.quoteVolume * x.usd)),
    buyUsd: prefix((x) => (Number.isNaN(x.usd) ? 0 : x.buyQuote * x.usd)),
    sellUsd: prefix((x) => (Number.isNaN(x.usd) ? 0 : x.sellQuote * x.usd)),
  };
  const volume: WireRecord[] = [];
  const vwap: WireRecord[] = [];
  const twap: WireRecord[] = [];
  blocks.forEach((x, j) => {
    const end = x.time + 1n;
    const start = end - w;
    let lo = j;
    while (lo > 0 && blocks[lo - 1]!.time >= start) lo--;
    const inside = blocks.slice(lo, j + 1);
    const sum = (s: bigint[]) => unscaled(s[j + 1]! - s[lo]!);
    const usdKnown = inside.every((y) => !Number.isNaN(y.usd));
    const orNull = (v: number) => (usdKnown ? v : null);
    const base = sum(sums.base);
    const quote = sum(sums.quote);
    const buy = sum(sums.buy);
    const sell = sum(sums.sell);
    const count = inside.reduce((s, y) => s + y.count, 0);
    const buyCount = inside.reduce((s, y) => s + y.buyCount, 0);
    const totalUsd = orNull(sum(sums.usd));
    const currentUsd = Number.isNaN(x.usd) ? null : x.close * x.usd;
    const key = [x.base, x.quote, window, x.slot] as const;
    volume.push(encodeRecord(Volume, {
      id: recordId('chain::market::volume', ...key), base: x.base, quote: x.quote, timestamp: x.time, window_duration: w,
      base_volume: base, quote_volume: quote, buy_volume: buy, sell_volume: sell, total_volume: base,
      buy_swaps: buyCount, sell_swaps: count - buyCount, total_swaps: count,
      buy_sell_ratio: sell === 0 ? null : buy / sell, data_points: count, duration: w,
      window_start: start, window_end: end,
      buy_volume_usd: orNull(sum(sums.buyUsd)), sell_volume_usd: orNull(sum(sums.sellUsd)), total_volume_usd: totalUsd,
    }));
    vwap.push(encodeRecord(Vwap, {
      id: recordId('chain::market::vwap', ...key), base: x.base, quote: x.quote, timestamp: x.time, slot: x.slot,
      window_duration: w, vwap: quote / base, vwap_usd: totalUsd === null ? null : totalUsd / base,
      current_price: x.close, current_price_usd: currentUsd,
      cumulative_price_volume: quote, cumulative_price_volume_usd: totalUsd,
      total_volume: base, total_volume_usd: totalUsd, data_points: count, window_start: start, window_end: end,
    }));
    // TWAP: the step function of block closes, integrated over [start, end) from scratch
    let weighted = 0n;
    let weightedUsd = 0n;
    let usdUnknown = false;
    let covered = 0n;
    for (let k = 0; k <= j; k++) {
      const from = blocks[k]!.time > start ? blocks[k]!.time : start;
      const until = k < j ? (blocks[k + 1]!.time < end ? blocks[k + 1]!.time : end) : end;
      if (until <= from) continue;
      const held = until - from;
      covered += held;
      weighted += scaled(blocks[k]!.close) * held;
      if (Number.isNaN(blocks[k]!.usd)) usdUnknown = true;
      else weightedUsd += scaled(blocks[k]!.close * blocks[k]!.usd) * held;
    }
    const ws = unscaled(weighted);
    const wsUsd = usdUnknown ? null : unscaled(weightedUsd);
    twap.push(encodeRecord(Twap, {
      id: recordId('chain::market::twap', ...key), base: x.base, quote: x.quote, timestamp: x.time, slot: x.slot,
      window_duration: w, twap: ws / Number(covered), twap_usd: wsUsd === null ? null : wsUsd / Number(covered),
      current_price: x.close, current_price_usd: currentUsd,
      cumulative_weighted_sum: ws / 1e9, cumulative_weighted_sum_usd: wsUsd === null ? null : wsUsd / 1e9,
      total_duration: covered, data_points: count, window_start: start, window_end: end,
    }));
  });
  return { volume, vwap, twap };
}
