import { Status } from './status';
import { cell, cell32 } from './groups';
import { beginRuns, endRuns, nextRuns } from './runs';

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
  candlesBegin();
  const status = candlesNext(key, base, quote, usd, n, width, out, stride);
  return status != Status.OK ? status : candlesEnd(out, stride);
}

// The open candle (runs.ts walks the groups). high/low and their USD versions keep two lanes (every
// other trade of a run in lane 0, the others in lane 1), reduced to one value when the candle is
// written: a max or min of finite prices does not depend on the order it is taken in.
let openPrice = 0.0;
let openUsd = 0.0;
let closePrice = 0.0;
let closeUsd = 0.0;
let highs = f64x2.splat(-Infinity);
let lows = f64x2.splat(Infinity);
let highsUsd = f64x2.splat(-Infinity);
let lowsUsd = f64x2.splat(Infinity);
let volumes = f64x2(0, 0); // base_volume, quote_volume
let volumeUsd = f64x2(0, 0); // volume_usd in lane 0
let unknown = i64x2.splat(0); // a lane is all ones once a trade's USD price was NaN
let count: u32 = 0;
// The columns of the chunk being walked, for addRun.
let baseAt: usize = 0;
let quoteAt: usize = 0;
let usdAt: usize = 0;

/**
 * Starts a list of trades for `candlesNext` (`candles` takes all trades at once; a caller may pass
 * them in consecutive chunks instead, so each is still in cache when the kernel reads it).
 */
export function candlesBegin(): void {
  beginRuns();
  empty();
}

/** Adds the next `n` trades, writing the candles they complete. */
export function candlesNext(
  key: usize, base: usize, quote: usize, usd: usize, n: u32, width: i64, out: usize, stride: u32,
): Status {
  baseAt = base;
  quoteAt = quote;
  usdAt = usd;
  return nextRuns(STEPS, key, n, width, out, stride);
}

/** Writes the open candle; `groupCount()` is then the number of candles of the list. */
export function candlesEnd(out: usize, stride: u32): Status {
  return endRuns(STEPS, out, stride);
}

/** This kernel's steps of the group walk (runs.ts). */
class CandleSteps {
  @inline add(from: u32, to: u32, opens: bool): void {
    addRun(from, to, opens);
  }

  @inline write(out: usize, stride: u32, row: u32, start: i64): void {
    writeRow(out, stride, row, start);
  }
}
const STEPS = new CandleSteps();

/** Adds trades [from, to) of the open candle. */
@inline function addRun(from: u32, to: u32, opens: bool): void {
  const base = baseAt, quote = quoteAt, usd = usdAt;
  if (opens) {
    openPrice = price(base, quote, from);
    openUsd = openPrice * load<f64>(usd + (<usize>from << 3));
  }
  const last = to - 1;
  closePrice = price(base, quote, last);
  closeUsd = closePrice * load<f64>(usd + (<usize>last << 3));
  let hi = highs, lo = lows, hiUsd = highsUsd, loUsd = lowsUsd, v = volumes, vu = volumeUsd, unk = unknown;
  // Two trades an iteration, trade i in lane 0 and i + 1 in lane 1. pmax(m, p) is m < p ? p : m,
  // the kernel's compare-and-select (cheaper than f64x2.max, whose NaN rules cost extra
  // instructions, and the same result: prices are finite and > 0, and a NaN price_usd blanks the
  // USD fields). The sums still add one trade at a time in trade order (bit for bit).
  let i = from;
  for (; i + 2 <= to; i += 2) {
    const at = <usize>i << 3;
    const b = v128.load(base + at);
    const q = v128.load(quote + at);
    const u = v128.load(usd + at);
    const p = f64x2.div(q, b);
    const pu = f64x2.mul(p, u);
    const qu = f64x2.mul(q, u);
    hi = f64x2.pmax(hi, p);
    lo = f64x2.pmin(lo, p);
    hiUsd = f64x2.pmax(hiUsd, pu);
    loUsd = f64x2.pmin(loUsd, pu);
    unk = v128.or(unk, f64x2.ne(u, u));
    v = f64x2.add(f64x2.add(v, i64x2.shuffle(b, q, 0, 2)), i64x2.shuffle(b, q, 1, 3));
    vu = f64x2.add(f64x2.add(vu, qu), i64x2.shuffle(qu, qu, 1, 1));
  }
  if (i < to) {
    // The last trade alone, in lane 0; lane 1 is zero, its price 0 / 0 = NaN, which pmax and pmin
    // leave out.
    const at = <usize>i << 3;
    const b = v128.load64_zero(base + at);
    const q = v128.load64_zero(quote + at);
    const u = v128.load64_zero(usd + at);
    const p = f64x2.div(q, b);
    const pu = f64x2.mul(p, u);
    hi = f64x2.pmax(hi, p);
    lo = f64x2.pmin(lo, p);
    hiUsd = f64x2.pmax(hiUsd, pu);
    loUsd = f64x2.pmin(loUsd, pu);
    unk = v128.or(unk, f64x2.ne(u, u));
    v = f64x2.add(v, i64x2.shuffle(b, q, 0, 2));
    vu = f64x2.add(vu, f64x2.mul(q, u));
  }
  highs = hi;
  lows = lo;
  highsUsd = hiUsd;
  lowsUsd = loUsd;
  volumes = v;
  volumeUsd = vu;
  unknown = unk;
  count += to - from;
}

@inline function price(base: usize, quote: usize, i: u32): f64 {
  const at = <usize>i << 3;
  return load<f64>(quote + at) / load<f64>(base + at);
}

/** Writes the open candle's row and empties it. */
function writeRow(out: usize, stride: u32, row: u32, start: i64): void {
  const blank = v128.any_true(unknown);
  store<i64>(cell(out, stride, 0, row), start);
  store<f64>(cell(out, stride, 1, row), openPrice);
  store<f64>(cell(out, stride, 2, row), max2(highs));
  store<f64>(cell(out, stride, 3, row), min2(lows));
  store<f64>(cell(out, stride, 4, row), closePrice);
  store<f64>(cell(out, stride, 5, row), f64x2.extract_lane(volumes, 0));
  store<f64>(cell(out, stride, 6, row), f64x2.extract_lane(volumes, 1));
  store<f64>(cell(out, stride, 7, row), blank ? NaN : openUsd);
  store<f64>(cell(out, stride, 8, row), blank ? NaN : max2(highsUsd));
  store<f64>(cell(out, stride, 9, row), blank ? NaN : min2(lowsUsd));
  store<f64>(cell(out, stride, 10, row), blank ? NaN : closeUsd);
  store<f64>(cell(out, stride, 11, row), blank ? NaN : f64x2.extract_lane(volumeUsd, 0));
  store<u32>(cell32(out, stride, 12, row), count);
  empty();
}

function empty(): void {
  highsUsd = highs = f64x2.splat(-Infinity);
  lowsUsd = lows = f64x2.splat(Infinity);
  volumes = volumeUsd = f64x2(0, 0);
  unknown = i64x2.splat(0);
  count = 0;
}

/** The larger lane (the later one only if larger, as a compare-and-select over the trades would). */
@inline function max2(m: v128): f64 {
  const a = f64x2.extract_lane(m, 0);
  const b = f64x2.extract_lane(m, 1);
  return select<f64>(b, a, b > a);
}

@inline function min2(m: v128): f64 {
  const a = f64x2.extract_lane(m, 0);
  const b = f64x2.extract_lane(m, 1);
  return select<f64>(b, a, b < a);
}
