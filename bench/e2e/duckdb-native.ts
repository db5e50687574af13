/**
 * The native DuckDB subject of the end-to-end figures (@duckdb/node-api, in memory, its default
 * threads): the dump's Parquet files read once into tables (the columns the answers need), then
 * SQL for each answer. Percentiles are nearest-rank (DESIGN.md 6), written out as the rank
 * ceil(p x n / 100) of the sorted list in integer arithmetic: DuckDB's quantile_disc picks another rank.
 *
 * `node duckdb-native.js --child <folder> <answers.json> [first]`.
 */
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { TIERS } from '../../src/schema/records.js';
import { childArgs, isChildOf, printResult } from '../child.js';
import {
  MAX_CU_LIMIT, MIN_SAMPLES, MINUTE_NS, PERCENTILE_SUFFIXES, POSITION_AT_FEE, SATURATED_FILL_PCT, TOP_PAIRS, TOP_WINDOW_NS,
  blockFeesRow, candleRow, iso, plain, subjectRun, topPairRow, windowFeesRow, writeAnswers, type Answers, type Row,
} from './answers.js';

const PAYING = '(WHERE NOT is_vote AND price > 0)';
/** 1-based index of the nearest-rank percentile `millis` (thousandths of a percent) in a sorted list of `n`. */
const rank = (millis: number, n: string) => `greatest(1, (${millis} * ${n} + 99999) // 100000)`;

/** Fee statistics of the fee-paying transactions of `x` grouped by `key` (slot or window_start). */
function feeStatsSql(key: string): string {
  const families = [['price', 'price'], ['fee', 'fee'], ['limit', 'cu_limit'], ['position', 'pos']] as const;
  const lists = families.map(([name, column]) => `list_sort(list(${column}) FILTER ${PAYING}) AS ${name}_l`).join(', ');
  const sums = families.slice(0, 3).map(([name, column]) => `sum(${column}) FILTER ${PAYING}::HUGEINT AS ${name}_sum`).join(', ');
  const stats = families.flatMap(([name]) => [
    name === 'position' ? `position_mean` : `CASE WHEN tx_count = 0 THEN NULL ELSE (2 * ${name}_sum + tx_count) // (2 * tx_count) END AS ${name}_mean`,
    ...PERCENTILE_SUFFIXES.map(([suffix, millis]) => `${name}_l[${rank(millis, 'tx_count')}] AS ${name}_${suffix}`),
    `${name}_l[tx_count] - ${name}_l[1] AS ${name}_spread`,
  ]);
  const atFee = POSITION_AT_FEE.map((p) => `list_avg([z[2] FOR z IN list_zip(fee_u, pos_u) IF z[1] >= fee_l[${rank(p * 1000, 'tx_count')}]]) AS position_at_fee_p${p}`);
  return `SELECT ${key}, tx_count, no_priority_tx_count, total_tx_count, total_priority_fees, total_compute_units, total_compute_budget,
    CASE WHEN total_compute_budget = 0 THEN NULL ELSE 100 * total_compute_units::DOUBLE / total_compute_budget::DOUBLE END AS cu_utilization_pct,
    std_dev, last_time, ${stats.join(', ')}, ${atFee.join(', ')}
  FROM (
    SELECT ${key}, max(timestamp) AS last_time, count(*) FILTER ${PAYING} AS tx_count, count(*) FILTER (WHERE NOT is_vote AND price = 0) AS no_priority_tx_count,
      count(*) AS total_tx_count, coalesce(sum(fee) FILTER (WHERE NOT is_vote), 0)::HUGEINT AS total_priority_fees,
      coalesce(sum(consumed) FILTER (WHERE NOT is_vote), 0)::HUGEINT AS total_compute_units, coalesce(sum(cu_limit) FILTER (WHERE NOT is_vote), 0)::HUGEINT AS total_compute_budget,
      stddev_pop(price) FILTER ${PAYING} AS std_dev, avg(pos) FILTER ${PAYING} AS position_mean,
      ${lists}, ${sums}, list(fee) FILTER ${PAYING} AS fee_u, list(pos) FILTER ${PAYING} AS pos_u
    FROM x GROUP BY ${key})
  ORDER BY ${key}`;
}

