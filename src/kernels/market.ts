/**
 * The market kernels (assembly/market/, DESIGN.md 7) instantiated synchronously from the embedded
 * module bytes, wrapped in typed functions over trade columns. Each call copies its columns into
 * WASM memory and returns the results as new typed arrays, one per output field, one element per
 * row (struct of arrays). Platform-independent: no `node:*` imports.
 *
 * Trades are in order-key order (slot, tx_index, fill_index), so times (and slots) never
 * decrease. price = quote_volume / base_volume (volumes > 0); price_usd = price x quote_usd_price.
 * An unknown USD price is NaN, never 0; each result says how it spreads (see its fields).
 */
import { wasmBytes } from './market.wasm.generated.js';

/** Trade columns in order-key order, all of one length. */
export interface TradeColumns {
  /** Block time, ns since the Unix epoch (every trade of a block shares it). */
  readonly time: BigInt64Array;
  /** Decimal-adjusted base amount, > 0. */
  readonly baseVolume: Float64Array;
  /** Decimal-adjusted quote amount, > 0. */
  readonly quoteVolume: Float64Array;
  /** USD price of one quote unit at the trade's block; NaN = unknown. */
  readonly quoteUsdPrice: Float64Array;
  /** Nonzero when the base token was bought. */
  readonly isBuy: Uint8Array;
}

/** OHLCV candles, ascending by start; a window without trades has no candle. */
export interface Candles {
  /** Candle open time: floor(time / width) * width, ns. */
  start: BigInt64Array;
  /** Price of the first trade (in order-key order). */
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  /** Price of the last trade. */
  close: Float64Array;
  baseVolume: Float64Array;
  quoteVolume: Float64Array;
  /** open/high/low/close over price_usd; all USD fields are NaN when any trade's USD price is unknown. */
  openUsd: Float64Array;
  highUsd: Float64Array;
  lowUsd: Float64Array;
  closeUsd: Float64Array;
  /** Sum of quote_volume x quote_usd_price. */
  volumeUsd: Float64Array;
  /** Trades folded into the candle (data_points). */
  count: Uint32Array;
}

/**
 * VWAP and volume partial sums per group (block or bucket), ascending by start. They only add, so
 * a trailing window adds its newest groups and subtracts its oldest. vwap = quoteVolume /
 * baseVolume; cumulative_price_volume = priceVolume.
 */
export interface GroupSums {
  /** floor(key / width) * width. */
  start: BigInt64Array;
  baseVolume: Float64Array;
  quoteVolume: Float64Array;
  /** Sum of price x base_volume. */
  priceVolume: Float64Array;
  /** Base volume of buys / sells. */
  buyVolume: Float64Array;
  sellVolume: Float64Array;
  /** Sum of quote_volume x quote_usd_price over the trades whose USD price is known. */
  volumeUsd: Float64Array;
  /** Sum of price_usd x base_volume over the trades whose USD price is known. */
  priceVolumeUsd: Float64Array;
  buyVolumeUsd: Float64Array;
  sellVolumeUsd: Float64Array;
  count: Uint32Array;
  buyCount: Uint32Array;
  /** Trades without a USD price: a window's USD aggregates are known only when these sum to 0. */
  usdUnknown: Uint32Array;
}

/** TWAP windows [start, end): starts must not decrease; ends may (trailing windows overlap). */
export interface TwapWindows {
  readonly start: BigInt64Array;
  readonly end: BigInt64Array;
}

/** The price held before the first trade of the list (the last price before it), if any. */
export interface CarryIn {
  readonly price: number;
  /** NaN when its USD price is unknown. */
  readonly priceUsd: number;
}

/** Time-weighted sums, one row per window. */
export interface Twaps {
  /** Time covered by held prices, ns (total_duration). */
  durationNs: BigInt64Array;
  /** Sum of price x seconds held, seconds = ns / 1e9 per stretch (cumulative_weighted_sum). */
  weightedSum: Float64Array;
  /** The same over price_usd; NaN when a price held for a positive time has no USD price. */
  weightedSumUsd: Float64Array;
  /** weightedSum / (durationNs / 1e9); NaN when nothing is covered. */
  twap: Float64Array;
  twapUsd: Float64Array;
  /** Price held at the window end (current_price); NaN when none. */
  lastPrice: Float64Array;
  lastPriceUsd: Float64Array;
  /** Trades inside the window (data_points). */
  count: Uint32Array;
}

