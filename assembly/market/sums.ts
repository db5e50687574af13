import { Status } from './status';
import { cell, cell32 } from './groups';
import { beginRuns, endRuns, nextRuns } from './runs';

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
 *
 * `groupSums` takes all trades at once. A caller may instead pass them in consecutive chunks (so
 * each chunk is still in cache when the kernel reads it): `groupSumsBegin`, `groupSumsNext` per
 * chunk, `groupSumsEnd`. The group still open at the end of a chunk carries its running sums into
 * the next, so the results are the same bit for bit.
 */
export function groupSums(
  key: usize, base: usize, quote: usize, usd: usize, isBuy: usize, n: u32, width: i64,
  out: usize, stride: u32,
): Status {
  groupSumsBegin();
  const status = groupSumsNext(key, base, quote, usd, isBuy, n, width, out, stride);
  return status != Status.OK ? status : groupSumsEnd(out, stride);
}

// The open group's running sums and counts (runs.ts walks the groups). Two sums share a v128
// (lanes 0 and 1).
let baseQuote = f64x2(0, 0); // base_volume, quote_volume
let priceVolumes = f64x2(0, 0); // price_volume, price_volume_usd
let sides = f64x2(0, 0); // buy_volume, sell_volume
let sidesUsd = f64x2(0, 0); // buy_volume_usd, sell_volume_usd
let volumeUsd = f64x2(0, 0); // volume_usd in both lanes
let count: u32 = 0;
let buys: u32 = 0;
let unknown: u32 = 0;
// The columns of the chunk being walked, for addRun.
let baseAt: usize = 0;
let quoteAt: usize = 0;
let usdAt: usize = 0;
let isBuyAt: usize = 0;

/** Starts a list of trades for `groupSumsNext`. */
export function groupSumsBegin(): void {
  beginRuns();
  empty();
}

/** Adds the next `n` trades, writing the groups they complete. */
export function groupSumsNext(
  key: usize, base: usize, quote: usize, usd: usize, isBuy: usize, n: u32, width: i64,
  out: usize, stride: u32,
): Status {
  baseAt = base;
  quoteAt = quote;
  usdAt = usd;
  isBuyAt = isBuy;
  return nextRuns(STEPS, key, n, width, out, stride);
}

/** Writes the open group; `groupCount()` is then the number of groups of the list. */
export function groupSumsEnd(out: usize, stride: u32): Status {
  return endRuns(STEPS, out, stride);
}

/** This kernel's steps of the group walk (runs.ts). */
class SumSteps {
  @inline add(from: u32, to: u32, opens: bool): void {
    addRun(from, to, opens);
  }

  @inline write(out: usize, stride: u32, row: u32, start: i64): void {
    writeRow(out, stride, row, start);
  }
}
const STEPS = new SumSteps();

