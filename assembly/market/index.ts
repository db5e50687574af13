/**
 * The market kernels (DESIGN.md 7), one WebAssembly module with its own memory: candles, VWAP and
 * volume partial sums, TWAP windows and block aggregates with outlier trimming. Every kernel works
 * over (ptr, len) columns in the areas `reserve` lays out (see memory.ts), writes its outputs to
 * group columns with a `stride`, and returns a `Status`.
 */
export { Status } from './status';
export {
  reserve,
  tradeCapacity,
  groupCapacity,
  sortCapacity,
  timePtr,
  keyPtr,
  basePtr,
  quotePtr,
  usdPtr,
  isBuyPtr,
  columnPtr,
  windowStartPtr,
  windowEndPtr,
} from './memory';
export { countGroups, groupCount, largestGroup } from './groups';
export { candles, candlesBegin, candlesNext, candlesEnd } from './candles';
export { groupSums, groupSumsBegin, groupSumsNext, groupSumsEnd } from './sums';
export { twap } from './twap';
export { blockAggregates } from './block';
