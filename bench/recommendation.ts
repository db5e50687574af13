/**
 * chain::priorityfee::recommendation over a 15m window, limit 1000: what it takes to make the
 * newest 1,000 points (one per block, each over the trailing 15 minutes, about 900,000 fee-paying
 * prices) from the blocks' transactions, by
 * - chainlens: the recommendation engine at ingest with every window live (as when all seven are
 *   streamed; src/priorityfee/recommendations.ts), which slides exact order statistics block by block; timed: one chunk of the 1,000 newest blocks after the
 *   15 minutes before them were fed untimed. It makes the points of all seven windows (1s ... 15m)
 *   with every field, and their Arrow IPC records, in that time;
 * - DuckDB-WASM and native DuckDB: a range join of the points' ends with the fee-paying transactions,
 *   quantile_disc of the six tier prices, the median compute units and the counts per point;
 * - plain TypeScript: the same per point, recomputed from the window's samples by radix select.
 * The baselines compute fewer fields (no landing rank or inclusion, fills, volatility) and only the
 * 15m window; they are measured on the newest 50 points (each as heavy as any other: a full 15m
 * window), compared per point.
 */
import { RecommendationsEngine } from '../src/priorityfee/recommendations.js';
import type { ChunkView } from '../src/ingest/pipeline.js';
import { DEFAULT_SETTINGS } from '../src/methods/context.js';
import { TIERS, type RecommendationRecord } from '../src/schema/records.js';
import { RECO_WINDOWS } from '../src/schema/time.js';
import type { StreamDemand } from '../src/stream/updates.js';
import type { Store } from '../src/store/store.js';
import { chunkOf, feeBlocks, FEE_ROW_BYTES, type FeeBlocks } from './data.js';
import { splitVotes } from '../src/ingest/fee-columns.js';
import { measure, speedup, type Figure } from './harness.js';
import { repeats, type BenchOptions } from './options.js';
import { createPlainPercentiles } from './plain-percentiles.js';
import { fractionList, openSqlBaselines, type SqlBaselines } from './sql.js';

const WINDOW_NS = 15n * 60_000_000_000n;
const TIER_MILLIS = Uint32Array.from(TIERS.map(([, p]) => p * 1000));
const MEDIAN = Uint32Array.of(50_000);
/** Blocks fed per untimed warm-up chunk. */
const WARM_CHUNK = 250;

function chunkView(data: FeeBlocks, from: number, to: number): ChunkView {
  const blocks = [];
  for (let b = from; b < to; b++) blocks.push({ slot: data.slots[b]!, timestamp: data.times[b]!, cuLimit: null });
  return { blocks, feeColumns: splitVotes(chunkOf(data, from, to)).fees };
}

/** Every window streamed: each is live from the first block, as when all seven are subscribed. */
const ALL_WINDOWS: StreamDemand = { has: () => true, windows: () => new Set(RECO_WINDOWS) };

/** A recommendation engine with every window live, fed blocks [0, upTo) untimed (no store: nothing is read back). */
async function warmEngine(data: FeeBlocks, upTo: number): Promise<RecommendationsEngine> {
  const engine = new RecommendationsEngine(DEFAULT_SETTINGS, () => undefined, (task) => Promise.resolve(task()), ALL_WINDOWS);
  for (let b = 0; b < upTo; b += WARM_CHUNK) (await engine.prepare(chunkView(data, b, Math.min(upTo, b + WARM_CHUNK)))).apply();
  return engine;
}

/** One point of the baselines: tier prices, median compute units of fee-paying transactions, counts. */
interface Point {
  tiers: bigint[];
  medianConsumed: bigint;
  txCount: number;
  noPriority: number;
  total: number;
}

/** Per-block fee-paying samples and counts, made once (untimed) for the plain baseline. */
interface BlockSamples {
  prices: BigUint64Array[];
  consumed: BigUint64Array[];
  noPriority: number[];
  total: number[];
}

