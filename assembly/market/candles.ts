import { Status } from './status';
import { cell, cell32, groupStart, setGroups } from './groups';

/**
 * OHLCV candles (seed 2.7, DESIGN.md 5 and 7). Trades in order-key order; trade i falls in the
 * candle starting at floor(key[i] / width) * width (key = the trade times for time candles).
 * price = quote / base; price_usd = price * quote_usd_price.
 *
 * Per candle: open/close = price of its first/last trade, high/low = max/min price, base and quote
 * volume = sums in trade order, count; open_usd/close_usd = price_usd of the first/last trade,
 * high_usd/low_usd = max/min price_usd, volume_usd = sum of quote * quote_usd_price. When any trade
 * of the candle has an unknown USD price (NaN), all five USD fields are NaN. Empty windows give no
 * candle.
 *
 * Output columns (rows = candles, ascending start; `groupCount()` of them):
 *   0 start i64 | 1 open | 2 high | 3 low | 4 close | 5 base_volume | 6 quote_volume | 7 open_usd |
 *   8 high_usd | 9 low_usd | 10 close_usd | 11 volume_usd (f64) | 12 count u32
 */
export function candles(
  key: usize, base: usize, quote: usize, usd: usize, n: u32, width: i64, out: usize, stride: u32,
): Status {
  setGroups(0, 0);
  if (width <= 0) return Status.BAD_WIDTH;
  let rows: u32 = 0;
  let previous = i64.MIN_VALUE;
  let start: i64 = 0;
  let end = i64.MIN_VALUE;
  let open = 0.0, high = 0.0, low = 0.0, close = 0.0, baseSum = 0.0, quoteSum = 0.0;
  let openUsd = 0.0, highUsd = 0.0, lowUsd = 0.0, closeUsd = 0.0, volumeUsd = 0.0;
  let count: u32 = 0;
  let unknown = false;
  for (let i: u32 = 0; i < n; i++) {
    const at = <usize>i << 3;
    const k = load<i64>(key + at);
    if (k < previous) return Status.UNSORTED;
    previous = k;
    const b = load<f64>(base + at);
    const q = load<f64>(quote + at);
    const u = load<f64>(usd + at);
    const p = q / b;
    const pu = p * u;
    if (k >= end) {
      if (count > 0) {
        if (rows >= stride) return Status.CAPACITY;
        write(out, stride, rows++, start, open, high, low, close, baseSum, quoteSum, count,
          unknown, openUsd, highUsd, lowUsd, closeUsd, volumeUsd);
      }
      start = groupStart(k, width);
      end = start + width;
      open = p;
      openUsd = pu;
      high = -Infinity;
      low = Infinity;
      highUsd = -Infinity;
      lowUsd = Infinity;
      baseSum = 0;
      quoteSum = 0;
      volumeUsd = 0;
      count = 0;
      unknown = false;
    }
    // Compare-and-select is cheaper than f64.max/min (whose NaN rules cost extra instructions) and
    // gives the same result: prices are finite and > 0, and a NaN price_usd blanks the USD fields.
    high = select<f64>(p, high, p > high);
    low = select<f64>(p, low, p < low);
    highUsd = select<f64>(pu, highUsd, pu > highUsd);
    lowUsd = select<f64>(pu, lowUsd, pu < lowUsd);
    baseSum += b;
    quoteSum += q;
    volumeUsd += q * u;
    close = p;
    closeUsd = pu;
    unknown |= u != u;
    count++;
  }
  if (count > 0) {
    if (rows >= stride) return Status.CAPACITY;
    write(out, stride, rows++, start, open, high, low, close, baseSum, quoteSum, count,
      unknown, openUsd, highUsd, lowUsd, closeUsd, volumeUsd);
  }
  setGroups(rows, 0);
  return Status.OK;
}

@inline function write(
  out: usize, stride: u32, row: u32, start: i64, open: f64, high: f64, low: f64, close: f64,
  baseSum: f64, quoteSum: f64, count: u32,
  unknown: bool, openUsd: f64, highUsd: f64, lowUsd: f64, closeUsd: f64, volumeUsd: f64,
): void {
  store<i64>(cell(out, stride, 0, row), start);
  store<f64>(cell(out, stride, 1, row), open);
  store<f64>(cell(out, stride, 2, row), high);
  store<f64>(cell(out, stride, 3, row), low);
  store<f64>(cell(out, stride, 4, row), close);
  store<f64>(cell(out, stride, 5, row), baseSum);
  store<f64>(cell(out, stride, 6, row), quoteSum);
  store<f64>(cell(out, stride, 7, row), unknown ? NaN : openUsd);
  store<f64>(cell(out, stride, 8, row), unknown ? NaN : highUsd);
  store<f64>(cell(out, stride, 9, row), unknown ? NaN : lowUsd);
  store<f64>(cell(out, stride, 10, row), unknown ? NaN : closeUsd);
  store<f64>(cell(out, stride, 11, row), unknown ? NaN : volumeUsd);
  store<u32>(cell32(out, stride, 12, row), count);
}
