/**
 * The answers every end-to-end subject computes from the same dump, in one shape, and their
 * comparison. (a) BlockFees of every block, (b) 1m WindowFees, (c) 1m candles of every pair,
 * (d) the 1m recommendation at the newest block, (e) 5m volume and VWAP of the 10 most active pairs
 * (most trades in the dump; ties by base, then quote), each pair's newest data point.
 *
 * Rows hold wire values (DESIGN.md 4): chainlens' records as its engine answers them; the peers
 * give integers as decimal strings, floats as numbers, times as ISO strings, and are compared field
 * by field with the record schemas: integers, times and booleans exactly, floats within a relative
 * 1e-9 (f64: sums in another order) or 2e-6 (f32 on the wire).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { peakRssMiB } from '../child.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { BlockFees, Candle, POSITION_AT_FEE, Recommendation, STAT_SUFFIXES, suffixMillis, Volume, Vwap, WindowFees, type RecordSchema } from '../../src/schema/records.js';

/** One answer row: field name to wire value. */
export type Row = Record<string, string | number | boolean | null>;

/** A peer's value as a wire value: integers as decimal strings, floats as numbers. */
export function wire(value: unknown): Row[string] {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return String(value);
}

/** Integer nanoseconds (a bigint or its decimal string) as a wire timestamp. */
export const iso = (ns: unknown): string => encodeTimestamp(BigInt(ns as bigint | string));

/** A peer's row with every value as a wire value. */
export const plain = (r: Record<string, unknown>): Row => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, wire(v)]));

/** Answer (a) for one block from a peer's fee statistics of its slot (last_time: the block time). */
export const blockFeesRow = (r: Record<string, unknown>): Row => ({ ...plain(r), timestamp: iso(r.last_time) });

/** Answer (b) for one window from a peer's fee statistics of its 1m window (window_start, last_time in ns). */
export const windowFeesRow = (r: Record<string, unknown>): Row => ({
  ...plain(r), window_start: iso(r.window_start), window_end: iso(BigInt(r.window_start as bigint | string) + MINUTE_NS), timestamp: iso(r.last_time),
  window_duration: 'PT1M', data_points: wire(r.tx_count), is_valid: Number(r.tx_count) >= MIN_SAMPLES,
});

/** Answer (c) for one candle from a peer's 1m aggregates of a pair (ws: the window start in ns). */
export function candleRow({ ws, ...rest }: Record<string, unknown>): Row {
  return { ...plain(rest), timestamp: iso(ws), window_duration: 'PT1M', window_start: iso(ws), window_end: iso(BigInt(ws as bigint | string) + MINUTE_NS) };
}

/**
 * Answer (e) for one pair from a peer's 5m aggregates (t: the newest block time of the dump; sums,
 * swap counts, the last price and slot): the Volume fields, then the Vwap fields prefixed `vwap.`.
 */
export function topPairRow(r: Record<string, unknown>): Row {
  const end = BigInt(r.t as bigint | string) + 1n;
  const bounds = { timestamp: iso(r.t), window_duration: 'PT5M', window_start: iso(end - TOP_WINDOW_NS), window_end: iso(end) };
  const volume: Row = {
    base: wire(r.base), quote: wire(r.quote), ...bounds, base_volume: wire(r.base_volume), quote_volume: wire(r.quote_volume),
    buy_volume: wire(r.buy_volume), sell_volume: wire(r.sell_volume), total_volume: wire(r.base_volume),
    buy_swaps: wire(r.buy_swaps), sell_swaps: wire(r.sell_swaps), total_swaps: wire(r.total_swaps), data_points: wire(r.total_swaps), duration: 'PT5M',
  };
  const vwap: Row = {
    base: wire(r.base), quote: wire(r.quote), ...bounds, slot: wire(r.slot), vwap: Number(r.quote_volume) / Number(r.base_volume),
    current_price: wire(r.current_price), cumulative_price_volume: wire(r.quote_volume), total_volume: wire(r.base_volume), data_points: wire(r.total_swaps),
  };
  return { ...volume, ...Object.fromEntries(Object.entries(vwap).map(([k, v]) => [`vwap.${k}`, v])) };
}

/** The five answers of a subject. */
export interface Answers {
  blocks: Row[];
  windows: Row[];
  candles: Row[];
  recommendation: Row[];
  /** One row per pair: the Volume fields, then the Vwap fields prefixed `vwap.`. */
  top: Row[];
}

/** What a subject process reports beside its answers. */
export interface SubjectRun {
  /** From the process start (Node's own start-up included) to the last answer, ms. */
  wall_ms: number;
  /** User + system CPU of the process to the last answer, all threads, ms. */
  cpu_ms: number;
  peak_rss_mib: number;
  /** Steps within the run (load, queries), ms. */
  steps: Record<string, number>;
}

/** The 1m windows, in ns. */
export const MINUTE_NS = 60_000_000_000n;
/** (e): the pairs and the window. */
export const TOP_PAIRS = 10;
export const TOP_WINDOW_NS = 5n * MINUTE_NS;
/** minSamples of the engine (is_valid). */
export const MIN_SAMPLES = 100;
/** Block fill at or above which a block is saturated, and the CU cap of a recommendation. */
export const SATURATED_FILL_PCT = 90;
export const MAX_CU_LIMIT = 1_400_000;