const LOAD = (folder: string) => {
  const file = (table: string) => `read_parquet('${path.join(folder, `${table}.parquet`)}')`;
  return [
    `CREATE TABLE blocks AS SELECT slot, timestamp, coalesce(block_cu_limit, 60000000) AS block_cu_limit FROM ${file('blocks')}`,
    `CREATE TABLE tx AS SELECT slot, index AS idx, is_vote, compute_unit_price AS price, priority_fee AS fee, compute_unit_limit AS cu_limit,
       compute_units_consumed AS consumed FROM ${file('transactions')}`,
    `CREATE TABLE trades AS SELECT slot, tx_index, fill_index, timestamp, base, quote, is_buy,
       base_amount / pow(10, base_decimals) AS base_volume, quote_amount / pow(10, quote_decimals) AS quote_volume,
       (quote_amount / pow(10, quote_decimals)) / (base_amount / pow(10, base_decimals)) AS price FROM ${file('trades')}`,
    `CREATE TABLE x AS SELECT tx.*, b.timestamp, (b.timestamp // ${MINUTE_NS}) * ${MINUTE_NS} AS window_start,
       CASE WHEN n.n = 1 THEN 0.0 ELSE tx.idx / (n.n - 1) END AS pos
     FROM tx JOIN (SELECT slot, count(*) AS n FROM tx GROUP BY slot) n USING (slot) JOIN blocks b USING (slot)`,
  ];
};

type Rows = Record<string, unknown>[];
const rows = async (c: DuckDBConnection, sql: string): Promise<Rows> => (await c.runAndReadAll(sql)).getRowObjects() as Rows;


async function recommendation(c: DuckDBConnection): Promise<Row> {
  const window = `(SELECT slot, block_cu_limit FROM blocks WHERE timestamp > (SELECT max(timestamp) FROM blocks) - ${MINUTE_NS})`;
  const [r] = await rows(c, `WITH w AS (SELECT x.*, wb.block_cu_limit FROM x JOIN ${window} wb USING (slot)),
    per_block AS (SELECT slot, 100 * sum(consumed)::DOUBLE / any_value(block_cu_limit)::DOUBLE AS fill, min(price) FILTER ${PAYING} AS block_min,
      list_sort(list(price) FILTER ${PAYING}) AS pl FROM w GROUP BY slot),
    medians AS (SELECT pl[${rank(50_000, 'len(pl)')}]::DOUBLE AS m FROM per_block WHERE pl IS NOT NULL),
    agg AS (SELECT max(timestamp) AS t, count(*) FILTER ${PAYING} AS tx_count, count(*) FILTER (WHERE NOT is_vote AND price = 0) AS no_priority_tx_count,
      count(*) AS total_tx_count, list_sort(list(price) FILTER ${PAYING}) AS prices, list_sort(list(consumed) FILTER ${PAYING}) AS cons,
      list(price) FILTER ${PAYING} AS pu, list(pos) FILTER ${PAYING} AS posu,
      sum(consumed) FILTER (WHERE NOT is_vote)::DOUBLE / count(*) FILTER (WHERE NOT is_vote) AS avg_cu_per_tx FROM w),
    tiers AS (SELECT *, least((11 * cons[${rank(50_000, 'tx_count')}] + 9) // 10, ${MAX_CU_LIMIT}) AS cu_limit,
      ${TIERS.map(([tier, p]) => `prices[${rank(p * 1000, 'tx_count')}] AS ${tier}_price`).join(', ')} FROM agg)
    SELECT t, tx_count, no_priority_tx_count, total_tx_count, tx_count AS data_points, avg_cu_per_tx,
      ${TIERS.map(([tier]) => `${tier}_price, (${tier}_price * cu_limit + 999999) // 1000000 AS ${tier}_fee, cu_limit AS ${tier}_cu_limit,
        100 * list_avg([z[2] FOR z IN list_zip(pu, posu) IF z[1] >= ${tier}_price]) AS ${tier}_landing_rank_pct,
        100 * (SELECT count(*) FROM per_block WHERE block_min <= ${tier}_price)::DOUBLE / (SELECT count(*) FROM per_block WHERE block_min IS NOT NULL) AS ${tier}_landing_inclusion_pct`).join(', ')},
      (SELECT list_sort(list(fill))[${rank(50_000, 'count(*)')}] FROM per_block) AS median_block_fill_pct,
      (SELECT 100 * count(*) FILTER (WHERE fill >= ${SATURATED_FILL_PCT})::DOUBLE / count(*) FROM per_block) AS saturated_block_share_pct,
      (SELECT CASE WHEN avg(m) = 0 THEN 0 ELSE stddev_pop(m) / avg(m) END FROM medians) AS fee_volatility
    FROM tiers`);
  const row = plain(r!);
  const end = BigInt(r!.t as bigint) + 1n;
  delete row.t;
  return {
    ...row, timestamp: iso(r!.t), window_duration: 'PT1M', window_start: iso(end - MINUTE_NS), window_end: iso(end),
    is_valid: Number(r!.tx_count) >= MIN_SAMPLES,
  };
}

