/**
 * The priority-fee kernels (assembly/fees/) instantiated from the embedded module bytes, wrapped in
 * typed functions that return plain objects keyed by the BlockFees record's field names
 * (DESIGN.md 6). Platform-independent: no `node:*` imports.
 *
 * Values: u64 statistics are `bigint`, counts `number`, floats `number`. A statistic of an empty
 * sample set (no fee-paying transaction) is `null`, integer and float fields alike, and so is
 * cu_utilization_pct when no compute units were requested. total_compute_units and cu_utilization_pct
 * are `null` too when a non-vote transaction's consumed compute units are unknown (`consumedKnown`).
 * The kernels sum total_priority_fees and total_compute_units exactly (u128); as u64 record fields
 * they saturate at 2^64 - 1 (`saturateU64`), while cu_utilization_pct and the means use the exact sums.
 */
import { saturateU64 } from '../schema/amounts.js';
import {
  BlockFees, POSITION_AT_FEE, STAT_SUFFIXES, suffixMillis, type BlockFeesRecord,
} from '../schema/records.js';
import type { WireType } from '../schema/wire.js';
import { wasmBytes } from './fees.wasm.generated.js';
import { checkStatus } from './instance.js';

type FieldOf<K extends string> = Extract<(typeof BlockFees.fields)[number], readonly [K, WireType]>;

/** Block totals and their kernel slots (assembly/fees/layout.ts, block record header). */
const TOTALS = {
  tx_count: [0, 'count'],
  no_priority_tx_count: [1, 'count'],
  total_tx_count: [2, 'count'],
  total_priority_fees: [3, 'u128'],
  total_compute_units: [5, 'u128'],
  total_compute_budget: [7, 'u64'],
  cu_utilization_pct: [8, 'ratio'],
} as const satisfies { readonly [K in keyof BlockFeesRecord]?: readonly [slot: number, kind: Kind] };

type Kind = 'count' | 'u128' | 'u64' | 'ratio' | 'f64';
type TotalField = keyof typeof TOTALS;
type StatField = Exclude<keyof BlockFeesRecord, 'id' | 'slot' | 'timestamp' | TotalField>;

/** The statistics of one sample set: every BlockFees field but id, slot, timestamp and the totals. */
export type SampleStats = {
  [K in StatField]: FieldOf<K>[1] extends 'Uint8' ? bigint | null : number | null;
};

/** One block's record: every BlockFees field but id, slot and timestamp. */
export type BlockFeeStats = SampleStats & {
  [K in TotalField]: FieldOf<K>[1] extends 'Uint4'
    ? number
    : K extends 'total_compute_units' ? bigint | null : FieldOf<K>[1] extends 'Uint8' ? bigint : number | null;
};

/** Sample columns, one entry per fee-paying transaction; all of one length. */
export interface FeeSamples {
  price: BigUint64Array;
  fee: BigUint64Array;
  limit: BigUint64Array;
  position: Float64Array;
}

/** One block's transaction columns (all of its transactions, votes included); all of one length. */
export interface BlockColumns {
  /** Nonzero for a vote transaction. */
  isVote: Uint8Array;
  computeUnitPrice: BigUint64Array;
  /** Priority fee, lamports. */
  priorityFee: BigUint64Array;
  computeUnitLimit: Uint32Array;
  /** Consumed compute units; any value where `consumedKnown` is 0. */
  computeUnitsConsumed: BigUint64Array;
  /** 0 where the consumed compute units are unknown; absent when every value is known. */
  consumedKnown?: Uint8Array;
  /** Index of the transaction in its block. */
  index: Uint32Array;
}

/** Many blocks' columns back to back: block b is rows [offsets[b], offsets[b + 1]). */
export interface ManyBlockColumns extends BlockColumns {
  offsets: Uint32Array;
}

/** The statistic families in kernel order (u64 price, fee, limit; f64 position). */
const FAMILIES = ['price', 'fee', 'limit', 'position'] as const;
/** Percentile of each suffix but mean, in suffix order: the family slots after the mean. */
const SUFFIX_PERCENTILES = STAT_SUFFIXES.flatMap((s) => {
  const millis = suffixMillis(s);
  return millis === undefined ? [] : [[s, millis] as const];
});
const STAT_MILLIS = SUFFIX_PERCENTILES.map(([, millis]) => millis);
const AT_FEE_MILLIS = POSITION_AT_FEE.map((p) => p * 1000);
const FAMILY_SLOTS = 1 + STAT_MILLIS.length;
const TAIL = FAMILIES.length * FAMILY_SLOTS;

const statField = <K extends StatField>(name: K): K => name;

