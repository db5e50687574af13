import { Status } from './status';
import { cell, cell32, groupStart, setGroups } from './groups';
import { sortScratch, sortScratchRows } from './memory';
import { sortByPrice } from './sort';

/**
 * Block trade aggregates with outlier trimming (seed 2.6, DESIGN.md 7), one per group: per
 * (slot, pair) with keys = slots and width 1. price = quote / base; price_usd = price * usd.
 *
 * - vwap_raw = sum quote / sum base over all trades (sums in trade order).
 * - reference = the lower volume-weighted median price: with the trades sorted by price (ties in
 *   trade order) and C_k the base volume summed over the first k of them in that order, the price
 *   of the first k with C_k >= C_n / 2.
 * - outlier: price > reference * (1 + threshold) or price < reference / (1 + threshold). The
 *   reference trade itself never is one, so some trades always remain.
 * - vwap = sum quote / sum base over the non-outliers; outlier_volume_pct = 100 * (outlier base
 *   volume) / base_volume.
 * - min, max over all prices; buy/sell base volumes and counts (sells: is_buy = 0).
 * - USD: vwap_usd(_raw) = sum quote * usd / sum base over the non-outliers (all trades),
 *   min_usd/max_usd over price_usd, volume_usd = sum quote * usd, buy/sell_volume_usd likewise.
 *   All seven are NaN when any trade of the group has an unknown USD price (NaN).
 *
 * Needs `sortCapacity()` >= the largest group (`largestGroup()` after `countGroups`).
 * Output columns (rows = groups, ascending; `groupCount()` of them):
 *   0 key i64 (floor(key / width) * width) | 1 vwap | 2 vwap_raw | 3 reference | 4 min | 5 max |
 *   6 base_volume | 7 quote_volume | 8 buy_volume | 9 sell_volume | 10 outlier_volume_pct |
 *   11 vwap_usd | 12 vwap_usd_raw | 13 min_usd | 14 max_usd | 15 volume_usd | 16 buy_volume_usd |
 *   17 sell_volume_usd (f64) | 18 count | 19 buy_count | 20 outlier_count (u32)
 */
export function blockAggregates(
  key: usize, base: usize, quote: usize, usd: usize, isBuy: usize, n: u32, width: i64,
  threshold: f64, out: usize, stride: u32,
): Status {
  setGroups(0, 0);
  if (width <= 0) return Status.BAD_WIDTH;
  if (!(threshold >= 0) || threshold == Infinity) return Status.BAD_THRESHOLD;
  const scratch = sortScratch();
  const scratchRows = sortScratchRows();
  let rows: u32 = 0;
  let previous = i64.MIN_VALUE;
  let lo: u32 = 0;
  while (lo < n) {
    const first = load<i64>(key + (<usize>lo << 3));
    if (first < previous) return Status.UNSORTED;
    const start = groupStart(first, width);
    const end = start + width;
    let hi = lo + 1;
    previous = first;
    while (hi < n) {
      const k = load<i64>(key + (<usize>hi << 3));
      if (k < previous) return Status.UNSORTED;
      if (k >= end) break;
      previous = k;
      hi++;
    }
    if (rows >= stride) return Status.CAPACITY;
    if (hi - lo > scratchRows) return Status.CAPACITY;
    aggregate(base, quote, usd, isBuy, lo, hi, threshold, scratch, scratchRows, out, stride, rows);
    store<i64>(cell(out, stride, 0, rows), start);
    rows++;
    lo = hi;
  }
  setGroups(rows, 0);
  return Status.OK;
}

