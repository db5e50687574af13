/**
 * The Polars subject of the end-to-end figures (nodejs-polars: scanParquet and lazy group_by, its
 * default thread pool). Percentiles are nearest-rank (DESIGN.md 6): each group's values sorted once
 * into a list, then the element at rank ceil(p x n / 100), not Polars' own quantile methods.
 *
 * `node polars.js --child <folder> <answers.json> [first]`.
 */
import path from 'node:path';
import pl from 'nodejs-polars';
import { TIERS } from '../../src/schema/records.js';
import { childArgs, isChildOf, printResult } from '../child.js';
import {
  MAX_CU_LIMIT, MIN_SAMPLES, MINUTE_NS, PERCENTILE_SUFFIXES, POSITION_AT_FEE, SATURATED_FILL_PCT, TOP_PAIRS, TOP_WINDOW_NS,
  blockFeesRow, candleRow, iso, plain, subjectRun, topPairRow, wire, windowFeesRow, writeAnswers, type Answers, type Row,
} from './answers.js';

type Lazy = ReturnType<typeof pl.scanParquet>;
type Expr = ReturnType<typeof pl.col>;

/** Integer literals: a plain number is a Float64 literal, and ns times do not fit a double. */
const int = (value: bigint) => pl.lit(Number(value)).cast(pl.Int64);
const MINUTE = () => int(MINUTE_NS);
const col = (name: string) => pl.col(name);
const paying = () => col('is_vote').not().and(col('price').gt(0));
/** 0-based index of the nearest-rank percentile `millis` in a sorted list of `n` (an expression). */
const rank = (millis: number, n: Expr) => n.mul(millis).add(99_999).div(100_000).floor().clip(1, 1e15).sub(1).cast(pl.Int64);
const nth = (list: string, millis: number, n: Expr) => col(list).lst.get(rank(millis, n));

const DIGITS = Array.from({ length: 20 }, (_, d) => d);
/** 10^decimals as an exact f64 (Expr.pow takes a number exponent only). */
const powerOfTen = (decimals: string) => col(decimals).cast(pl.Int32).replaceStrict(DIGITS, DIGITS.map((d) => 10 ** d), undefined, pl.Float64);

function scans(folder: string) {
  const file = (table: string) => path.join(folder, `${table}.parquet`);
  const blocks = pl.scanParquet(file('blocks')).select(col('slot'), col('timestamp'), col('block_cu_limit').fillNull(60_000_000).alias('block_cu_limit'));
  const tx = pl.scanParquet(file('transactions'))
    .select(col('slot'), col('index').alias('idx'), col('is_vote'), col('compute_unit_price').alias('price'), col('priority_fee').alias('fee'),
      col('compute_unit_limit').cast(pl.UInt64).alias('cu_limit'), col('compute_units_consumed').alias('consumed'))
    .withColumns(pl.len().over('slot').alias('n'))
    .withColumns(pl.when(col('n').eq(1)).then(pl.lit(0)).otherwise(col('idx').cast(pl.Float64).div(col('n').sub(1).cast(pl.Float64))).alias('pos'))
    .join(blocks, { on: 'slot' })
    .withColumns(col('timestamp').sub(col('timestamp').modulo(MINUTE())).alias('window_start'));
  const trades = pl.scanParquet(file('trades'))
    .withColumns(
      col('base_amount').cast(pl.Float64).div(powerOfTen('base_decimals')).alias('base_volume'),
      col('quote_amount').cast(pl.Float64).div(powerOfTen('quote_decimals')).alias('quote_volume'),
    )
    .withColumns(col('quote_volume').div(col('base_volume')).alias('price'))
    .sort(['slot', 'tx_index', 'fill_index']);
  return { blocks, tx, trades };
}