/** Block aggregates with outlier trimming (seed 2.6), ascending by key. */
export interface BlockAggregates {
  /** floor(key / width) * width: the slot, with width 1. */
  key: BigInt64Array;
  /** VWAP of the trades that are not outliers. */
  vwap: Float64Array;
  /** VWAP of all trades. */
  vwapRaw: Float64Array;
  /** Lower volume-weighted median price, the outlier reference. */
  reference: Float64Array;
  min: Float64Array;
  max: Float64Array;
  baseVolume: Float64Array;
  quoteVolume: Float64Array;
  buyVolume: Float64Array;
  sellVolume: Float64Array;
  /** 100 x outlier base volume / base volume. */
  outlierVolumePct: Float64Array;
  /** USD fields: all NaN when any trade of the block has no USD price. */
  vwapUsd: Float64Array;
  vwapUsdRaw: Float64Array;
  minUsd: Float64Array;
  maxUsd: Float64Array;
  volumeUsd: Float64Array;
  buyVolumeUsd: Float64Array;
  sellVolumeUsd: Float64Array;
  count: Uint32Array;
  buyCount: Uint32Array;
  outlierCount: Uint32Array;
}

/** Options of `blockAggregates`. */
export interface BlockOptions {
  /** Outlier threshold t (DESIGN.md 7): default 0.25. */
  readonly threshold?: number;
  /** Group width over the keys: default 1 (one group per slot). */
  readonly width?: bigint;
}

/** Default outlier threshold (DESIGN.md 7). */
export const DEFAULT_OUTLIER_THRESHOLD = 0.25;

/** The raw exports of build/market.wasm (see assembly/market/index.ts). */
export interface MarketExports {
  readonly memory: WebAssembly.Memory;
  reserve(trades: number, groups: number, sorted: number): number;
  tradeCapacity(): number;
  groupCapacity(): number;
  sortCapacity(): number;
  timePtr(): number;
  keyPtr(): number;
  basePtr(): number;
  quotePtr(): number;
  usdPtr(): number;
  isBuyPtr(): number;
  columnPtr(k: number): number;
  windowStartPtr(): number;
  windowEndPtr(): number;
  countGroups(key: number, n: number, width: bigint): number;
  groupCount(): number;
  largestGroup(): number;
  candles(key: number, base: number, quote: number, usd: number, n: number, width: bigint, out: number, stride: number): number;
  candlesBegin(): void;
  candlesNext(key: number, base: number, quote: number, usd: number, n: number, width: bigint, out: number, stride: number): number;
  candlesEnd(out: number, stride: number): number;
  groupSums(
    key: number, base: number, quote: number, usd: number, isBuy: number, n: number, width: bigint,
    out: number, stride: number,
  ): number;
  groupSumsBegin(): void;
  groupSumsNext(
    key: number, base: number, quote: number, usd: number, isBuy: number, n: number, width: bigint,
    out: number, stride: number,
  ): number;
  groupSumsEnd(out: number, stride: number): number;
  twap(
    time: number, base: number, quote: number, usd: number, n: number, starts: number, ends: number,
    m: number, carryPrice: number, carryPriceUsd: number, out: number, stride: number,
  ): number;
  blockAggregates(
    key: number, base: number, quote: number, usd: number, isBuy: number, n: number, width: bigint,
    threshold: number, out: number, stride: number,
  ): number;
}

/** Market kernel status codes (assembly/market/status.ts) with what each means to a caller. */
export const MARKET_STATUS: Readonly<Record<number, readonly [name: string, message: string]>> = {
  1: ['CAPACITY', 'more trades, groups or sort rows than the reserved memory'],
  2: ['OUT_OF_MEMORY', 'WebAssembly memory cannot grow that far (wasm32 holds at most 4 GiB)'],
  3: ['BAD_WIDTH', 'the window or group width must be positive'],
  4: ['UNSORTED', 'trade times or group keys decrease: trades must be in order-key order'],
  5: ['BAD_WINDOW', 'a window ends before it starts, or starts before the previous window'],
  6: ['BAD_THRESHOLD', 'the outlier threshold must be finite and >= 0'],
};

/** Throws a clear Error for a nonzero market kernel status. */
export function checkMarketStatus(kernel: string, status: number): void {
  if (status === 0) return;
  const [name, message] = MARKET_STATUS[status] ?? ['UNKNOWN', 'unknown status'];
  throw new Error(`${kernel}: ${message} (status ${status} ${name})`);
}

type ColumnType = 'i64' | 'f64' | 'u32';
type ColumnSpec<R> = readonly (readonly [keyof R, ColumnType])[];

