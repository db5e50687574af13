import { Status } from './status';
import { cell, cell32, groupStart, setGroups } from './groups';

/**
 * VWAP and volume partial sums per group (seed 2.8, 2.9): per block (keys = slots, width 1) or per
 * bucket (keys = times, width = the bucket length). The sums only add, so a trailing window is the
 * sum of its groups' partials, and moving it adds the newest groups and subtracts the oldest.
 * price = quote / base; price_usd = price * quote_usd_price.
 *
 * USD sums take only the trades whose USD price is known; `usd_unknown` counts the others, so a
 * window's USD aggregates are known exactly when the `usd_unknown` of its groups sum to 0 (a NaN
 * folded into a running sum could never be subtracted out again).
 *
 * Output columns (rows = groups with trades, ascending; `groupCount()` of them):
 *   0 start i64 (floor(key / width) * width) | 1 base_volume = sum base | 2 quote_volume = sum quote |
 *   3 price_volume = sum price * base | 4 buy_volume = sum base of buys | 5 sell_volume = sum base of
 *   sells | 6 volume_usd = sum quote * quote_usd_price | 7 price_volume_usd = sum price_usd * base |
 *   8 buy_volume_usd | 9 sell_volume_usd (f64) | 10 count | 11 buy_count | 12 usd_unknown (u32)
 * All sums run in trade order; sells are the trades with is_buy = 0.
 */
export function groupSums(
  key: usize, base: usize, quote: usize, usd: usize, isBuy: usize, n: u32, width: i64,
  out: usize, stride: u32,
): Status {
  setGroups(0, 0);
  if (width <= 0) return Status.BAD_WIDTH;
  let rows: u32 = 0;
  let previous = i64.MIN_VALUE;
  let start: i64 = 0;
  let end = i64.MIN_VALUE;
  let baseSum = 0.0, quoteSum = 0.0, priceVolume = 0.0, buyBase = 0.0, sellBase = 0.0;
  let volumeUsd = 0.0, priceVolumeUsd = 0.0, buyUsd = 0.0, sellUsd = 0.0;
  let count: u32 = 0, buys: u32 = 0, unknown: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const at = <usize>i << 3;
    const k = load<i64>(key + at);
    if (k < previous) return Status.UNSORTED;
    previous = k;
    if (k >= end) {
      if (count > 0) {
        if (rows >= stride) return Status.CAPACITY;
        write(out, stride, rows++, start, baseSum, quoteSum, priceVolume, buyBase, sellBase,
          volumeUsd, priceVolumeUsd, buyUsd, sellUsd, count, buys, unknown);
      }
      start = groupStart(k, width);
      end = start + width;
      baseSum = quoteSum = priceVolume = buyBase = sellBase = 0;
      volumeUsd = priceVolumeUsd = buyUsd = sellUsd = 0;
      count = buys = unknown = 0;
    }
    const b = load<f64>(base + at);
    const q = load<f64>(quote + at);
    const u = load<f64>(usd + at);
    const buy = load<u8>(isBuy + <usize>i) != 0;
    const known = u == u;
    const p = q / b;
    const quoteUsd = q * u;
    const pvUsd = p * u * b;
    // Branch-free: adding +0 leaves every sum unchanged (they start at +0 and volumes are > 0).
    baseSum += b;
    quoteSum += q;
    priceVolume += p * b;
    buyBase += select<f64>(b, 0, buy);
    sellBase += select<f64>(0, b, buy);
    volumeUsd += select<f64>(quoteUsd, 0, known);
    priceVolumeUsd += select<f64>(pvUsd, 0, known);
    buyUsd += select<f64>(quoteUsd, 0, known && buy);
    sellUsd += select<f64>(quoteUsd, 0, known && !buy);
    count++;
    buys += <u32>buy;
    unknown += <u32>!known;
  }
  if (count > 0) {
    if (rows >= stride) return Status.CAPACITY;
    write(out, stride, rows++, start, baseSum, quoteSum, priceVolume, buyBase, sellBase,
      volumeUsd, priceVolumeUsd, buyUsd, sellUsd, count, buys, unknown);
  }
  setGroups(rows, 0);
  return Status.OK;
}

@inline function write(
  out: usize, stride: u32, row: u32, start: i64, baseSum: f64, quoteSum: f64, priceVolume: f64,
  buyBase: f64, sellBase: f64, volumeUsd: f64, priceVolumeUsd: f64, buyUsd: f64, sellUsd: f64,
  count: u32, buys: u32, unknown: u32,
): void {
  store<i64>(cell(out, stride, 0, row), start);
  store<f64>(cell(out, stride, 1, row), baseSum);
  store<f64>(cell(out, stride, 2, row), quoteSum);
  store<f64>(cell(out, stride, 3, row), priceVolume);
  store<f64>(cell(out, stride, 4, row), buyBase);
  store<f64>(cell(out, stride, 5, row), sellBase);
  store<f64>(cell(out, stride, 6, row), volumeUsd);
  store<f64>(cell(out, stride, 7, row), priceVolumeUsd);
  store<f64>(cell(out, stride, 8, row), buyUsd);
  store<f64>(cell(out, stride, 9, row), sellUsd);
  store<u32>(cell32(out, stride, 10, row), count);
  store<u32>(cell32(out, stride, 11, row), buys);
  store<u32>(cell32(out, stride, 12, row), unknown);
}
