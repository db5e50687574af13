import { growTo } from '../grow';
import { Status } from '../status';

/**
 * Configuration and linear-memory layout of the fee kernels.
 *
 * Statistics: the caller writes `k` family percentiles then `m` position_at_fee fee percentiles
 * (u32 thousandths of a percent) at `millisPtr()` and calls `configure(k, m)` once.
 *
 * One sample-statistics record (`statsSlots()` 8-byte slots, u64 or f64 bits) from its base:
 *   family f in (0 price, 1 fee, 2 limit: u64; 3 position: f64) at f * (1 + k):
 *     [mean, percentile 0 .. percentile k-1]   (u64 means rounded half up)
 *   4 * (1 + k) + 0..3: price, fee, limit spread (u64), position spread (f64)
 *   4 * (1 + k) + 4:    std_dev of price (f64, population)
 *   4 * (1 + k) + 5 + j: position_at_fee for fee percentile j (f64), j < m
 *
 * One block record (`blockSlots()` slots) from its base:
 *   0 tx_count, 1 no_priority_tx_count, 2 total_tx_count,
 *   3..4 total_priority_fees (u128: low, high word), 5..6 total_compute_units (u128: low, high),
 *   7 total_compute_budget (u64), 8 cu_utilization_pct (f64, NaN when the budget is 0),
 *   9..: the sample-statistics record of the block's fee-paying transactions (unwritten when
 *        tx_count = 0).
 *
 * Memory above `__heap_base`, laid out by `reserve(samples, rows, blocks)`:
 *   samples: price, fee, limit (u64), position (f64), key, work, scratch (u64), `samples` values each;
 *   rows: compute_unit_price, priority_fee, compute_units_consumed (u64), compute_unit_limit,
 *         index (u32), is_vote (u8), `rows` values each;
 *   offsets: `blocks + 1` u32; output: `blocks` block records.
 * `layoutPtr()` points at 15 u32 addresses, in `Area` order, valid until the next `reserve`.
 */

/** Most family percentiles, and most position_at_fee percentiles, one configuration holds. */
export const MAX_PERCENTILES: u32 = 256;
/** Slots of a block record before its sample statistics. */
export const BLOCK_HEADER: u32 = 9;

/** Indexes of the addresses at `layoutPtr()`. */
export const enum Area {
  PRICE = 0, FEE = 1, LIMIT = 2, POSITION = 3, KEY = 4, WORK = 5, SCRATCH = 6,
  ROW_PRICE = 7, ROW_FEE = 8, ROW_CONSUMED = 9, ROW_LIMIT = 10, ROW_INDEX = 11, ROW_VOTE = 12,
  OFFSETS = 13, OUTPUT = 14,
}
const AREAS: i32 = 15;


/** The k + m configured percentiles (u32 thousandths): room for `MAX_PERCENTILES` of each kind. */
export const MILLIS = memory.data(<i32>(MAX_PERCENTILES << 3), 16);
const LAYOUT = memory.data(AREAS << 2, 16);

export let statCount: u32 = 0;
export let atFeeCount: u32 = 0;
let sampleCapacity: u32 = 0;
let rowCapacity: u32 = 0;
let blockCapacity: u32 = 0;
let laidOut = false;

/** The address of area `a` (valid after `reserve`). */
@inline export function area(a: Area): usize {
  return <usize>load<u32>(LAYOUT + (<usize>a << 2));
}

/** Slots of one sample-statistics record under the current configuration. */
export function statsSlots(): u32 {
  return 4 * (1 + statCount) + 5 + atFeeCount;
}

/** Slots of one block record under the current configuration. */
export function blockSlots(): u32 {
  return BLOCK_HEADER + statsSlots();
}

/** Where the caller writes the k + m percentiles before `configure`. */
export function millisPtr(): usize {
  return MILLIS;
}