/** Output columns of each kernel, in the kernel's column order (assembly/market/*.ts). */
const CANDLE_COLUMNS: ColumnSpec<Candles> = [
  ['start', 'i64'], ['open', 'f64'], ['high', 'f64'], ['low', 'f64'], ['close', 'f64'],
  ['baseVolume', 'f64'], ['quoteVolume', 'f64'], ['openUsd', 'f64'], ['highUsd', 'f64'],
  ['lowUsd', 'f64'], ['closeUsd', 'f64'], ['volumeUsd', 'f64'], ['count', 'u32'],
];
const SUM_COLUMNS: ColumnSpec<GroupSums> = [
  ['start', 'i64'], ['baseVolume', 'f64'], ['quoteVolume', 'f64'], ['priceVolume', 'f64'],
  ['buyVolume', 'f64'], ['sellVolume', 'f64'], ['volumeUsd', 'f64'], ['priceVolumeUsd', 'f64'],
  ['buyVolumeUsd', 'f64'], ['sellVolumeUsd', 'f64'], ['count', 'u32'], ['buyCount', 'u32'],
  ['usdUnknown', 'u32'],
];
const TWAP_COLUMNS: ColumnSpec<Twaps> = [
  ['durationNs', 'i64'], ['weightedSum', 'f64'], ['weightedSumUsd', 'f64'], ['twap', 'f64'],
  ['twapUsd', 'f64'], ['lastPrice', 'f64'], ['lastPriceUsd', 'f64'], ['count', 'u32'],
];
const BLOCK_COLUMNS: ColumnSpec<BlockAggregates> = [
  ['key', 'i64'], ['vwap', 'f64'], ['vwapRaw', 'f64'], ['reference', 'f64'], ['min', 'f64'],
  ['max', 'f64'], ['baseVolume', 'f64'], ['quoteVolume', 'f64'], ['buyVolume', 'f64'],
  ['sellVolume', 'f64'], ['outlierVolumePct', 'f64'], ['vwapUsd', 'f64'], ['vwapUsdRaw', 'f64'],
  ['minUsd', 'f64'], ['maxUsd', 'f64'], ['volumeUsd', 'f64'], ['buyVolumeUsd', 'f64'],
  ['sellVolumeUsd', 'f64'], ['count', 'u32'], ['buyCount', 'u32'], ['outlierCount', 'u32'],
];

/** One instance of the market kernels with its own linear memory. */
export interface MarketKernels {
  readonly exports: MarketExports;
  /** Candles of `width` ns (> 0) over the trades' times. */
  candles(trades: Omit<TradeColumns, 'isBuy'>, width: bigint): Candles;
  /**
   * Partial sums per group of floor(keys[i] / width) * width: per block with keys = slots and
   * width 1n, per bucket with keys = trades.time and width = its length. Keys must not decrease.
   */
  groupSums(trades: Omit<TradeColumns, 'time'>, keys: BigInt64Array, width: bigint): GroupSums;
  /** Time-weighted sums over each window; `carry` is the price held before the first trade. */
  twap(trades: Omit<TradeColumns, 'isBuy'>, windows: TwapWindows, carry?: CarryIn): Twaps;
  /** Block aggregates per group of keys (slots); see `BlockOptions`. */
  blockAggregates(trades: Omit<TradeColumns, 'time'>, keys: BigInt64Array, options?: BlockOptions): BlockAggregates;
}

let compiled: WebAssembly.Module | undefined;

/**
 * Compiles the embedded module once per thread. It is about 6 KiB: synchronous compiling on a
 * page's main thread is allowed up to 8 MB since Chromium 114 (before it, up to 4 KiB).
 */
export function marketModule(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(wasmBytes()));
}

