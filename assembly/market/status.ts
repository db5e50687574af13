/**
 * Status codes of the market kernels (0 = ok). Kernels never throw: the caller maps a code to an
 * error. src/kernels/market.ts mirrors these codes with messages, and a test checks the two agree
 * (the enum is exported, so each member is a wasm global `Status.NAME`).
 */
export enum Status {
  /** Success: outputs are written. */
  OK = 0,
  /** More trades, groups or sort rows than the last `reserve` made room for. */
  CAPACITY = 1,
  /** Linear memory could not grow to the requested size (wasm32 holds at most 4 GiB). */
  OUT_OF_MEMORY = 2,
  /** A window or group width that is not positive. */
  BAD_WIDTH = 3,
  /** Trade times or group keys that decrease: trades must be in order-key order. */
  UNSORTED = 4,
  /** A TWAP window whose end is before its start, or whose start is before the previous window's. */
  BAD_WINDOW = 5,
  /** An outlier threshold that is negative, infinite or NaN. */
  BAD_THRESHOLD = 6,
}