/** Most percentiles of each kind `configure` accepts. */
export function maxPercentiles(): u32 {
  return MAX_PERCENTILES;
}

/** Where the area addresses are (see the layout above). */
export function layoutPtr(): usize {
  return LAYOUT;
}

/**
 * Takes `k` family percentiles and `m` position_at_fee percentiles from `millisPtr()`. The record
 * sizes change with them, so the capacities are dropped: call `reserve` again afterwards.
 */
export function configure(k: u32, m: u32): Status {
  if (k > MAX_PERCENTILES || m > MAX_PERCENTILES) return Status.TOO_MANY_PERCENTILES;
  for (let i: u32 = 0; i < k + m; i++) {
    if (load<u32>(MILLIS + (<usize>i << 2)) > 100000) return Status.BAD_PERCENTILE;
  }
  statCount = k;
  atFeeCount = m;
  sampleCapacity = rowCapacity = blockCapacity = 0;
  laidOut = false;
  return Status.OK;
}

/**
 * Makes room for `samples` sample values, `rows` block rows and `blocks` block records, growing
 * (and touching) linear memory when needed; a capacity that must grow grows by at least half.
 * Growing detaches JS views and moves the areas: re-read `layoutPtr()` and re-create views after it.
 */
export function reserve(samples: u32, rows: u32, blocks: u32): Status {
  if (laidOut && samples <= sampleCapacity && rows <= rowCapacity && blocks <= blockCapacity) return Status.OK;
  const s = grown(sampleCapacity, samples);
  const r = grown(rowCapacity, rows);
  const b = grown(blockCapacity, blocks);
  if (!place(s, r, b) && !place(max(samples, sampleCapacity), max(rows, rowCapacity), max(blocks, blockCapacity))) {
    return Status.OUT_OF_MEMORY;
  }
  return Status.OK;
}

/** A capacity grown geometrically (half again) when `want` exceeds it. */
function grown(have: u32, want: u32): u64 {
  if (want <= have) return have;
  const more = <u64>have + (<u64>have >> 1);
  return more > <u64>want ? min<u64>(more, 0xffffffff) : want;
}

/** Lays the areas out, each on a 64-byte boundary; false (nothing changed) when memory cannot hold them. */
function place(samples: u64, rows: u64, blocks: u64): bool {
  const record = <u64>blockSlots() << 3;
  const end = (<u64>__heap_base + 63) & ~63;
  let at = end;
  at += 7 * 8 * samples;
  at += (8 + 8 + 8 + 4 + 4 + 1) * rows;
  at += 4 * (blocks + 1) + record * blocks;
  at += <u64>AREAS * 64; // the alignment of each area
  if (!growTo(at)) return false;
  at = end;
  for (let a = 0; a < AREAS; a++) {
    store<u32>(LAYOUT + (<usize>a << 2), <u32>at);
    const values = a < Area.ROW_PRICE ? samples : a < Area.OFFSETS ? rows : a == Area.OFFSETS ? blocks + 1 : blocks;
    const width: u64 = a < Area.ROW_LIMIT ? 8 : a < Area.ROW_VOTE ? 4 : a == Area.ROW_VOTE ? 1 : a == Area.OFFSETS ? 4 : record;
    at = (at + values * width + 63) & ~63;
  }
  sampleCapacity = <u32>samples;
  rowCapacity = <u32>rows;
  blockCapacity = <u32>blocks;
  laidOut = true;
  return true;
}

/** Whether `n` values fit the sample area. */
export function fitsSamples(n: u32): bool {
  return laidOut && n <= sampleCapacity;
}

/** Whether rows [first, first + n) fit the row area. */
export function fitsRows(first: u32, n: u32): bool {
  return laidOut && <u64>first + <u64>n <= <u64>rowCapacity;
}

/** Whether `blocks` block records and their offsets fit. */
export function fitsBlocks(blocks: u32): bool {
  return laidOut && blocks <= blockCapacity;
}
