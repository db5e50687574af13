import { growTo } from '../grow';
import { Status } from './status';

/**
 * The market module's linear memory above `__heap_base`, in three areas sized by `reserve`:
 *
 * - trades (capacity T rows): time i64[T] | key i64[T] | base_volume f64[T] | quote_volume f64[T] |
 *   quote_usd_price f64[T] | is_buy u8[T] (padded to 16 bytes);
 * - groups (capacity G rows): GROUP_COLUMNS columns of G 8-byte slots each; column k starts at
 *   `columnPtr(k)`. Kernels write their outputs to columns 0.. (a u32 column uses the first half of
 *   its slots); TWAP reads its windows from columns WINDOW_START_COLUMN and WINDOW_END_COLUMN;
 * - sort scratch (capacity S rows): two buffers of S 16-byte (price, base_volume) records.
 *
 * Growing the trade capacity moves every area (the inputs must be written again); growing only the
 * group or sort capacity keeps the trade area and its contents in place, so a caller can write the
 * trades, count their groups (`countGroups`), then make room for the outputs.
 */

/** 8-byte output and window columns of the group area. */
export const GROUP_COLUMNS: u32 = 26;
export const WINDOW_START_COLUMN: u32 = 24;
export const WINDOW_END_COLUMN: u32 = 25;

let tradeBase: usize = 0;
let groupBase: usize = 0;
let sortBase: usize = 0;
let tradeRows: u32 = 0;
let groupRows: u32 = 0;
let sortRows: u32 = 0;

/**
 * Makes room for `trades` trade rows, `groups` group rows and `sorted` sort rows (the largest group
 * that `blockAggregates` sorts), growing (and touching, so the first call does not pay page faults)
 * linear memory when needed. Growing detaches every JS view of the memory: re-create views after
 * calling this. Returns `Status.OK` or `Status.OUT_OF_MEMORY`.
 */
export function reserve(trades: u32, groups: u32, sorted: u32): Status {
  if (tradeBase == 0) tradeBase = (__heap_base + 63) & ~63;
  if (trades <= tradeRows && groups <= groupRows && sorted <= sortRows) return Status.OK;
  // Grow by half again, so that slowly rising sizes do not grow the memory every call.
  const t = trades > tradeRows ? headroom(tradeRows, trades) : tradeRows;
  const g = groups > groupRows ? headroom(groupRows, groups) : groupRows;
  const s = sorted > sortRows ? headroom(sortRows, sorted) : sortRows;
  if (layout(t, g, s)) return Status.OK;
  if (layout(max(trades, tradeRows), max(groups, groupRows), max(sorted, sortRows))) return Status.OK;
  return Status.OUT_OF_MEMORY;
}

function headroom(have: u32, want: u32): u32 {
  const grown = <u64>have + (<u64>have >> 1);
  return grown > <u64>want && grown <= <u64>u32.MAX_VALUE ? <u32>grown : want;
}

function tradeBytes(rows: u32): u64 {
  return <u64>rows * 40 + ((<u64>rows + 15) & ~15);
}

function layout(t: u32, g: u32, s: u32): bool {
  const groupAt = <u64>tradeBase + tradeBytes(t);
  const sortAt = groupAt + <u64>g * 8 * <u64>GROUP_COLUMNS;
  const end = sortAt + <u64>s * 32;
  if (!growTo(end)) return false;
  tradeRows = t;
  groupRows = g;
  sortRows = s;
  groupBase = <usize>groupAt;
  sortBase = <usize>sortAt;
  return true;
}

/** Trade rows the trade area holds (0 before the first `reserve`). */
export function tradeCapacity(): u32 {
  return tradeRows;
}

/** Rows each group column holds: the `stride` to pass to the kernels. */
export function groupCapacity(): u32 {
  return groupRows;
}

/** The largest group `blockAggregates` can sort. */
export function sortCapacity(): u32 {
  return sortRows;
}

/** Trade times, i64 ns since the Unix epoch. */
export function timePtr(): usize {
  return tradeBase;
}

/** Group keys, i64 (for example slots, or the trade times again). */
export function keyPtr(): usize {
  return tradeBase + (<usize>tradeRows << 3);
}

/** Decimal-adjusted base volumes, f64. */
export function basePtr(): usize {
  return tradeBase + (<usize>tradeRows << 4);
}

/** Decimal-adjusted quote volumes, f64. */
export function quotePtr(): usize {
  return tradeBase + <usize>tradeRows * 24;
}

/** USD price of one quote unit, f64 (NaN = unknown). */
export function usdPtr(): usize {
  return tradeBase + (<usize>tradeRows << 5);
}

/** Trade sides, u8 (nonzero = the base token was bought). */
export function isBuyPtr(): usize {
  return tradeBase + <usize>tradeRows * 40;
}

/** Start of group column `k` (0 <= k < GROUP_COLUMNS); column 0 is the `out` of the kernels. */
export function columnPtr(k: u32): usize {
  return groupBase + ((<usize>k * <usize>groupRows) << 3);
}

/** TWAP window starts, i64 ns (the group column WINDOW_START_COLUMN). */
export function windowStartPtr(): usize {
  return columnPtr(WINDOW_START_COLUMN);
}

/** TWAP window ends, i64 ns, exclusive (the group column WINDOW_END_COLUMN). */
export function windowEndPtr(): usize {
  return columnPtr(WINDOW_END_COLUMN);
}

/** The two sort buffers of `blockAggregates` and how many records each holds. */
export function sortScratch(): usize {
  return sortBase;
}

export function sortScratchRows(): u32 {
  return sortRows;
}