/** Fee statistics grouped by `key` (slot or window_start). */
async function feeStats(tx: Lazy, key: string): Promise<Record<string, unknown>[]> {
  const families = [['price', 'price'], ['fee', 'fee'], ['limit', 'cu_limit'], ['position', 'pos']] as const;
  const totals = tx.groupBy(key).agg(
    col('timestamp').max().alias('last_time'),
    paying().sum().alias('tx_count'),
    col('is_vote').not().and(col('price').eq(0)).sum().alias('no_priority_tx_count'),
    pl.len().alias('total_tx_count'),
    col('fee').filter(col('is_vote').not()).sum().alias('total_priority_fees'),
    col('consumed').filter(col('is_vote').not()).sum().alias('total_compute_units'),
    col('cu_limit').filter(col('is_vote').not()).sum().alias('total_compute_budget'),
  );
  const feeAt = (p: number) => col('fee').sort().gather(rank(p * 1000, pl.len())).first();
  const stats = tx.filter(paying()).groupBy(key).agg(
    ...families.map(([name, column]) => col(column).sort().alias(`${name}_l`)),
    ...families.slice(0, 3).map(([name, column]) => col(column).sum().alias(`${name}_sum`)),
    col('pos').mean().alias('position_mean'),
    col('price').cast(pl.Float64).std().alias('std_sample'),
    ...POSITION_AT_FEE.map((p) => col('pos').filter(col('fee').gtEq(feeAt(p))).mean().alias(`position_at_fee_p${p}`)),
    pl.len().alias('k'),
  ).withColumns(
    ...families.flatMap(([name]) => [
      ...PERCENTILE_SUFFIXES.map(([suffix, millis]) => nth(`${name}_l`, millis, col('k')).alias(`${name}_${suffix}`)),
      nth(`${name}_l`, 100_000, col('k')).sub(nth(`${name}_l`, 0, col('k'))).alias(`${name}_spread`),
    ]),
    ...families.slice(0, 3).map(([name]) =>
      col(`${name}_sum`).cast(pl.Float64).mul(2).add(col('k')).div(col('k').mul(2)).floor().cast(pl.UInt64).alias(`${name}_mean`)),
    // population standard deviation (Expr.std has ddof 1)
    pl.when(col('k').eq(1)).then(pl.lit(0)).otherwise(col('std_sample').mul(col('k').sub(1).cast(pl.Float64).div(col('k').cast(pl.Float64)).pow(0.5))).alias('std_dev'),
  ).drop([...families.map(([name]) => `${name}_l`), ...families.slice(0, 3).map(([name]) => `${name}_sum`), 'k', 'std_sample']);
  const joined = totals.join(stats, { on: key, how: 'left' } as never).withColumns(
    pl.when(col('total_compute_budget').eq(0)).then(pl.lit(null))
      .otherwise(col('total_compute_units').cast(pl.Float64).mul(100).div(col('total_compute_budget').cast(pl.Float64))).alias('cu_utilization_pct'),
  ).sort(key).withColumns(col('last_time').cast(pl.Utf8), col(key).cast(key === 'slot' ? pl.UInt64 : pl.Utf8)); // Int64 reads back as a lossy number
  return (await joined.collect()).toRecords() as Record<string, unknown>[];
}


async function recommendation(tx: Lazy, blocks: Lazy): Promise<Row> {
  const [{ t }] = (await blocks.select(col('timestamp').max().cast(pl.Utf8).alias('t')).collect()).toRecords() as { t: string }[];
  const last = BigInt(t);
  const w = tx.filter(col('timestamp').gt(col('timestamp').max().sub(MINUTE())));
  const perBlock = w.groupBy('slot').agg(
    col('consumed').sum().cast(pl.Float64).mul(100).div(col('block_cu_limit').first().cast(pl.Float64)).alias('fill'),
    col('price').filter(paying()).min().alias('block_min'),
    col('price').filter(paying()).sort().alias('pl'),
  );
  const blockRows = (await perBlock.collect()).toRecords() as unknown as { fill: number; block_min: number | bigint | null; pl: (number | bigint)[] }[];
  const [agg] = (await w.select(
    paying().sum().alias('tx_count'),
    col('is_vote').not().and(col('price').eq(0)).sum().alias('no_priority_tx_count'),
    pl.len().alias('total_tx_count'),
    col('consumed').filter(col('is_vote').not()).sum().cast(pl.Float64).div(col('is_vote').not().sum().cast(pl.Float64)).alias('avg_cu_per_tx'),
    col('consumed').filter(paying()).sort().gather(rank(50_000, paying().sum())).first().alias('median_consumed'),
    ...TIERS.map(([tier, p]) => col('price').filter(paying()).sort().gather(rank(p * 1000, paying().sum())).first().alias(`${tier}_price`)),
  ).collect()).toRecords() as Record<string, number | bigint>[];
  const cuLimit = Math.min(Math.floor((11 * Number(agg!.median_consumed) + 9) / 10), MAX_CU_LIMIT);
  const tierPrices = TIERS.map(([tier]) => Number(agg![`${tier}_price`]));
  const [ranks] = (await w.filter(paying()).select(
    ...TIERS.map(([tier], j) => col('pos').filter(col('price').gtEq(tierPrices[j]!)).mean().mul(100).alias(`${tier}_landing_rank_pct`)),
  ).collect()).toRecords() as Record<string, number>[];
  const withPaying = blockRows.filter((b) => b.block_min !== null);
  const fills = blockRows.map((b) => b.fill).sort((a, b) => a - b);
  const medians = withPaying.map((b) => Number(b.pl[Math.max(1, Math.ceil((b.pl.length * 50_000) / 100_000)) - 1]));
  // The scalar assembly below is on a handful of per-block values; the per-transaction work is Polars'.
  const mean = medians.reduce((a, b) => a + b, 0) / medians.length;
  const std = Math.sqrt(medians.reduce((a, b) => a + (b - mean) ** 2, 0) / medians.length);
  const row: Row = {
    timestamp: iso(last), window_duration: 'PT1M', window_start: iso(last + 1n - MINUTE_NS), window_end: iso(last + 1n),
    tx_count: wire(agg!.tx_count), no_priority_tx_count: wire(agg!.no_priority_tx_count), total_tx_count: wire(agg!.total_tx_count),
    data_points: wire(agg!.tx_count), is_valid: Number(agg!.tx_count) >= MIN_SAMPLES,
    median_block_fill_pct: fills[Math.max(1, Math.ceil((fills.length * 50_000) / 100_000)) - 1]!,
    saturated_block_share_pct: (100 * fills.filter((f) => f >= SATURATED_FILL_PCT).length) / fills.length,
    fee_volatility: mean === 0 ? 0 : std / mean,
    avg_cu_per_tx: agg!.avg_cu_per_tx as number,
  };
  TIERS.forEach(([tier], j) => {
    const price = tierPrices[j]!;
    row[`${tier}_price`] = String(price);
    row[`${tier}_fee`] = String((BigInt(price) * BigInt(cuLimit) + 999_999n) / 1_000_000n);
    row[`${tier}_cu_limit`] = String(cuLimit);
    row[`${tier}_landing_rank_pct`] = ranks![`${tier}_landing_rank_pct`]!;
    row[`${tier}_landing_inclusion_pct`] = (100 * withPaying.filter((b) => Number(b.block_min) <= price).length) / withPaying.length;
  });
  return row;
}