/** Instantiates the market kernels synchronously; `initialTrades` pre-sizes (and touches) the memory. */
export function createMarketKernels(initialTrades = 0): MarketKernels {
  const exports = new WebAssembly.Instance(marketModule(), {}).exports as unknown as MarketExports;
  checkMarketStatus('reserve', exports.reserve(initialTrades, 0, 0));

  /** Makes room for the rows; views made before this may be detached. */
  function reserve(kernel: string, trades: number, groups: number, sorted: number): void {
    checkMarketStatus(kernel, exports.reserve(trades, groups, sorted));
  }

  /** Copies a column (or a chunk of one, a subarray) to `ptr`, byte for byte. */
  function put(ptr: number, values: ArrayBufferView): void {
    new Uint8Array(exports.memory.buffer, ptr, values.byteLength)
      .set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }

  /** Copies the volume and USD columns into the trade area. */
  function writeVolumes(trades: Omit<TradeColumns, 'time' | 'isBuy'>): void {
    put(exports.basePtr(), trades.baseVolume);
    put(exports.quotePtr(), trades.quoteVolume);
    put(exports.usdPtr(), trades.quoteUsdPrice);
  }

  /** Makes room for and copies the keys and trade columns of a keyed kernel; returns the trade count. */
  function writeKeyed(kernel: string, trades: Omit<TradeColumns, 'time'>, keys: BigInt64Array): number {
    const { baseVolume, quoteVolume, quoteUsdPrice, isBuy } = trades;
    const n = sameLength(kernel, { keys, baseVolume, quoteVolume, quoteUsdPrice, isBuy });
    reserve(kernel, n, 0, 0);
    put(exports.keyPtr(), keys);
    writeVolumes(trades);
    put(exports.isBuyPtr(), isBuy);
    return n;
  }

  /** The trade area's keyed columns, in the grouped kernels' argument order. */
  function tradePtrs(): [key: number, base: number, quote: number, usd: number, isBuy: number] {
    return [exports.keyPtr(), exports.basePtr(), exports.quotePtr(), exports.usdPtr(), exports.isBuyPtr()];
  }

  /**
   * A grouped kernel's results over trade columns (keys first, then base, quote, USD price and,
   * for groupSums, sides: the trade area's column order). By chunks of CHUNK trades, each copied to
   * the start of the trade area, while the key span fits the group rows reserved: the kernel reads
   * a chunk while it is still in cache, and the copies stay in cache instead of going out to
   * memory and back (counting the groups first would need every key in memory). Otherwise (first
   * call, more groups, bad width or decreasing keys) all at once, groups counted, and room for the
   * whole span when it is at most twice the groups (some empty windows or skipped slots), so that a
   * next call of a like span goes by chunks.
   */
  function grouped<R>(kernel: GroupedKernel, spec: ColumnSpec<R>, columns: readonly TradeColumn[], width: bigint): R {
    const keys = columns[0] as BigInt64Array;
    const n = keys.length;
    const span = spanGroups(keys, width);
    const run = (step: GroupedKernel['next'], n: number) =>
      step(...tradePtrs(), n, width, exports.columnPtr(0), exports.groupCapacity());
    if (span <= exports.groupCapacity()) {
      reserve(kernel.name, Math.min(n, CHUNK), 0, 0);
      const to = tradePtrs();
      kernel.begin();
      let status = 0;
      for (let at = 0; at < n && status === 0; at += CHUNK) {
        const end = Math.min(n, at + CHUNK);
        columns.forEach((values, k) => put(to[k]!, values.subarray(at, end)));
        status = run(kernel.next, end - at);
      }
      if (status === 0) status = kernel.end(exports.columnPtr(0), exports.groupCapacity());
      if (status === 0) return read(spec, exports.groupCount());
    }
    reserve(kernel.name, n, 0, 0);
    const to = tradePtrs();
    columns.forEach((values, k) => put(to[k]!, values));
    reserveGroups(kernel.name, exports.keyPtr(), n, width, false);
    if (span <= 2 * exports.groupCount()) reserve(kernel.name, n, span, 0);
    checkMarketStatus(kernel.name, run(kernel.whole, n));
    return read(spec, exports.groupCount());
  }

  /** The grouped kernels, all called as groupSums is (candles takes no sides: it ignores them). */
  const CANDLES: GroupedKernel = {
    name: 'candles',
    whole: (key, base, quote, usd, _isBuy, n, width, out, stride) => exports.candles(key, base, quote, usd, n, width, out, stride),
    begin: () => exports.candlesBegin(),
    next: (key, base, quote, usd, _isBuy, n, width, out, stride) => exports.candlesNext(key, base, quote, usd, n, width, out, stride),
    end: (out, stride) => exports.candlesEnd(out, stride),
  };
  const GROUP_SUMS: GroupedKernel = {
    name: 'groupSums',
    whole: (...args) => exports.groupSums(...args),
    begin: () => exports.groupSumsBegin(),
    next: (...args) => exports.groupSumsNext(...args),
    end: (out, stride) => exports.groupSumsEnd(out, stride),
  };

  /** Counts the groups of the keys already in memory and makes room for them (keeps the trades). */
  function reserveGroups(kernel: string, key: number, n: number, width: bigint, sorted: boolean): void {
    checkMarketStatus(kernel, exports.countGroups(key, n, width));
    reserve(kernel, n, exports.groupCount(), sorted ? exports.largestGroup() : 0);
  }

  function read<R>(spec: ColumnSpec<R>, rows: number): R {
    const { buffer } = exports.memory;
    const result: Record<string, BigInt64Array | Float64Array | Uint32Array> = {};
    spec.forEach(([name, type], k) => {
      const ptr = exports.columnPtr(k);
      result[name as string] =
        type === 'i64' ? new BigInt64Array(buffer, ptr, rows).slice()
        : type === 'u32' ? new Uint32Array(buffer, ptr, rows).slice()
        : new Float64Array(buffer, ptr, rows).slice();
    });
    return result as R;
  }

  return {
    exports,
    candles(trades, width) {
      const { time, baseVolume, quoteVolume, quoteUsdPrice } = trades;
      sameLength('candles', { time, baseVolume, quoteVolume, quoteUsdPrice });
      return grouped(CANDLES, CANDLE_COLUMNS, [time, baseVolume, quoteVolume, quoteUsdPrice], width);
    },
    groupSums(trades, keys, width) {
      const { baseVolume, quoteVolume, quoteUsdPrice, isBuy } = trades;
      sameLength('groupSums', { keys, baseVolume, quoteVolume, quoteUsdPrice, isBuy });
      return grouped(GROUP_SUMS, SUM_COLUMNS, [keys, baseVolume, quoteVolume, quoteUsdPrice, isBuy], width);
    },
    twap(trades, windows, carry) {
      const { time, baseVolume, quoteVolume, quoteUsdPrice } = trades;
      const n = sameLength('twap', { time, baseVolume, quoteVolume, quoteUsdPrice });
      const m = sameLength('twap', { start: windows.start, end: windows.end });
      reserve('twap', n, m, 0);
      put(exports.timePtr(), time);
      writeVolumes(trades);
      put(exports.windowStartPtr(), windows.start);
      put(exports.windowEndPtr(), windows.end);
      checkMarketStatus('twap', exports.twap(
        exports.timePtr(), exports.basePtr(), exports.quotePtr(), exports.usdPtr(), n,
        exports.windowStartPtr(), exports.windowEndPtr(), m, carry?.price ?? NaN, carry?.priceUsd ?? NaN,
        exports.columnPtr(0), exports.groupCapacity(),
      ));
      return read(TWAP_COLUMNS, m);
    },
    blockAggregates(trades, keys, options = {}) {
      const n = writeKeyed('blockAggregates', trades, keys);
      const width = options.width ?? 1n;
      reserveGroups('blockAggregates', exports.keyPtr(), n, width, true);
      checkMarketStatus('blockAggregates', exports.blockAggregates(
        exports.keyPtr(), exports.basePtr(), exports.quotePtr(), exports.usdPtr(), exports.isBuyPtr(), n,
        width, options.threshold ?? DEFAULT_OUTLIER_THRESHOLD, exports.columnPtr(0), exports.groupCapacity(),
      ));
      return read(BLOCK_COLUMNS, exports.groupCount());
    },
  };
}

