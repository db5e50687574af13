/**
 * The market oracle (DESIGN.md 7, docs/semantics.md "Market methods"): plain loops over trade rows.
 * Per (slot, pair): prices and volumes each rounded once from the exact raw amounts, sums in trade
 * order, the outlier reference as the lower volume-weighted median of quote/base; aggregates over
 * several blocks: exact sums of the block values rounded once; trailing windows and TWAPs
 * recomputed for every data point from the blocks they cover. Records come out in wire form.
 */
import type { OracleToken, OracleTrade } from './data.js';
import type { Wire } from './fees.js';
import { wireDuration, wireF32, wireF64, wireInt, wireTime, windowFloor, windowLength } from './format.js';
import { ids } from './ids.js';
import { decimalAmount, exactSum, f64ToScaled, scaledToF64, tradePrice } from './rational.js';

/** Engine settings the market methods read. */
export interface MarketSettings {
  stablecoins: readonly string[];
  outlierThreshold: number;
}

/** One pair's trades in one block, summarised. */
export interface PairBlock {
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
  /** The quote's USD price; NaN when unknown. */
  usd: number;
}

const inTradeOrder = (a: OracleTrade, b: OracleTrade) => a.tx_index - b.tx_index || a.fill_index - b.fill_index;
const plainSum = (indexes: number[], values: number[]) => indexes.reduce((s, i) => s + values[i]!, 0);