function blockSamples(data: FeeBlocks): BlockSamples {
  const out: BlockSamples = { prices: [], consumed: [], noPriority: [], total: [] };
  for (let b = 0; b < data.blocks; b++) {
    const prices: bigint[] = [];
    const consumed: bigint[] = [];
    let free = 0;
    for (let i = data.offsets[b]!; i < data.offsets[b + 1]!; i++) {
      if (data.isVote[i]) continue;
      if (data.computeUnitPrice[i] === 0n) free++;
      else {
        prices.push(data.computeUnitPrice[i]!);
        consumed.push(data.computeUnitsConsumed[i]!);
      }
    }
    out.prices.push(BigUint64Array.from(prices));
    out.consumed.push(BigUint64Array.from(consumed));
    out.noPriority.push(free);
    out.total.push(data.offsets[b + 1]! - data.offsets[b]!);
  }
  return out;
}

/** The plain baseline: each of the points ending at blocks [from, to), recomputed from its window's samples. */
function plainPoints(data: FeeBlocks, samples: BlockSamples, from: number, to: number): Point[] {
  const select = createPlainPercentiles();
  let prices = new BigUint64Array(0);
  let consumed = new BigUint64Array(0);
  const points: Point[] = [];
  for (let b = from; b < to; b++) {
    const start = data.times[b]! + 1n - WINDOW_NS;
    let first = b;
    while (first > 0 && data.times[first - 1]! >= start) first--;
    let n = 0;
    for (let k = first; k <= b; k++) n += samples.prices[k]!.length;
    if (prices.length < n) {
      prices = new BigUint64Array(n);
      consumed = new BigUint64Array(n);
    }
    let at = 0, noPriority = 0, total = 0;
    for (let k = first; k <= b; k++) {
      prices.set(samples.prices[k]!, at);
      consumed.set(samples.consumed[k]!, at);
      at += samples.prices[k]!.length;
      noPriority += samples.noPriority[k]!;
      total += samples.total[k]!;
    }
    points.push({
      tiers: [...select(prices.subarray(0, n), TIER_MILLIS)],
      medianConsumed: select(consumed.subarray(0, n), MEDIAN)[0]!,
      txCount: n, noPriority, total,
    });
  }
  return points;
}

/** The SQL of the points ending at the `points` newest blocks, over table `reco_txs`. */
function recommendationSql(points: number): string {
  return `WITH f AS (SELECT "time", price, consumed FROM reco_txs WHERE is_vote = 0 AND price > 0),
  ends AS (SELECT DISTINCT "time" + 1 AS e FROM reco_txs ORDER BY e DESC LIMIT ${points}),
  fee AS (
    SELECT e, quantile_disc(price, ${fractionList([...TIER_MILLIS])}) AS tiers, quantile_disc(consumed, 0.5) AS median_consumed, count(*) AS tx_count
    FROM ends JOIN f ON f."time" >= e - ${WINDOW_NS} AND f."time" < e GROUP BY e),
  blocks AS (
    SELECT "time", count(*) FILTER (WHERE is_vote = 0 AND price = 0) AS no_priority, count(*) AS total FROM reco_txs GROUP BY "time"),
  counts AS (
    SELECT e, sum(no_priority) AS no_priority, sum(total) AS total
    FROM ends JOIN blocks ON blocks."time" >= e - ${WINDOW_NS} AND blocks."time" < e GROUP BY e)
  SELECT * FROM fee JOIN counts USING (e) ORDER BY e DESC`;
}

/** Cross-check on the sampled newest points: min, medium and max tier prices and counts equal in every subject. */
async function check(sql: SqlBaselines, chainlens: RecommendationRecord[], plain: Point[], sampled: number): Promise<string> {
  const mine = chainlens.slice(0, sampled); // newest first
  const theirs = [...plain].reverse();
  const sum = (values: (bigint | number | null)[]) => values.reduce<bigint>((s, v) => s + BigInt(v ?? 0), 0n);
  const want = [sum(mine.map((r) => r.min_price)), sum(mine.map((r) => r.medium_price)), sum(mine.map((r) => r.max_price)), sum(mine.map((r) => r.tx_count)), sum(mine.map((r) => r.total_tx_count))];
  const plainSums = [sum(theirs.map((p) => p.tiers[0]!)), sum(theirs.map((p) => p.tiers[2]!)), sum(theirs.map((p) => p.tiers[5]!)), sum(theirs.map((p) => p.txCount)), sum(theirs.map((p) => p.total))];
  if (plainSums.some((v, i) => v !== want[i])) throw new Error(`recommendation: plain TypeScript disagrees (${plainSums} vs ${want})`);
  const query = `SELECT sum(tiers[1])::HUGEINT AS lo, sum(tiers[3])::HUGEINT AS mid, sum(tiers[6])::HUGEINT AS hi, sum(tx_count)::HUGEINT AS n, sum(total)::HUGEINT AS total FROM (${recommendationSql(sampled)})`;
  for (const [name, rows] of [['DuckDB-WASM', await sql.wasmRows(query)], ['native DuckDB', await sql.nativeRows(query)]] as const) {
    const r = rows[0]!;
    const got = [r.lo, r.mid, r.hi, r.n, r.total].map((v) => BigInt(v as bigint));
    if (got.some((v, i) => v !== want[i])) throw new Error(`recommendation: ${name} disagrees (${got} vs ${want})`);
  }
  return `on the ${sampled} newest points: min, medium (p50) and max tier prices, fee-paying and total counts equal in all four subjects`;
}

