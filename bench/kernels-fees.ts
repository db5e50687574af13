/**
 * Per-block priority-fee statistics (chain::priorityfee::block): every family (price, fee, limit,
 * position) with every suffix (mean, min, max, median, p5 ... p99_999), spreads, std_dev,
 * position_at_fee and the block totals, for blocks of 1,500 transactions, by
 * - chainlens: the fee kernels' batched call (`blockFeeStatsMany`, WebAssembly), records included;
 * - DuckDB-WASM and native DuckDB: one SQL statement (quantile_disc lists GROUP BY slot);
 * - plain TypeScript: typed arrays, built-in sort, nearest rank; and the test oracle.
 */
import { createFeeKernels, type BlockFeeStats } from '../src/kernels/fees.js';
import { blockFeeStatsReference } from '../src/kernels/fees-reference.js';
import { POSITION_AT_FEE } from '../src/schema/records.js';
import { FEE_ROW_BYTES, feeBlocks, type FeeBlocks } from './data.js';
import { measure, speedup, type Figure, type Target } from './harness.js';
import { FEE_MILLIS } from './kernels-percentiles.js';
import { repeats, type BenchOptions } from './options.js';
import { createPlainFees } from './plain-fees.js';
import { fractionList, openSqlBaselines, type SqlBaselines } from './sql.js';

/** The SQL of the whole BlockFees record, per slot, over table `txs`. */
export function blockFeesSql(table: string): string {
  const list = fractionList([...FEE_MILLIS]);
  const family = (name: string, column: string, mean: string) =>
    `${mean} AS ${name}_mean, quantile_disc(${column}, ${list}) AS ${name}_q, max(${column}) - min(${column}) AS ${name}_spread`;
  const atFee = POSITION_AT_FEE.map((p) => `avg(s.pos) FILTER (WHERE s.fee >= st.fee_q[${FEE_MILLIS.indexOf(p * 1000) + 1}]) AS position_at_fee_p${p}`);
  return `WITH n AS (SELECT slot, count(*) AS total FROM ${table} GROUP BY slot),
s AS (
  SELECT t.slot, t.price, t.fee, t.cu_limit, CASE WHEN n.total = 1 THEN 0.0 ELSE t.idx / (n.total - 1) END AS pos
  FROM ${table} t JOIN n USING (slot) WHERE t.is_vote = 0 AND t.price > 0),
st AS (
  SELECT slot, ${family('price', 'price', 'round(avg(price))')}, ${family('fee', 'fee', 'round(avg(fee))')},
    ${family('limit', 'cu_limit', 'round(avg(cu_limit))')}, ${family('position', 'pos', 'avg(pos)')}, stddev_pop(price) AS std_dev
  FROM s GROUP BY slot),
paf AS (SELECT s.slot, ${atFee.join(', ')} FROM s JOIN st USING (slot) GROUP BY s.slot),
tot AS (
  SELECT slot, count(*) FILTER (WHERE is_vote = 0 AND price > 0) AS tx_count,
    count(*) FILTER (WHERE is_vote = 0 AND price = 0) AS no_priority_tx_count, count(*) AS total_tx_count,
    sum(fee) FILTER (WHERE is_vote = 0) AS total_priority_fees, sum(consumed) FILTER (WHERE is_vote = 0) AS total_compute_units,
    sum(cu_limit) FILTER (WHERE is_vote = 0) AS total_compute_budget
  FROM ${table} GROUP BY slot)
SELECT tot.*, 100 * total_compute_units / total_compute_budget AS cu_utilization_pct, st.* EXCLUDE (slot), paf.* EXCLUDE (slot)
FROM tot LEFT JOIN st USING (slot) LEFT JOIN paf USING (slot) ORDER BY slot`;
}

/** Loads the blocks' transactions as table `txs` in both SQL engines. */
async function loadTransactions(sql: SqlBaselines, data: FeeBlocks): Promise<void> {
  const slot = new BigUint64Array(data.rows);
  for (let b = 0; b < data.blocks; b++) slot.fill(data.slots[b]!, data.offsets[b]!, data.offsets[b + 1]!);
  await sql.load('txs', {
    slot, idx: data.index, is_vote: data.isVote, price: data.computeUnitPrice, fee: data.priorityFee,
    cu_limit: data.computeUnitLimit, consumed: data.computeUnitsConsumed,
  });
}

const sameRecord = (a: BlockFeeStats, b: BlockFeeStats): boolean =>
  Object.keys(a).every((k) => Object.is(a[k as keyof BlockFeeStats], b[k as keyof BlockFeeStats]));

