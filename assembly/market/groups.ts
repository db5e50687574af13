import { Status } from './status';

/**
 * Grouping shared by the kernels. A trade's group is floor(key / width) * width in i64 arithmetic
 * (the window start when the key is a time; the key itself when width is 1). Keys must not
 * decrease, so each group is one run of trades; keys must stay within i64 after adding `width`.
 */

let groupsWritten: u32 = 0;
let largestGroupSize: u32 = 0;

/** floor(key / width) * width, rounding toward minus infinity for negative keys too. */
@inline export function groupStart(key: i64, width: i64): i64 {
  let q = key / width;
  if (key % width < 0) q--;
  return q * width;
}

/** Records the group count of the last kernel call. */
@inline export function setGroups(count: u32, largest: u32): void {
  groupsWritten = count;
  largestGroupSize = largest;
}

/** Groups (candles, sums, blocks, windows) the last kernel call wrote, or `countGroups` counted. */
export function groupCount(): u32 {
  return groupsWritten;
}

/** Trades in the largest group `countGroups` counted (the sort rows `blockAggregates` needs). */
export function largestGroup(): u32 {
  return largestGroupSize;
}

/**
 * Counts the groups of the `n` i64 keys at `key` (`groupCount()`) and the size of the largest
 * (`largestGroup()`), so the caller can reserve the group rows before running a kernel.
 */
export function countGroups(key: usize, n: u32, width: i64): Status {
  setGroups(0, 0);
  if (width <= 0) return Status.BAD_WIDTH;
  let count: u32 = 0;
  let largest: u32 = 0;
  let size: u32 = 0;
  let previous = i64.MIN_VALUE;
  let end = i64.MIN_VALUE;
  for (let i: u32 = 0; i < n; i++) {
    const k = load<i64>(key + (<usize>i << 3));
    if (k < previous) return Status.UNSORTED;
    previous = k;
    if (k >= end) {
      if (size > largest) largest = size;
      size = 0;
      count++;
      end = groupStart(k, width) + width;
    }
    size++;
  }
  if (size > largest) largest = size;
  setGroups(count, largest);
  return Status.OK;
}

/** Address of row `row` of the 8-byte group column `k` of an output area with `stride` rows. */
@inline export function cell(out: usize, stride: u32, k: u32, row: u32): usize {
  return out + ((<usize>k * <usize>stride + <usize>row) << 3);
}

/** Address of row `row` of a u32 group column `k` (its first half of 8-byte slots). */
@inline export function cell32(out: usize, stride: u32, k: u32, row: u32): usize {
  return out + ((<usize>k * <usize>stride) << 3) + (<usize>row << 2);
}
