import { Status } from './status';
import { groupStart, setGroups } from './groups';

/**
 * The group walk of the kernels that take their trades whole or in consecutive chunks (groupSums,
 * candles). The keys of a chunk are checked to be sorted in one SIMD pass; then a group's trades
 * within the chunk are one run, found by search and handed whole to the kernel's `add`, whose
 * loop then has no boundary check per trade. The group open at the end of a chunk stays open into
 * the next, so chunks give the results of one call over all trades, bit for bit.
 *
 * A kernel keeps its running values in globals and passes its steps as a class instance:
 * `add(from, to, opens)` folds trades [from, to) of the open group in (`opens`: they are its first),
 * `write(out, stride, row, start)` writes the group's row and empties them. (A generic parameter
 * rather than function references: each kernel gets its own walk with direct, inlinable calls,
 * which matters when groups are a few trades, as per block.) One list of trades at a time:
 * `beginRuns`, `nextRuns` per chunk, `endRuns`.
 */

let hasOpen = false;
let openStart: i64 = 0;
let openEnd: i64 = 0;
let lastKey = i64.MIN_VALUE;
let rows: u32 = 0;

/** Starts a list of trades. */
export function beginRuns(): void {
  setGroups(0, 0);
  hasOpen = false;
  lastKey = i64.MIN_VALUE;
  rows = 0;
}

/** Walks the next `n` keys at `key`, writing the groups they complete. */
export function nextRuns<Steps>(steps: Steps, key: usize, n: u32, width: i64, out: usize, stride: u32): Status {
  if (width <= 0) return Status.BAD_WIDTH;
  if (n == 0) return Status.OK;
  if (!ascending(key, n)) return Status.UNSORTED;
  let i: u32 = 0;
  while (i < n) {
    const k = load<i64>(key + (<usize>i << 3));
    const opens = !hasOpen || k >= openEnd;
    if (opens) {
      const status = closeGroup<Steps>(steps, out, stride);
      if (status != Status.OK) return status;
      openStart = groupStart(k, width);
      openEnd = openStart + width;
      hasOpen = true;
    }
    const j = runEnd(key, i, n, openEnd);
    steps.add(i, j, opens);
    i = j;
  }
  lastKey = load<i64>(key + (<usize>(n - 1) << 3));
  return Status.OK;
}

/**
 * Whether the `n` (> 0) keys never decrease, from the previous chunk's last key on: one pass, four
 * keys an iteration, so that finding the runs can then search instead of comparing every key.
 */
function ascending(key: usize, n: u32): bool {
  if (load<i64>(key) < lastKey) return false;
  let down = i64x2.splat(0);
  let i: u32 = 1;
  for (; i + 4 <= n; i += 4) {
    const at = key + (<usize>i << 3);
    down = v128.or(down, i64x2.lt_s(v128.load(at), v128.load(at - 8)));
    down = v128.or(down, i64x2.lt_s(v128.load(at + 16), v128.load(at + 8)));
  }
  for (; i < n; i++) {
    const at = key + (<usize>i << 3);
    if (load<i64>(at) < load<i64>(at - 8)) return false;
  }
  return !v128.any_true(down);
}

/**
 * The first index in (i, n) whose key is >= `end`, else n, for ascending keys (key[i] < end): the
 * next few keys one by one (a block's run is a few trades), then doubling steps and a binary search
 * in the last step, so a long run of r trades costs about 2 log2(r) compares.
 */
@inline function runEnd(key: usize, i: u32, n: u32, end: i64): u32 {
  const near = min(n, i + 8);
  let j = i + 1;
  while (j < near && load<i64>(key + (<usize>j << 3)) < end) j++;
  if (j < near || j == n) return j;
  let below = j - 1; // key[below] < end
  let step: u32 = 1;
  while (step < n - below && load<i64>(key + (<usize>(below + step) << 3)) < end) {
    below += step;
    step <<= 1;
  }
  let above = step < n - below ? below + step : n; // key[above] >= end, or above = n
  while (above - below > 1) {
    const mid = below + ((above - below) >> 1);
    if (load<i64>(key + (<usize>mid << 3)) < end) below = mid;
    else above = mid;
  }
  return above;
}

/** Writes the open group; `groupCount()` is then the number of groups of the list. */
export function endRuns<Steps>(steps: Steps, out: usize, stride: u32): Status {
  const status = closeGroup<Steps>(steps, out, stride);
  if (status == Status.OK) setGroups(rows, 0);
  return status;
}

@inline function closeGroup<Steps>(steps: Steps, out: usize, stride: u32): Status {
  if (!hasOpen) return Status.OK;
  if (rows >= stride) return Status.CAPACITY;
  steps.write(out, stride, rows++, openStart);
  hasOpen = false;
  return Status.OK;
}