/** [field, slot within the sample-statistics record, kind] (assembly/fees/layout.ts). */
const STAT_PLAN: readonly (readonly [StatField, number, Kind])[] = [
  ...FAMILIES.flatMap((family, f) => {
    const kind: Kind = family === 'position' ? 'f64' : 'u64';
    return STAT_SUFFIXES.map((suffix) => {
      const slot = suffix === 'mean' ? 0 : 1 + SUFFIX_PERCENTILES.findIndex(([s]) => s === suffix);
      return [statField(`${family}_${suffix}`), f * FAMILY_SLOTS + slot, kind] as const;
    });
  }),
  ...FAMILIES.map((family, f) => [statField(`${family}_spread`), TAIL + f, family === 'position' ? 'f64' : 'u64'] as const),
  [statField('std_dev'), TAIL + 4, 'f64'],
  ...POSITION_AT_FEE.map((p, j) => [statField(`position_at_fee_p${p}`), TAIL + 5 + j, 'f64'] as const),
];
const STATS_SLOTS = TAIL + 5 + POSITION_AT_FEE.length;
const BLOCK_HEADER = 9;
/** Index of each area's address at `layoutPtr()` (assembly/fees/layout.ts, `Area`). */
const AREA = {
  price: 0, fee: 1, limit: 2, position: 3,
  rowPrice: 7, rowFee: 8, rowConsumed: 9, rowLimit: 10, rowIndex: 11, rowVote: 12, offsets: 13, output: 14,
} as const;
const AREAS = 15;

/** The raw exports of build/fees.wasm (see assembly/fees/index.ts). */
export interface FeeKernelExports {
  readonly memory: WebAssembly.Memory;
  configure(k: number, m: number): number;
  reserve(samples: number, rows: number, blocks: number): number;
  millisPtr(): number;
  maxPercentiles(): number;
  layoutPtr(): number;
  statsSlots(): number;
  blockSlots(): number;
  sampleStats(n: number, out: number): number;
  blockColumns(first: number, n: number, out: number): number;
  blockStatsMany(blocks: number): number;
}

/** One instance of the fee kernels with its own linear memory. */
export interface FeeKernels {
  readonly exports: FeeKernelExports;
  /** The statistics of one sample set; every field `null` when it is empty. */
  sampleStats(samples: FeeSamples): SampleStats;
  /** One block's record from all of its transactions. */
  blockFeeStats(block: BlockColumns): BlockFeeStats;
  /** The records of many blocks laid out back to back, in block order. */
  blockFeeStatsMany(blocks: ManyBlockColumns): BlockFeeStats[];
}

/** Rows per trip into the kernel: bounds the memory of a batch (a larger block goes alone). */
const ROWS_PER_CALL = 1 << 16;

/** Runs [b0, b1) of whole blocks of at most `rows` rows each, in order (a larger block is a run alone). */
export function* blockRuns(offsets: Uint32Array, rows: number): Generator<[number, number]> {
  const count = offsets.length - 1;
  for (let b0 = 0, b1: number; b0 < count; b0 = b1) {
    b1 = b0 + 1;
    while (b1 < count && offsets[b1 + 1]! - offsets[b0]! <= rows) b1++;
    yield [b0, b1];
  }
}

let compiled: WebAssembly.Module | undefined;

/**
 * Compiles the embedded module once per thread, synchronously. It is ~6.4 KB: over the 4 KiB that
 * older Chrome allowed on a main thread, so there use a worker or `compileFeeKernels` first.
 */
export function feeKernelsModule(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(wasmBytes()));
}

/** Compiles the embedded module asynchronously (for a browser's main thread). */
export async function compileFeeKernels(): Promise<WebAssembly.Module> {
  return (compiled ??= await WebAssembly.compile(wasmBytes()));
}