/** Writes columns 1.. of row `row` for the trades [lo, hi). */
function aggregate(
  base: usize, quote: usize, usd: usize, isBuy: usize, lo: u32, hi: u32, threshold: f64,
  scratch: usize, scratchRows: u32, out: usize, stride: u32, row: u32,
): void {
  let baseSum = 0.0, quoteSum = 0.0, buyBase = 0.0, sellBase = 0.0;
  let low = Infinity, high = -Infinity, lowUsd = Infinity, highUsd = -Infinity;
  let volumeUsd = 0.0, buyUsd = 0.0, sellUsd = 0.0;
  let buys: u32 = 0;
  let unknown = false;
  const records = scratch;
  for (let i = lo; i < hi; i++) {
    const at = <usize>i << 3;
    const b = load<f64>(base + at);
    const q = load<f64>(quote + at);
    const u = load<f64>(usd + at);
    const buy = load<u8>(isBuy + <usize>i) != 0;
    const p = q / b;
    const pu = p * u;
    const quoteUsd = q * u;
    baseSum += b;
    quoteSum += q;
    low = min(low, p);
    high = max(high, p);
    lowUsd = min(lowUsd, pu);
    highUsd = max(highUsd, pu);
    volumeUsd += quoteUsd;
    if (buy) {
      buyBase += b;
      buyUsd += quoteUsd;
      buys++;
    } else {
      sellBase += b;
      sellUsd += quoteUsd;
    }
    unknown |= u != u;
    v128.store(records + (<usize>(i - lo) << 4), f64x2(p, b));
  }

  const count = hi - lo;
  const sorted = sortByPrice(records, scratch + (<usize>scratchRows << 4), count);
  let total = 0.0;
  for (let r: u32 = 0; r < count; r++) total += load<f64>(sorted + (<usize>r << 4), 8);
  let reference = 0.0;
  let cumulative = 0.0;
  for (let r: u32 = 0; r < count; r++) {
    cumulative += load<f64>(sorted + (<usize>r << 4), 8);
    if (cumulative >= total / 2) {
      reference = load<f64>(sorted + (<usize>r << 4));
      break;
    }
  }

  const ceiling = reference * (1 + threshold);
  const floor = reference / (1 + threshold);
  let keptBase = 0.0, keptQuote = 0.0, keptQuoteUsd = 0.0, outlierBase = 0.0;
  let outliers: u32 = 0;
  for (let i = lo; i < hi; i++) {
    const at = <usize>i << 3;
    const b = load<f64>(base + at);
    const q = load<f64>(quote + at);
    const p = q / b;
    if (p > ceiling || p < floor) {
      outlierBase += b;
      outliers++;
    } else {
      keptBase += b;
      keptQuote += q;
      keptQuoteUsd += q * load<f64>(usd + at);
    }
  }

  store<f64>(cell(out, stride, 1, row), keptQuote / keptBase);
  store<f64>(cell(out, stride, 2, row), quoteSum / baseSum);
  store<f64>(cell(out, stride, 3, row), reference);
  store<f64>(cell(out, stride, 4, row), low);
  store<f64>(cell(out, stride, 5, row), high);
  store<f64>(cell(out, stride, 6, row), baseSum);
  store<f64>(cell(out, stride, 7, row), quoteSum);
  store<f64>(cell(out, stride, 8, row), buyBase);
  store<f64>(cell(out, stride, 9, row), sellBase);
  store<f64>(cell(out, stride, 10, row), (100 * outlierBase) / baseSum);
  store<f64>(cell(out, stride, 11, row), unknown ? NaN : keptQuoteUsd / keptBase);
  store<f64>(cell(out, stride, 12, row), unknown ? NaN : volumeUsd / baseSum);
  store<f64>(cell(out, stride, 13, row), unknown ? NaN : lowUsd);
  store<f64>(cell(out, stride, 14, row), unknown ? NaN : highUsd);
  store<f64>(cell(out, stride, 15, row), unknown ? NaN : volumeUsd);
  store<f64>(cell(out, stride, 16, row), unknown ? NaN : buyUsd);
  store<f64>(cell(out, stride, 17, row), unknown ? NaN : sellUsd);
  store<u32>(cell32(out, stride, 18, row), count);
  store<u32>(cell32(out, stride, 19, row), buys);
  store<u32>(cell32(out, stride, 20, row), outliers);
}