/** The recommendation figure: 1,000 points of the 15m window (20 points over a short history in quick mode). */
export async function recommendationFigures(options: BenchOptions): Promise<Figure[]> {
  const points = options.quick ? 20 : 1_000;
  const history = options.quick ? 100 : 2_250; // 2,250 blocks span more than 15 minutes (400 ms slots, some skipped)
  const sampled = options.quick ? 5 : 50;
  const data = feeBlocks(history + points, 1500, 17);
  const from = history;
  const to = history + points;
  const sql = await openSqlBaselines();
  try {
    const time = new BigInt64Array(data.rows);
    for (let b = 0; b < data.blocks; b++) time.fill(data.times[b]!, data.offsets[b]!, data.offsets[b + 1]!);
    await sql.load('reco_txs', { time, is_vote: data.isVote, price: data.computeUnitPrice, consumed: data.computeUnitsConsumed });
    const samples = blockSamples(data);

    const checkEngine = await warmEngine(data, from);
    (await checkEngine.prepare(chunkView(data, from, to))).apply();
    const made = await checkEngine.recommendations({} as Store, '15m', points);
    const checked = await check(sql, made, plainPoints(data, samples, to - sampled, to), sampled);

    let engine: RecommendationsEngine | undefined;
    const query = recommendationSql(sampled);
    const subjects = await measure([
      {
        id: 'chainlens',
        label: 'chainlens (sliding order statistics, all 7 windows)',
        before: async () => {
          engine = await warmEngine(data, from);
        },
        run: async () => {
          (await engine!.prepare(chunkView(data, from, to))).apply();
        },
      },
      { id: 'duckdb-wasm', run: () => sql.wasmQuery(query), count: sampled, note: `measured on the ${sampled} newest points` },
      { id: 'duckdb-native', run: () => sql.nativeQuery(query), count: sampled, note: `measured on the ${sampled} newest points; ${sql.nativeThreads} threads` },
      { id: 'plain-ts', label: 'plain TypeScript (recomputed per point, radix select)', run: () => plainPoints(data, samples, to - sampled, to), count: sampled, note: `measured on the ${sampled} newest points` },
    ], points, repeats(options, true));
    const perPoint = Math.round(data.rows / data.blocks);
    return [{
      id: 'recommendation.15m-limit-1000',
      family: 'recommendation',
      title: 'Recommendation, 15m window, limit 1000',
      size: `${points} points (one per block) over trailing 15-minute windows; ${data.blocks} blocks of about ${perPoint} transactions`,
      work: { unit: 'points', count: points, bytes: (data.offsets[to]! - data.offsets[from]!) * FEE_ROW_BYTES },
      subjects,
      skipped: [],
      targets: [speedup(subjects, 'plain-ts', 2)],
      checked,
      notes: [
        'chainlens makes each point as its block arrives, for all seven windows and every field, records encoded; the baselines recompute the 15m window\'s six tier prices, median compute units and counts only, so the comparison favours them.',
        `The baselines are measured on the ${sampled} newest points and compared per point (every point covers a full 15-minute window, so a point costs the same anywhere in the 1,000).`,
        'chainlens\' recommendation path is itself TypeScript (an order-statistics multiset that slides), not WebAssembly: the plain baseline differs in algorithm (recompute per point), not in language.',
        'Bytes: the 1,000 new blocks\' transaction columns (what the incremental path reads); the per-point recomputation reads the whole window each time.',
      ],
    }];
  } finally {
    await sql.close();
  }
}