/** Instantiates the fee kernels synchronously and configures them with the schema's percentiles. */
export function createFeeKernels(module: WebAssembly.Module = feeKernelsModule()): FeeKernels {
  const exports = new WebAssembly.Instance(module, {}).exports as unknown as FeeKernelExports;
  const millis = [...STAT_MILLIS, ...AT_FEE_MILLIS];
  new Uint32Array(exports.memory.buffer, exports.millisPtr(), millis.length).set(millis);
  checkStatus('configure', exports.configure(STAT_MILLIS.length, AT_FEE_MILLIS.length));
  if (exports.statsSlots() !== STATS_SLOTS || exports.blockSlots() !== BLOCK_HEADER + STATS_SLOTS) {
    throw new Error('fee kernels: record layout differs from src/kernels/fees.ts');
  }
  const record = BLOCK_HEADER + STATS_SLOTS;

  let buffer: ArrayBuffer | undefined;
  let u64 = new BigUint64Array(0);
  let f64 = new Float64Array(0);
  let area = new Uint32Array(0);

  /** Reserves, then re-creates the views (reserve may grow the memory, which detaches them). */
  function reserve(kernel: string, samples: number, rows: number, blocks: number): void {
    checkStatus(kernel, exports.reserve(samples, rows, blocks));
    if (exports.memory.buffer !== buffer) {
      buffer = exports.memory.buffer;
      u64 = new BigUint64Array(buffer);
      f64 = new Float64Array(buffer);
    }
    area = new Uint32Array(buffer, exports.layoutPtr(), AREAS);
  }

  function sampleStats(samples: FeeSamples): SampleStats {
    const n = samples.price.length;
    if (samples.fee.length !== n || samples.limit.length !== n || samples.position.length !== n) {
      throw new Error('sampleStats: the sample columns differ in length');
    }
    if (n === 0) return emptyStats();
    reserve('sampleStats', n, 0, 1);
    u64.set(samples.price, area[AREA.price]! / 8);
    u64.set(samples.fee, area[AREA.fee]! / 8);
    u64.set(samples.limit, area[AREA.limit]! / 8);
    f64.set(samples.position, area[AREA.position]! / 8);
    const out = area[AREA.output]!;
    checkStatus('sampleStats', exports.sampleStats(n, out));
    const stats = emptyStats();
    readStats(u64, f64, out / 8, stats);
    return stats;
  }

  function blockFeeStatsMany(blocks: ManyBlockColumns): BlockFeeStats[] {
    const { offsets } = blocks;
    const rows = blocks.isVote.length;
    const columns = [blocks.computeUnitPrice, blocks.priorityFee, blocks.computeUnitLimit, blocks.computeUnitsConsumed, blocks.index];
    for (const column of blocks.consumedKnown ? [...columns, blocks.consumedKnown] : columns) {
      if (column.length !== rows) throw new Error('blockFeeStatsMany: the transaction columns differ in length');
    }
    const count = offsets.length - 1;
    if (count < 0) throw new Error('blockFeeStatsMany: offsets needs one entry more than there are blocks');
    for (let b = 0; b < count; b++) {
      if (offsets[b]! > offsets[b + 1]!) throw new Error(`blockFeeStatsMany: offsets decrease at block ${b}`);
    }
    if (count > 0 && offsets[count]! > rows) throw new Error('blockFeeStatsMany: offsets run past the columns');

    const result: BlockFeeStats[] = new Array(count);
    for (const [b0, b1] of blockRuns(offsets, ROWS_PER_CALL)) {
      const start = offsets[b0]!;
      let widest = 0;
      for (let b = b0; b < b1; b++) widest = Math.max(widest, offsets[b + 1]! - offsets[b]!);
      const end = offsets[b1]!;
      reserve('blockFeeStatsMany', widest, end - start, b1 - b0);
      const at = (name: keyof typeof AREA) => area[AREA[name]]!;
      u64.set(blocks.computeUnitPrice.subarray(start, end), at('rowPrice') / 8);
      u64.set(blocks.priorityFee.subarray(start, end), at('rowFee') / 8);
      u64.set(blocks.computeUnitsConsumed.subarray(start, end), at('rowConsumed') / 8);
      new Uint32Array(buffer!, at('rowLimit'), end - start).set(blocks.computeUnitLimit.subarray(start, end));
      new Uint32Array(buffer!, at('rowIndex'), end - start).set(blocks.index.subarray(start, end));
      new Uint8Array(buffer!, at('rowVote'), end - start).set(blocks.isVote.subarray(start, end));
      const local = new Uint32Array(buffer!, at('offsets'), b1 - b0 + 1);
      for (let b = b0; b <= b1; b++) local[b - b0] = offsets[b]! - start;
      checkStatus('blockFeeStatsMany', exports.blockStatsMany(b1 - b0));
      const out = at('output') / 8;
      for (let b = b0; b < b1; b++) result[b] = readBlock(u64, f64, out + (b - b0) * record);
    }
    if (blocks.consumedKnown) forgetUnknownConsumed(blocks, blocks.consumedKnown, result);
    return result;
  }

  return {
    exports,
    sampleStats,
    blockFeeStats: (block) => blockFeeStatsMany({ ...block, offsets: Uint32Array.of(0, block.isVote.length) })[0]!,
    blockFeeStatsMany,
  };
}

/**
 * A record with every field of `names` (in schema order), all null, to be copied per record. Built
 * by `Object.fromEntries`, it is a fast-mode object, so `{ ...template }` is one cheap clone (a
 * template built by keyed stores would be a dictionary, and cloning it costs ~30 us); each field
 * holds a number, then a bigint, then null, so that stores into the copies never change its shape.
 */
