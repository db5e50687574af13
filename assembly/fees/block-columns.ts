import { Status } from '../status';
import { Area, area, BLOCK_HEADER, blockSlots, fitsBlocks, fitsRows, fitsSamples } from './layout';
import { statsInto } from './sample-stats';
import { toF64 } from './u128';

/**
 * One block's priority-fee record (DESIGN.md 6) from its transaction rows: the totals, and the
 * fee-paying non-vote transactions (compute_unit_price > 0; failed ones count) as samples, each
 * with position = index / (n - 1) over all n transactions of the block, votes included.
 */

/**
 * Writes the block record (layout.ts) of rows [first, first + n) of the row area to `out`, using
 * the sample area for the block's samples. A block without fee-paying transactions has tx_count 0
 * and no sample statistics; that is not an error.
 */
export function blockColumns(first: u32, n: u32, out: usize): Status {
  if (!fitsRows(first, n) || !fitsSamples(n)) return Status.CAPACITY;
  const at = <usize>first;
  const vote = area(Area.ROW_VOTE) + at;
  const rowPrice = area(Area.ROW_PRICE) + (at << 3);
  const rowFee = area(Area.ROW_FEE) + (at << 3);
  const rowConsumed = area(Area.ROW_CONSUMED) + (at << 3);
  const rowLimit = area(Area.ROW_LIMIT) + (at << 2);
  const rowIndex = area(Area.ROW_INDEX) + (at << 2);
  const price = area(Area.PRICE);
  const fee = area(Area.FEE);
  const limit = area(Area.LIMIT);
  const key = area(Area.KEY);
  // position = index / (n - 1); with n = 1 the one transaction is at 0 (key 0 over 1).
  const last = n > 1 ? <f64>(n - 1) : 1;

  let samples: usize = 0;
  let free: u64 = 0;
  let feesLo: u64 = 0;
  let feesHi: u64 = 0;
  let consumedLo: u64 = 0;
  let consumedHi: u64 = 0;
  let budget: u64 = 0;
  const indexMask: u32 = n > 1 ? 0xffffffff : 0;
  // Branch-free: votes and prices are unpredictable, so every row is written to the next sample
  // slot, which only a fee-paying row keeps (the slot advances).
  for (let i: usize = 0; i < <usize>n; i++) {
    const counted = load<u8>(vote + i) == 0;
    const keep: u64 = select<u64>(u64.MAX_VALUE, 0, counted);
    const f = load<u64>(rowFee + (i << 3)) & keep;
    const c = load<u64>(rowConsumed + (i << 3)) & keep;
    const l = load<u32>(rowLimit + (i << 2));
    const p = load<u64>(rowPrice + (i << 3));
    feesLo += f;
    feesHi += select<u64>(1, 0, feesLo < f);
    consumedLo += c;
    consumedHi += select<u64>(1, 0, consumedLo < c);
    budget += <u64>l & keep;
    free += <u64>(counted & (p == 0));
    const s = samples << 3;
    store<u64>(price + s, p);
    store<u64>(fee + s, f);
    store<u64>(limit + s, <u64>l);
    store<u64>(key + s, <u64>(load<u32>(rowIndex + (i << 2)) & indexMask));
    samples += <usize>(counted & (p != 0));
  }

  store<u64>(out, <u64>samples);
  store<u64>(out, free, 8);
  store<u64>(out, <u64>n, 16);
  store<u64>(out, feesLo, 24);
  store<u64>(out, feesHi, 32);
  store<u64>(out, consumedLo, 40);
  store<u64>(out, consumedHi, 48);
  store<u64>(out, budget, 56);
  store<f64>(out, budget == 0 ? NaN : (100 * toF64(consumedHi, consumedLo)) / <f64>budget, 64);
  if (samples > 0) statsInto(<u32>samples, out + (<usize>BLOCK_HEADER << 3), last);
  return Status.OK;
}

/**
 * Block records of `blocks` blocks: block b is rows [offsets[b], offsets[b + 1]) of the row area
 * (offsets: `blocks + 1` ascending u32 in the offsets area); its record goes to the output area at
 * b * `blockSlots()` slots. Stops at the first block that does not fit.
 */
export function blockStatsMany(blocks: u32): Status {
  if (!fitsBlocks(blocks)) return Status.CAPACITY;
  const offsets = area(Area.OFFSETS);
  const output = area(Area.OUTPUT);
  const record = <usize>blockSlots() << 3;
  for (let b: usize = 0; b < <usize>blocks; b++) {
    const first = load<u32>(offsets + (b << 2));
    const end = load<u32>(offsets + (b << 2), 4);
    if (end < first) return Status.CAPACITY;
    const status = blockColumns(first, end - first, output + b * record);
    if (status != Status.OK) return status;
  }
  return Status.OK;
}