/** Per (slot, pair) summaries with USD prices, slot ascending (pairs of a slot in no particular order). */
export function pairBlocks(trades: readonly OracleTrade[], settings: MarketSettings): PairBlock[] {
  const groups = new Map<string, OracleTrade[]>();
  for (const t of trades) {
    const key = `${t.slot}|${t.base}|${t.quote}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(t);
  }
  const out: PairBlock[] = [];
  for (const unsorted of groups.values()) {
    const list = [...unsorted].sort(inTradeOrder);
    const b = list.map((t) => decimalAmount(t.base_amount, t.base_decimals));
    const q = list.map((t) => decimalAmount(t.quote_amount, t.quote_decimals));
    const p = list.map((t) => tradePrice(t.base_amount, t.base_decimals, t.quote_amount, t.quote_decimals));
    const all = list.map((_, i) => i);
    const buys = all.filter((i) => list[i]!.is_buy);
    const sells = all.filter((i) => !list[i]!.is_buy);
    const ratio = all.map((i) => q[i]! / b[i]!);
    const byRatio = [...all].sort((x, y) => ratio[x]! - ratio[y]! || x - y);
    const half = plainSum(byRatio, b) / 2;
    let cumulative = 0;
    let reference = 0;
    for (const i of byRatio) {
      cumulative += b[i]!;
      if (cumulative >= half) {
        reference = ratio[i]!;
        break;
      }
    }
    const t = settings.outlierThreshold;
    const outlier = (i: number) => ratio[i]! > reference * (1 + t) || ratio[i]! < reference / (1 + t);
    const kept = all.filter((i) => !outlier(i));
    const baseVolume = plainSum(all, b);
    out.push({
      base: list[0]!.base, quote: list[0]!.quote, slot: list[0]!.slot, time: list[0]!.timestamp,
      open: p[0]!, high: Math.max(...p), low: Math.min(...p), close: p[p.length - 1]!,
      vwap: plainSum(kept, q) / plainSum(kept, b), vwapRaw: plainSum(all, q) / baseVolume,
      baseVolume, quoteVolume: plainSum(all, q), buyVolume: plainSum(buys, b), sellVolume: plainSum(sells, b),
      buyQuote: plainSum(buys, q), sellQuote: plainSum(sells, q),
      count: list.length, buyCount: buys.length, outliers: list.length - kept.length,
      outlierPct: (100 * plainSum(all.filter(outlier), b)) / baseVolume,
      usd: Number.NaN,
    });
  }
  out.sort((x, y) => (x.slot < y.slot ? -1 : x.slot > y.slot ? 1 : 0));
  // USD per slot: stable-quoted pairs first (the first listed stablecoin wins), then the others
  const latest = new Map<string, number>();
  for (const slot of new Set(out.map((x) => x.slot))) {
    const here = out.filter((x) => x.slot === slot);
    const priced = new Set<string>();
    for (const stable of settings.stablecoins) {
      for (const x of here.filter((y) => y.quote === stable)) {
        if (!priced.has(x.base)) latest.set(x.base, x.vwap);
        priced.add(x.base);
      }
    }
    for (const x of here) x.usd = settings.stablecoins.includes(x.quote) ? 1 : (latest.get(x.quote) ?? Number.NaN);
  }
  return out;
}

const usd = (x: number, price: number) => (Number.isNaN(price) ? null : wireF64(x * price));

/** chain::market::block of one pair-block. */
export function blockTradesRecord(x: PairBlock): Wire {
  return {
    id: ids.blockTrades(x.base, x.quote, x.slot),
    slot: wireInt(x.slot), timestamp: wireTime(x.time), base: x.base, quote: x.quote,
    vwap: wireF64(x.vwap), vwap_raw: wireF64(x.vwapRaw), min: wireF64(x.low), max: wireF64(x.high),
    base_volume: wireF64(x.baseVolume), quote_volume: wireF64(x.quoteVolume), total_volume: wireF64(x.baseVolume),
    buy_volume: wireF64(x.buyVolume), sell_volume: wireF64(x.sellVolume),
    num_swaps: wireInt(x.count), buy_swaps: wireInt(x.buyCount), sell_swaps: wireInt(x.count - x.buyCount),
    quote_usd_price: Number.isNaN(x.usd) ? null : wireF64(x.usd),
    vwap_usd: usd(x.vwap, x.usd), vwap_usd_raw: usd(x.vwapRaw, x.usd),
    min_usd: usd(x.low, x.usd), max_usd: usd(x.high, x.usd), volume_usd: usd(x.quoteVolume, x.usd),
    buy_volume_usd: usd(x.buyQuote, x.usd), sell_volume_usd: usd(x.sellQuote, x.usd),
    outlier_count: wireInt(x.outliers), outlier_volume_pct: wireF32(x.outlierPct),
  };
}

/** The candles of one pair's blocks (slot ascending) for `window`, oldest first, with their open time. */
export function candles(blocks: readonly PairBlock[], window: string): { start: bigint; record: Wire }[] {
  const w = windowLength(window);
  const groups = new Map<bigint, PairBlock[]>();
  for (const x of blocks) {
    const start = windowFloor(x.time, w);
    if (!groups.has(start)) groups.set(start, []);
    groups.get(start)!.push(x);
  }
  return [...groups].map(([start, list]) => {
    const known = list.every((x) => !Number.isNaN(x.usd));
    const first = list[0]!;
    const last = list[list.length - 1]!;
    return {
      start,
      record: {
        id: ids.candle(first.base, first.quote, window, start),
        base: first.base, quote: first.quote, timestamp: wireTime(start), window_duration: wireDuration(w),
        open: wireF64(first.open), high: wireF64(Math.max(...list.map((x) => x.high))),
        low: wireF64(Math.min(...list.map((x) => x.low))), close: wireF64(last.close),
        base_volume: wireF64(exactSum(list.map((x) => x.baseVolume))), quote_volume: wireF64(exactSum(list.map((x) => x.quoteVolume))),
        open_usd: known ? wireF64(first.open * first.usd) : null,
        high_usd: known ? wireF64(Math.max(...list.map((x) => x.high * x.usd))) : null,
        low_usd: known ? wireF64(Math.min(...list.map((x) => x.low * x.usd))) : null,
        close_usd: known ? wireF64(last.close * last.usd) : null,
        volume_usd: known ? wireF64(exactSum(list.map((x) => x.quoteVolume * x.usd))) : null,
        data_points: wireInt(list.reduce((s, x) => s + x.count, 0)),
        window_start: wireTime(start), window_end: wireTime(start + w),
      },
    };
  });
}

const orZero = (x: number) => (Number.isNaN(x) ? 0 : x);
const BASE = (y: PairBlock) => y.baseVolume;
const QUOTE = (y: PairBlock) => y.quoteVolume;
const BUY = (y: PairBlock) => y.buyVolume;
const SELL = (y: PairBlock) => y.sellVolume;
const QUOTE_USD = (y: PairBlock) => orZero(y.quoteVolume * y.usd);
const BUY_USD = (y: PairBlock) => orZero(y.buyQuote * y.usd);
const SELL_USD = (y: PairBlock) => orZero(y.sellQuote * y.usd);

/** Volume, VWAP and TWAP points of one pair's blocks (slot ascending) for `window`, one per block, oldest first. */
export function trailingPoints(blocks: readonly PairBlock[], window: string): { volume: Wire; vwap: Wire; twap: Wire }[] {
  const w = windowLength(window);
  // exact prefix sums (counts of 2^-1074) of each block value: a window's sum is a difference, rounded once
  const prefixes = new Map<(y: PairBlock) => number, bigint[]>();
  const sumOver = (lo: number, j: number) => (value: (y: PairBlock) => number) => {
    if (!prefixes.has(value)) {
      const prefix = [0n];
      for (const y of blocks) prefix.push(prefix[prefix.length - 1]! + f64ToScaled(value(y)));
      prefixes.set(value, prefix);
    }
    const prefix = prefixes.get(value)!;
    return scaledToF64(prefix[j + 1]! - prefix[lo]!);
  };
  return blocks.map((x, j) => {
    const end = x.time + 1n;
    const start = end - w;
    let lo = j;
    while (lo > 0 && blocks[lo - 1]!.time >= start) lo--;
    const inside = blocks.slice(lo, j + 1);
    const sum = sumOver(lo, j);
    const usdKnown = inside.every((y) => !Number.isNaN(y.usd));
    const base = sum(BASE);
    const quote = sum(QUOTE);
    const buy = sum(BUY);
    const sell = sum(SELL);
    const count = inside.reduce((s, y) => s + y.count, 0);
    const buyCount = inside.reduce((s, y) => s + y.buyCount, 0);
    const totalUsd = usdKnown ? sum(QUOTE_USD) : null;
    const currentUsd = Number.isNaN(x.usd) ? null : wireF64(x.close * x.usd);
    const bounds = { window_start: wireTime(start), window_end: wireTime(end) };
    const volume: Wire = {
      id: ids.trailing('volume', x.base, x.quote, window, x.slot), base: x.base, quote: x.quote, timestamp: wireTime(x.time),
      window_duration: wireDuration(w), base_volume: wireF64(base), quote_volume: wireF64(quote),
      buy_volume: wireF64(buy), sell_volume: wireF64(sell), total_volume: wireF64(base),
      buy_swaps: wireInt(buyCount), sell_swaps: wireInt(count - buyCount), total_swaps: wireInt(count),
      buy_sell_ratio: sell === 0 ? null : wireF32(buy / sell), data_points: wireInt(count), duration: wireDuration(w), ...bounds,
      buy_volume_usd: usdKnown ? wireF64(sum(BUY_USD)) : null,
      sell_volume_usd: usdKnown ? wireF64(sum(SELL_USD)) : null,
      total_volume_usd: wireF64(totalUsd),
    };
    const vwap: Wire = {
      id: ids.trailing('vwap', x.base, x.quote, window, x.slot), base: x.base, quote: x.quote, timestamp: wireTime(x.time),
      slot: wireInt(x.slot), window_duration: wireDuration(w), vwap: wireF64(quote / base),
      vwap_usd: totalUsd === null ? null : wireF64(totalUsd / base),
      current_price: wireF64(x.close), current_price_usd: currentUsd,
      cumulative_price_volume: wireF64(quote), cumulative_price_volume_usd: wireF64(totalUsd),
      total_volume: wireF64(base), total_volume_usd: wireF64(totalUsd), data_points: wireInt(count), ...bounds,
    };
    // TWAP: the step function of block closes over [start, end), carried in from the block before the window
    let weighted = 0n;
    let weightedUsd = 0n;
    let usdUnknown = false;
    let covered = 0n;
    for (let k = Math.max(0, lo - 1); k <= j; k++) {
      const from = blocks[k]!.time > start ? blocks[k]!.time : start;
      const until = k < j ? (blocks[k + 1]!.time < end ? blocks[k + 1]!.time : end) : end;
      if (until <= from) continue;
      const held = until - from;
      covered += held;
      weighted += f64ToScaled(blocks[k]!.close) * held;
      if (Number.isNaN(blocks[k]!.usd)) usdUnknown = true;
      else weightedUsd += f64ToScaled(blocks[k]!.close * blocks[k]!.usd) * held;
    }
    const nsSum = scaledToF64(weighted);
    const nsSumUsd = usdUnknown ? null : scaledToF64(weightedUsd);
    const twap: Wire = {
      id: ids.trailing('twap', x.base, x.quote, window, x.slot), base: x.base, quote: x.quote, timestamp: wireTime(x.time),
      slot: wireInt(x.slot), window_duration: wireDuration(w),
      twap: wireF64(nsSum / Number(covered)), twap_usd: nsSumUsd === null ? null : wireF64(nsSumUsd / Number(covered)),
      current_price: wireF64(x.close), current_price_usd: currentUsd,
      cumulative_weighted_sum: wireF64(nsSum / 1e9), cumulative_weighted_sum_usd: nsSumUsd === null ? null : wireF64(nsSumUsd / 1e9),
      total_duration: wireDuration(covered), data_points: wireInt(count), ...bounds,
    };
    return { volume, vwap, twap };
  });
}

/** chain::market::trades record of one fill. */
export function tradeRecord(t: OracleTrade): Wire {
  return {
    id: ids.trade(t.signature, t.fill_index),
    signature: t.signature, signer: t.signer, slot: wireInt(t.slot), timestamp: wireTime(t.timestamp),
    base: t.base, quote: t.quote, base_amount: wireInt(t.base_amount), quote_amount: wireInt(t.quote_amount),
    base_decimals: wireInt(t.base_decimals), quote_decimals: wireInt(t.quote_decimals),
    base_volume: wireF64(decimalAmount(t.base_amount, t.base_decimals)),
    quote_volume: wireF64(decimalAmount(t.quote_amount, t.quote_decimals)),
    price: wireF64(tradePrice(t.base_amount, t.base_decimals, t.quote_amount, t.quote_decimals)),
    is_buy: t.is_buy,
  };
}

/** chain::market::token record. */
export function tokenRecord(t: OracleToken): Wire {
  return { id: ids.token(t.mint), mint: t.mint, name: t.name, symbol: t.symbol, decimals: wireInt(t.decimals), supply: wireInt(t.supply) };
}