async function answers(folder: string): Promise<Answers> {
  const { blocks: blockScan, tx, trades } = scans(folder);
  const blocks = (await feeStats(tx, 'slot')).map(blockFeesRow);
  const windows = (await feeStats(tx, 'window_start')).map(windowFeesRow);
  const candleRows = (await trades.groupBy([col('base'), col('quote'), col('timestamp').sub(col('timestamp').modulo(MINUTE())).alias('ws')]).agg(
    col('price').first().alias('open'), col('price').max().alias('high'), col('price').min().alias('low'), col('price').last().alias('close'),
    col('base_volume').sum().alias('base_volume'), col('quote_volume').sum().alias('quote_volume'), pl.len().alias('data_points'),
  ).withColumns(col('ws').cast(pl.Utf8)).collect()).toRecords() as Record<string, unknown>[];
  const candles = candleRows.map(candleRow);
  const reco = await recommendation(tx, blockScan);
  // most trades first, then base and quote (this sort takes one direction for all its keys)
  const active = trades.groupBy(['base', 'quote']).agg(pl.len().cast(pl.Int64).mul(-1).alias('fewer'), col('timestamp').max().alias('t'))
    .sort(['fewer', 'base', 'quote']).head(TOP_PAIRS);
  const topRows = (await trades.join(active, { on: ['base', 'quote'] })
    .filter(col('timestamp').gt(col('t').sub(int(TOP_WINDOW_NS))))
    .groupBy(['base', 'quote']).agg(
      col('t').first().alias('t'), col('base_volume').sum().alias('base_volume'), col('quote_volume').sum().alias('quote_volume'),
      col('base_volume').filter(col('is_buy')).sum().alias('buy_volume'), col('base_volume').filter(col('is_buy').not()).sum().alias('sell_volume'),
      col('is_buy').sum().alias('buy_swaps'), col('is_buy').not().sum().alias('sell_swaps'), pl.len().alias('total_swaps'),
      col('price').last().alias('current_price'), col('slot').max().alias('slot'),
    ).withColumns(col('t').cast(pl.Utf8)).collect()).toRecords() as Record<string, unknown>[];
  const top = topRows.map(topPairRow);
  return { blocks, windows, candles, recommendation: [reco], top };
}

async function run(folder: string, out: string, firstOnly: boolean): Promise<void> {
  if (firstOnly) {
    const { tx, blocks } = scans(folder);
    await recommendation(tx, blocks);
    printResult(subjectRun({}));
    return;
  }
  const result = await answers(folder);
  const measured = subjectRun({});
  await writeAnswers(out, result);
  printResult(measured);
}

if (isChildOf(import.meta.url)) {
  const [folder, out, mode] = childArgs();
  await run(folder!, out!, mode === 'first');
  process.exit(0);
}
