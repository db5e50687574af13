/**
 * Windowed percentiles: the 29 percentiles of chain::priorityfee::fee (min, median, max, p5 ...
 * p99_999) of compute-unit prices per 1-minute tumbling window, over 10^6 and 10^7 samples, by
 * - chainlens: the percentile kernel (radix select in WebAssembly) once per window;
 * - DuckDB-WASM and native DuckDB: quantile_disc(price, [...]) GROUP BY the integer minute;
 * - plain TypeScript: the same radix select as ordinary code, and the sort-and-index test oracle.
 */
import { STAT_SUFFIXES, suffixMillis } from '../src/schema/records.js';
import { createKernels } from '../src/kernels/instance.js';
import { percentilesU64Reference } from '../src/kernels/reference.js';
import { MINUTE_NS, priceSamples, windowOffsets, type PriceSamples } from './data.js';
import { measure, speedup, type Figure, type SubjectResult } from './harness.js';
import { repeats, type BenchOptions } from './options.js';
import { createPlainPercentiles } from './plain-percentiles.js';
import { fractionList, openSqlBaselines, type SqlBaselines } from './sql.js';

/** The fee window's percentiles in thousandths of a percent (every suffix but the mean). */
export const FEE_MILLIS = Uint32Array.from(STAT_SUFFIXES.flatMap((s) => {
  const m = suffixMillis(s);
  return m === undefined ? [] : [m];
}));

type Percentiles = (values: BigUint64Array, millis: Uint32Array) => BigUint64Array;

/** Percentiles of every window, concatenated. */
function perWindow(data: PriceSamples, offsets: readonly number[], percentiles: Percentiles): BigUint64Array[] {
  const out: BigUint64Array[] = [];
  for (let w = 0; w + 1 < offsets.length; w++) out.push(percentiles(data.price.subarray(offsets[w]!, offsets[w + 1]!), FEE_MILLIS));
  return out;
}

const sqlOf = (table: string) =>
  `SELECT "time" // ${MINUTE_NS} AS w, quantile_disc(price, ${fractionList([...FEE_MILLIS])}) AS q FROM ${table} GROUP BY w`;

/** Cross-check: window count, and the sums over windows of min, median and max agree in all subjects. */
async function check(sql: SqlBaselines, table: string, answers: BigUint64Array[][]): Promise<string> {
  const [first, ...others] = answers;
  for (const other of others) {
    if (other.length !== first!.length || other.some((w, i) => w.some((v, j) => v !== first![i]![j]))) {
      throw new Error('percentiles: the chainlens kernel and the plain TypeScript baselines disagree');
    }
  }
  const slot = (m: number) => FEE_MILLIS.indexOf(m);
  const sums = [0, 50_000, 100_000].map((m) => first!.reduce((s, w) => s + w[slot(m)]!, 0n));
  const query = `SELECT count(*) AS windows, sum(lo)::HUGEINT AS lo, sum(mid)::HUGEINT AS mid, sum(hi)::HUGEINT AS hi FROM (
    SELECT quantile_disc(price, 0.0) AS lo, quantile_disc(price, 0.5) AS mid, quantile_disc(price, 1.0) AS hi
    FROM ${table} GROUP BY "time" // ${MINUTE_NS})`;
  for (const [name, rows] of [['DuckDB-WASM', await sql.wasmRows(query)], ['native DuckDB', await sql.nativeRows(query)]] as const) {
    const row = rows[0]!;
    const got = [row.lo, row.mid, row.hi].map((v) => BigInt(v as bigint));
    if (Number(row.windows) !== first!.length || got.some((v, i) => v !== sums[i])) {
      throw new Error(`percentiles: ${name} disagrees (${JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v))} vs ${first!.length} ${sums})`);
    }
  }
  return 'all 29 percentiles of every window equal between the kernel and both plain-TS baselines; window count and per-window min, median and max equal in both DuckDBs';
}

/** One size of the windowed-percentile figure. */
async function figureAt(options: BenchOptions, sql: SqlBaselines, n: number): Promise<Figure> {
  const data = priceSamples(n);
  const { offsets } = windowOffsets(data.time, MINUTE_NS);
  const windows = offsets.length - 1;
  const table = 'samples';
  await sql.load(table, { time: data.time, price: data.price });
  const kernels = createKernels(Math.max(...offsets.slice(1).map((o, i) => o - offsets[i]!)));
  const plain = createPlainPercentiles();
  // Bounds are found by binary search on the sorted times inside each timed run, like an engine's window state would.
  const bounds = () => windowOffsets(data.time, MINUTE_NS).offsets;
  const answers = [
    perWindow(data, offsets, kernels.percentilesU64.bind(kernels)),
    perWindow(data, offsets, plain),
    perWindow(data, offsets, percentilesU64Reference),
  ];
  const checked = await check(sql, table, answers);
  const query = sqlOf(table);
  const slow = n >= 5_000_000;
  const subjects: SubjectResult[] = await measure([
    { id: 'chainlens', run: () => perWindow(data, bounds(), kernels.percentilesU64.bind(kernels)) },
    { id: 'duckdb-wasm', run: () => sql.wasmQuery(query) },
    { id: 'duckdb-native', run: () => sql.nativeQuery(query), note: `${sql.nativeThreads} threads` },
    { id: 'plain-ts', label: 'plain TypeScript (radix select)', run: () => perWindow(data, bounds(), plain) },
    { id: 'plain-ts-sort', label: 'plain TypeScript (sort and index: the test oracle)', run: () => perWindow(data, bounds(), percentilesU64Reference) },
  ], n, repeats(options, slow));
  await sql.drop(table);
  const fastestPlain = ['plain-ts', 'plain-ts-sort'].map((id) => subjects.find((s) => s.id === id)!).sort((a, b) => a.stats.median_ms - b.stats.median_ms)[0]!;
  const plainTarget = speedup(subjects, fastestPlain.id, 2);
  return {
    id: `percentiles.windowed-${n}`,
    family: 'percentiles',
    title: `Windowed percentiles, ${formatCount(n)} samples`,
    size: `${formatCount(n)} compute-unit prices, ${windows} one-minute windows, 29 percentiles each`,
    work: { unit: 'samples', count: n, bytes: n * 8 },
    subjects,
    skipped: [],
    targets: [speedup(subjects, 'duckdb-wasm', 30), speedup(subjects, 'duckdb-native', 30), plainTarget],
    checked,
    notes: [
      'Samples: the generator\'s fee-paying prices resampled with 5% jitter, 410 per 400 ms slot (about 61,500 a minute).',
      `The plain-TS target is checked against the faster plain version (${fastestPlain.label}).`,
    ],
  };
}

/** Formats 1000000 as 10^6 and other counts with separators. */
export function formatCount(n: number): string {
  const log = Math.log10(n);
  return Number.isInteger(log) ? `10^${log}` : n.toLocaleString('en-US');
}

/** The windowed-percentile figures: 10^6 and 10^7 samples (10^5 in quick mode). */
export async function percentileFigures(options: BenchOptions): Promise<Figure[]> {
  const sql = await openSqlBaselines();
  try {
    const sizes = options.quick ? [100_000] : [1_000_000, 10_000_000];
    const figures: Figure[] = [];
    for (const n of sizes) figures.push(await figureAt(options, sql, n));
    return figures;
  } finally {
    await sql.close();
  }
}