function template(names: readonly string[]): Readonly<Record<string, unknown>> {
  const record: Record<string, unknown> = Object.fromEntries(names.map((name) => [name, 0.5]));
  for (const value of [0n, null]) for (const name of names) record[name] = value;
  return record;
}

const recordOrder = BlockFees.fields.map(([name]) => name);
const statSlots = new Map(STAT_PLAN.map(([name, slot, kind]) => [name as string, [slot, kind === 'f64'] as const]));
const STATS_TEMPLATE = template(recordOrder.filter((name) => statSlots.has(name)));
const BLOCK_TEMPLATE = template(recordOrder.filter((name) => statSlots.has(name) || name in TOTALS));
/**
 * Every field of a BlockFees record, null (as generalized as the templates here): a record made as a
 * copy of it takes its id, slot, time and a block's statistics without adding a property (a spread
 * of the statistics into a literal grew its properties' store ~150 times: ~28 KB of garbage a block).
 */
export const BLOCK_FEES_TEMPLATE = template(recordOrder);
// The keys of the template itself: property keys are internalized strings, and a store by a key
// that is not (the schema builds its names by concatenation) pays a string-table lookup each time.
const STAT_NAMES = Object.keys(STATS_TEMPLATE);
const STAT_SLOT = STAT_NAMES.map((name) => statSlots.get(name)![0]);
const STAT_FLOAT = STAT_NAMES.map((name) => statSlots.get(name)![1]);
const TOTAL_NAMES = Object.keys(BLOCK_TEMPLATE).filter((name) => name in TOTALS) as TotalField[];

/** The statistics of an empty sample set: every field `null`. */
function emptyStats(): SampleStats {
  return { ...STATS_TEMPLATE } as SampleStats;
}

/** Writes a sample-statistics record at 8-byte slot `base` into `stats`. */
function readStats(u64: BigUint64Array, f64: Float64Array, base: number, stats: Record<string, unknown>): void {
  for (let i = 0; i < STAT_NAMES.length; i++) {
    const at = base + STAT_SLOT[i]!;
    stats[STAT_NAMES[i]!] = STAT_FLOAT[i] ? f64[at]! : u64[at]!;
  }
}

/** Reads a block record at 8-byte slot `base`. */
function readBlock(u64: BigUint64Array, f64: Float64Array, base: number): BlockFeeStats {
  const block: Record<string, unknown> = { ...BLOCK_TEMPLATE };
  if (u64[base] !== 0n) readStats(u64, f64, base + BLOCK_HEADER, block);
  for (const name of TOTAL_NAMES) {
    const [slot, kind] = TOTALS[name];
    const at = base + slot;
    block[name] =
      kind === 'count' ? Number(u64[at]!)
      : kind === 'u128' ? saturateU64(u64[at]! + (u64[at + 1]! << 64n)) // an exact u128 sum as a u64 field
      : kind === 'u64' ? u64[at]!
      : Number.isNaN(f64[at]!) ? null : f64[at]!;
  }
  return block as BlockFeeStats;
}

/**
 * Nulls total_compute_units and cu_utilization_pct of the blocks in which a non-vote transaction's
 * consumed compute units are unknown: a sum with an unknown term is unknown (docs/semantics.md).
 */
function forgetUnknownConsumed(blocks: ManyBlockColumns, known: Uint8Array, records: BlockFeeStats[]): void {
  for (let b = 0; b < records.length; b++) {
    for (let i = blocks.offsets[b]!; i < blocks.offsets[b + 1]!; i++) {
      if (known[i] || blocks.isVote[i]) continue;
      records[b]!.total_compute_units = null;
      records[b]!.cu_utilization_pct = null;
      break;
    }
  }
}

let shared: FeeKernels | undefined;

/** `FeeKernels.sampleStats` on this thread's shared instance (created on first use). */
export function sampleStats(samples: FeeSamples): SampleStats {
  return (shared ??= createFeeKernels()).sampleStats(samples);
}

/** `FeeKernels.blockFeeStats` on this thread's shared instance (created on first use). */
export function blockFeeStats(block: BlockColumns): BlockFeeStats {
  return (shared ??= createFeeKernels()).blockFeeStats(block);
}

/** `FeeKernels.blockFeeStatsMany` on this thread's shared instance (created on first use). */
export function blockFeeStatsMany(blocks: ManyBlockColumns): BlockFeeStats[] {
  return (shared ??= createFeeKernels()).blockFeeStatsMany(blocks);
}