/** The percentile suffixes with their rank in thousandths of a percent (mean has none). */
export const PERCENTILE_SUFFIXES = STAT_SUFFIXES.flatMap((s) => {
  const millis = suffixMillis(s);
  return millis === undefined ? [] : [[s, millis] as const];
});
export { POSITION_AT_FEE };

/** Fields a peer does not compute (the USD prices need the outlier-trimmed block VWAP of each quote), and record ids. */
const NOT_COMPARED = new Set(['id', 'open_usd', 'high_usd', 'low_usd', 'close_usd', 'volume_usd', 'buy_volume_usd', 'sell_volume_usd',
  'total_volume_usd', 'vwap_usd', 'current_price_usd', 'cumulative_price_volume_usd', 'buy_sell_ratio']);

const SCHEMAS: Record<keyof Answers, RecordSchema[]> = {
  blocks: [BlockFees], windows: [WindowFees], candles: [Candle], recommendation: [Recommendation], top: [Volume, Vwap],
};

/** The key of a row in its answer. */
export function rowKey(answer: keyof Answers, row: Row): string {
  switch (answer) {
    case 'blocks': return String(row.slot);
    case 'windows': return String(row.window_start);
    case 'candles': return `${row.base}/${row.quote}/${row.window_start}`;
    case 'recommendation': return String(row.timestamp);
    case 'top': return `${row.base}/${row.quote}`;
  }
}

function close(a: number, b: number, relative: number): boolean {
  return Math.abs(a - b) <= relative * Math.max(Math.abs(a), Math.abs(b)) + 1e-12;
}

function sameValue(type: string, mine: Row[string], theirs: Row[string]): boolean {
  if (mine === null || theirs === null || mine === undefined || theirs === undefined) return (mine ?? null) === (theirs ?? null);
  if (type === 'Float8') return close(Number(mine), Number(theirs), 1e-9);
  if (type === 'Float4') return close(Number(mine), Number(theirs), 2e-6);
  return String(mine) === String(theirs);
}

/** The fields of an answer's rows and their wire types (`vwap.` prefix for the second schema of `top`). */
function fieldsOf(answer: keyof Answers): [string, string][] {
  const [first, second] = SCHEMAS[answer];
  const fields: [string, string][] = first!.fields.map(([name, type]) => [name, type]);
  if (second) for (const [name, type] of second.fields) fields.push([`vwap.${name}`, type]);
  return fields.filter(([name]) => !NOT_COMPARED.has(name.replace('vwap.', '')));
}

/**
 * Compares `theirs` with chainlens' answers: the same keys, and every compared field equal. Returns
 * the number of values compared; throws naming the first difference.
 */
export function compareAnswers(mine: Answers, theirs: Answers, who: string): number {
  let compared = 0;
  for (const answer of Object.keys(SCHEMAS) as (keyof Answers)[]) {
    const fields = fieldsOf(answer);
    const byKey = new Map(theirs[answer].map((row) => [rowKey(answer, row), row]));
    if (byKey.size !== mine[answer].length) {
      throw new Error(`e2e: ${who} has ${byKey.size} rows of ${answer}, chainlens ${mine[answer].length}`);
    }
    for (const row of mine[answer]) {
      const key = rowKey(answer, row);
      const other = byKey.get(key);
      if (!other) throw new Error(`e2e: ${who} has no ${answer} row ${key}`);
      for (const [name, type] of fields) {
        if (!(name in other)) throw new Error(`e2e: ${who}'s ${answer} rows lack ${name}`);
        if (!sameValue(type, row[name]!, other[name]!)) {
          throw new Error(`e2e: ${answer} ${key} ${name}: chainlens ${row[name]}, ${who} ${other[name]}`);
        }
        compared++;
      }
    }
  }
  return compared;
}

/** Writes a subject's answers (after its measurement). */
export async function writeAnswers(file: string, answers: Answers): Promise<void> {
  await writeFile(file, JSON.stringify(answers, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
}

/** Reads a subject's answers. */
export async function readAnswers(file: string): Promise<Answers> {
  return JSON.parse(await readFile(file, 'utf8')) as Answers;
}

/** This process's figures at the last answer. */
export function subjectRun(steps: Record<string, number>): SubjectRun {
  const usage = process.resourceUsage();
  return {
    wall_ms: process.uptime() * 1000,
    cpu_ms: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    peak_rss_mib: peakRssMiB(),
    steps,
  };
}

/** The 10 most active pairs from 1m candles (their data_points summed), most trades first; ties by base, then quote. */
export function mostActive(candles: readonly Row[]): { base: string; quote: string }[] {
  const trades = new Map<string, number>();
  for (const c of candles) {
    const key = `${c.base}/${c.quote}`;
    trades.set(key, (trades.get(key) ?? 0) + Number(c.data_points));
  }
  return [...trades]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, TOP_PAIRS)
    .map(([key]) => {
      const [base, quote] = key.split('/');
      return { base: base!, quote: quote! };
    });
}