/** Trades per chunk of the grouped kernels: 32-33 bytes each, about 2 MiB of inputs, within the caches. */
const CHUNK = 65536;

type TradeColumn = BigInt64Array | Float64Array | Uint8Array;

/** A kernel over grouped trades (assembly/market/runs.ts), whole or by chunks; each returns a status. */
interface GroupedKernel {
  readonly name: string;
  whole: MarketExports['groupSums'];
  begin(): void;
  next: MarketExports['groupSumsNext'];
  end(out: number, stride: number): number;
}

/**
 * Groups of `width` from the first key's to the last key's: at least as many as sorted keys make.
 * Infinity for a width the kernels refuse or keys that visibly decrease.
 */
function spanGroups(keys: BigInt64Array, width: bigint): number {
  const n = keys.length;
  if (width <= 0n) return Infinity;
  if (n === 0) return 0;
  if (keys[n - 1]! < keys[0]!) return Infinity;
  return Number(floorDiv(keys[n - 1]!, width) - floorDiv(keys[0]!, width)) + 1;
}

/** floor(a / b) for b > 0 (BigInt division truncates toward zero). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b < 0n ? q - 1n : q;
}

/** The common length of the named columns; throws a RangeError when they differ. */
function sameLength(kernel: string, columns: Record<string, ArrayLike<unknown>>): number {
  const lengths = Object.entries(columns).map(([name, c]) => [name, c.length] as const);
  const n = lengths[0]?.[1] ?? 0;
  const odd = lengths.find(([, length]) => length !== n);
  if (odd) throw new RangeError(`${kernel}: column ${odd[0]} has ${odd[1]} values, ${lengths[0]![0]} has ${n}`);
  return n;
}

let shared: MarketKernels | undefined;

/** This thread's shared market kernel instance (created on first use). */
export function marketKernels(): MarketKernels {
  return (shared ??= createMarketKernels());
}