/** Cross-check: kernel = plain = oracle record by record; both SQLs agree on counts, fee totals and median prices. */
async function check(sql: SqlBaselines, kernel: BlockFeeStats[], plain: BlockFeeStats[], oracle: BlockFeeStats[]): Promise<string> {
  kernel.forEach((record, b) => {
    if (!sameRecord(record, plain[b]!) || !sameRecord(record, oracle[b]!)) throw new Error(`fees: block ${b} differs between the kernel and the plain TypeScript baselines`);
  });
  const want = {
    blocks: kernel.length,
    tx: kernel.reduce((s, r) => s + r.tx_count, 0),
    fees: kernel.reduce((s, r) => s + r.total_priority_fees, 0n),
    medians: kernel.reduce((s, r) => s + (r.price_median ?? 0n), 0n),
  };
  const median = FEE_MILLIS.indexOf(50_000) + 1;
  const query = `SELECT count(*) AS blocks, sum(tx_count) AS tx, sum(total_priority_fees)::HUGEINT AS fees,
    coalesce(sum(price_q[${median}]), 0)::HUGEINT AS medians FROM (${blockFeesSql('txs')})`;
  for (const [name, rows] of [['DuckDB-WASM', await sql.wasmRows(query)], ['native DuckDB', await sql.nativeRows(query)]] as const) {
    const r = rows[0]!;
    if (Number(r.blocks) !== want.blocks || Number(r.tx) !== want.tx || BigInt(r.fees as bigint) !== want.fees || BigInt(r.medians as bigint) !== want.medians) {
      throw new Error(`fees: ${name} disagrees with the kernel`);
    }
  }
  return 'every field of every block record equal between the kernel, the plain baseline and the oracle; block count, fee-paying count, total fees and the sum of median prices equal in both DuckDBs';
}

/** The per-block statistics figure: 1,000 blocks of 1,500 transactions (30 in quick mode). */
export async function feeFigures(options: BenchOptions): Promise<Figure[]> {
  const blocks = options.quick ? 30 : 1_000;
  const data = feeBlocks(blocks, 1500);
  const sql = await openSqlBaselines();
  try {
    await loadTransactions(sql, data);
    const kernels = createFeeKernels();
    const plain = createPlainFees();
    const oracle = (d: FeeBlocks) => {
      const out: BlockFeeStats[] = [];
      for (let b = 0; b < d.blocks; b++) {
        const [s, e] = [d.offsets[b]!, d.offsets[b + 1]!];
        out.push(blockFeeStatsReference({
          isVote: d.isVote.subarray(s, e), computeUnitPrice: d.computeUnitPrice.subarray(s, e), priorityFee: d.priorityFee.subarray(s, e),
          computeUnitLimit: d.computeUnitLimit.subarray(s, e), computeUnitsConsumed: d.computeUnitsConsumed.subarray(s, e), index: d.index.subarray(s, e),
        }));
      }
      return out;
    };
    const checked = await check(sql, kernels.blockFeeStatsMany(data), plain(data), oracle(data));
    const query = blockFeesSql('txs');
    const subjects = await measure([
      { id: 'chainlens', run: () => kernels.blockFeeStatsMany(data) },
      { id: 'duckdb-wasm', run: () => sql.wasmQuery(query) },
      { id: 'duckdb-native', run: () => sql.nativeQuery(query), note: `${sql.nativeThreads} threads` },
      { id: 'plain-ts', label: 'plain TypeScript (typed arrays, built-in sort)', run: () => plain(data) },
      { id: 'plain-ts-oracle', label: 'plain TypeScript (the test oracle)', run: () => oracle(data) },
    ], blocks, repeats(options));
    const mine = subjects.find((s) => s.id === 'chainlens')!;
    const fastestPlain = subjects.filter((s) => s.id.startsWith('plain')).sort((a, b) => a.stats.median_ms - b.stats.median_ms)[0]!;
    const rate: Target = {
      text: '>= 10,000 blocks/s of 1,500 transactions on one core', kind: 'min-rate', required: 10_000,
      measured: mine.per_second, met: mine.per_second >= 10_000,
    };
    return [{
      id: 'fees.block-stats',
      family: 'fees',
      title: 'Per-block priority-fee statistics',
      size: `${blocks} blocks, ${data.rows.toLocaleString('en-US')} transactions (${Math.round(data.rows / blocks)} a block, about 28% fee-paying)`,
      work: { unit: 'blocks', count: blocks, bytes: data.rows * FEE_ROW_BYTES },
      subjects,
      skipped: [],
      targets: [rate, speedup(subjects, fastestPlain.id, 2)],
      checked,
      notes: [
        'All BlockFees fields: 4 families x 30 suffixes, 4 spreads, std_dev, 9 position_at_fee, 7 totals. chainlens builds the JS record objects inside the timing; the SQL baselines stop at a materialized result.',
        `The plain-TS target is checked against the faster plain version (${fastestPlain.label}).`,
      ],
    }];
  } finally {
    await sql.close();
  }
}