/** Adds trades [from, to) of one group to the open sums. */
@inline function addRun(from: u32, to: u32, opens: bool): void {
  const base = baseAt, quote = quoteAt, usd = usdAt, isBuy = isBuyAt;
  let bq = baseQuote, pvs = priceVolumes, s = sides, su = sidesUsd, vu = volumeUsd;
  // Two trades an iteration: trade i in lane 0 of the loaded vectors, i + 1 in lane 1 (zero when
  // i is the last). Each sum still adds one trade at a time in trade order, so the results are bit
  // for bit those of nine scalar sums; a masked-out term adds +0, which changes nothing.
  for (let i = from; i < to; i += 2) {
    const at = <usize>i << 3;
    const pair = i + 1 < to;
    let b: v128, q: v128, u: v128, sideBytes: v128;
    if (pair) {
      b = v128.load(base + at);
      q = v128.load(quote + at);
      u = v128.load(usd + at);
      sideBytes = v128.load16_splat(isBuy + <usize>i);
    } else {
      b = v128.load64_zero(base + at);
      q = v128.load64_zero(quote + at);
      u = v128.load64_zero(usd + at);
      sideBytes = v128.load8_splat(isBuy + <usize>i);
    }
    // sell: lane 0 all ones when trade i is a sell, lane 1 when trade i + 1 is; buy: the opposite.
    const zero = i8x16.eq(sideBytes, i8x16.splat(0));
    const sell = i8x16.shuffle(zero, zero, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
    const buy = v128.not(sell);
    const known = f64x2.eq(u, u);
    const p = f64x2.div(q, b);
    const pb = f64x2.mul(p, b);
    const pub = v128.and(f64x2.mul(f64x2.mul(p, u), b), known);
    const qu = v128.and(f64x2.mul(q, u), known);
    // Trade i. side: lane 0 all ones for a buy, lane 1 for a sell.
    let side = i64x2.shuffle(buy, sell, 0, 2);
    let quoteUsd = i64x2.shuffle(qu, qu, 0, 0);
    bq = f64x2.add(bq, i64x2.shuffle(b, q, 0, 2));
    pvs = f64x2.add(pvs, i64x2.shuffle(pb, pub, 0, 2));
    s = f64x2.add(s, v128.and(i64x2.shuffle(b, b, 0, 0), side));
    su = f64x2.add(su, v128.and(quoteUsd, side));
    vu = f64x2.add(vu, quoteUsd);
    if (pair) {
      // Trade i + 1.
      side = i64x2.shuffle(buy, sell, 1, 3);
      quoteUsd = i64x2.shuffle(qu, qu, 1, 1);
      bq = f64x2.add(bq, i64x2.shuffle(b, q, 1, 3));
      pvs = f64x2.add(pvs, i64x2.shuffle(pb, pub, 1, 3));
      s = f64x2.add(s, v128.and(i64x2.shuffle(b, b, 1, 1), side));
      su = f64x2.add(su, v128.and(quoteUsd, side));
      vu = f64x2.add(vu, quoteUsd);
    }
  }
  baseQuote = bq;
  priceVolumes = pvs;
  sides = s;
  sidesUsd = su;
  volumeUsd = vu;
  count += to - from;
  buys += countBuys(isBuy, from, to);
  unknown += countUnknown(usd, from, to);
}

/** Writes the open group's row and empties the sums. */
function writeRow(out: usize, stride: u32, row: u32, start: i64): void {
  store<i64>(cell(out, stride, 0, row), start);
  store<f64>(cell(out, stride, 1, row), f64x2.extract_lane(baseQuote, 0));
  store<f64>(cell(out, stride, 2, row), f64x2.extract_lane(baseQuote, 1));
  store<f64>(cell(out, stride, 3, row), f64x2.extract_lane(priceVolumes, 0));
  store<f64>(cell(out, stride, 4, row), f64x2.extract_lane(sides, 0));
  store<f64>(cell(out, stride, 5, row), f64x2.extract_lane(sides, 1));
  store<f64>(cell(out, stride, 6, row), f64x2.extract_lane(volumeUsd, 0));
  store<f64>(cell(out, stride, 7, row), f64x2.extract_lane(priceVolumes, 1));
  store<f64>(cell(out, stride, 8, row), f64x2.extract_lane(sidesUsd, 0));
  store<f64>(cell(out, stride, 9, row), f64x2.extract_lane(sidesUsd, 1));
  store<u32>(cell32(out, stride, 10, row), count);
  store<u32>(cell32(out, stride, 11, row), buys);
  store<u32>(cell32(out, stride, 12, row), unknown);
  empty();
}

function empty(): void {
  baseQuote = priceVolumes = sides = sidesUsd = volumeUsd = f64x2(0, 0);
  count = buys = unknown = 0;
}

/** Nonzero bytes of isBuy[from, to), 16 at a time. */
@inline function countBuys(isBuy: usize, from: u32, to: u32): u32 {
  let sells: u32 = 0;
  let i = from;
  for (; i + 16 <= to; i += 16) {
    sells += popcnt(i8x16.bitmask(i8x16.eq(v128.load(isBuy + <usize>i), i8x16.splat(0))));
  }
  for (; i < to; i++) sells += <u32>(load<u8>(isBuy + <usize>i) == 0);
  return to - from - sells;
}

/** NaN (unknown) USD prices of usd[from, to), two at a time. */
@inline function countUnknown(usd: usize, from: u32, to: u32): u32 {
  let lanes = i64x2.splat(0);
  let i = from;
  for (; i + 2 <= to; i += 2) {
    const u = v128.load(usd + (<usize>i << 3));
    lanes = i64x2.sub(lanes, f64x2.ne(u, u)); // a NaN lane is -1
  }
  let nan = <u32>(i64x2.extract_lane(lanes, 0) + i64x2.extract_lane(lanes, 1));
  if (i < to) {
    const u = load<f64>(usd + (<usize>i << 3));
    nan += <u32>(u != u);
  }
  return nan;
}