async function answers(c: DuckDBConnection): Promise<Answers> {
  const blocks = (await rows(c, feeStatsSql('slot'))).map(blockFeesRow);
  const windows = (await rows(c, feeStatsSql('window_start'))).map(windowFeesRow);
  const candles = (await rows(c, `SELECT base, quote, (timestamp // ${MINUTE_NS}) * ${MINUTE_NS} AS ws,
      first(price ORDER BY slot, tx_index, fill_index) AS open, max(price) AS high, min(price) AS low,
      last(price ORDER BY slot, tx_index, fill_index) AS close, sum(base_volume) AS base_volume, sum(quote_volume) AS quote_volume, count(*) AS data_points
    FROM trades GROUP BY ALL`)).map(candleRow);
  const reco = await recommendation(c);
  const top = (await rows(c, `WITH active AS (SELECT base, quote, count(*) AS n, max(timestamp) AS t FROM trades GROUP BY ALL
      ORDER BY n DESC, base, quote LIMIT ${TOP_PAIRS})
    SELECT base, quote, any_value(a.t) AS t, sum(base_volume) AS base_volume, sum(quote_volume) AS quote_volume,
      coalesce(sum(base_volume) FILTER (WHERE is_buy), 0) AS buy_volume, coalesce(sum(base_volume) FILTER (WHERE NOT is_buy), 0) AS sell_volume,
      count(*) FILTER (WHERE is_buy) AS buy_swaps, count(*) FILTER (WHERE NOT is_buy) AS sell_swaps, count(*) AS total_swaps,
      last(price ORDER BY slot, tx_index, fill_index) AS current_price, max(slot) AS slot
    FROM trades JOIN active a USING (base, quote) WHERE timestamp > a.t - ${TOP_WINDOW_NS} GROUP BY base, quote`)).map(topPairRow);
  return { blocks, windows, candles, recommendation: [reco], top };
}

async function run(folder: string, out: string, firstOnly: boolean): Promise<void> {
  const steps: Record<string, number> = {};
  const started = process.hrtime.bigint();
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  for (const sql of LOAD(folder)) await c.run(sql);
  steps.load_ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (firstOnly) {
    await recommendation(c);
    printResult(subjectRun(steps));
  } else {
    const result = await answers(c);
    const run = subjectRun(steps);
    await writeAnswers(out, result);
    printResult(run);
  }
  c.closeSync();
  instance.closeSync();
}

if (isChildOf(import.meta.url)) {
  const [folder, out, mode] = childArgs();
  await run(folder!, out!, mode === 'first');
  process.exit(0);
}
