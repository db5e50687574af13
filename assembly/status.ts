/**
 * Status codes returned by every kernel (0 = ok). Kernels never throw: the caller maps a code to an
 * error. The TypeScript wrapper mirrors these codes with messages in src/kernels/instance.ts, and a
 * test checks the two agree (the enum is exported, so each member is a wasm global `Status.NAME`).
 */
export enum Status {
  /** Success: outputs are written. */
  OK = 0,
  /** No values: a percentile of an empty set is undefined. */
  EMPTY = 1,
  /** A percentile outside 0..100000 (thousandths of a percent). */
  BAD_PERCENTILE = 2,
  /** More percentiles in one call than `maxPercentiles()`. */
  TOO_MANY_PERCENTILES = 3,
  /** More values than the scratch reserved by the last `reserve(n)`. */
  CAPACITY = 4,
  /** Linear memory could not grow to the requested size (wasm32 holds at most 4 GiB). */
  OUT_OF_MEMORY = 5,
}
