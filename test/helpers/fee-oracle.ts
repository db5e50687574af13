/**
 * A brute-force priority-fee oracle for tests: plain loops, plain sorts, bigint sums, written
 * from DESIGN.md 6 without any of the engine's code. Values come out as wire strings so tests can
 * compare them with what the methods answer.
 */
import type { BlockRow, TransactionRow } from '../../src/schema/tables.js';
import { exactSum } from '../oracle/rational.js';

export const SUFFIXES: [string, number | 'mean'][] = [
  ['mean', 'mean'], ['median', 50_000], ['min', 0], ['max', 100_000],
  ...[5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 96, 97, 98, 99].map(
    (p) => [`p${p}`, p * 1000] as [string, number],
  ),
  ['p99_9', 99_900], ['p99_99', 99_990], ['p99_999', 99_999],
];
const AT_FEE = [25, 50, 65, 70, 75, 85, 90, 95, 99];

/** Nearest rank: x[max(0, ceil(p n / 100000) - 1)], integer arithmetic. */
export function nearestRank<T>(sorted: T[], millis: number): T {
  const n = sorted.length;
  const rank = Math.floor((millis * n + 99_999) / 100_000);
  return sorted[Math.max(0, rank - 1)];
}

const f32 = (x: number) => String(Math.fround(x));
const roundHalfUp = (sum: bigint, n: bigint) => (2n * sum + n) / (2n * n);

interface Sample {
  price: bigint;
  fee: bigint;
  limit: bigint;
  position: number;
}

/** Samples and counters of a list of blocks (each with all its transactions). */
export function collect(blocks: { transactions: TransactionRow[] }[]) {
  const samples: Sample[] = [];
  let txCount = 0, noPriority = 0, total = 0, fees = 0n, budget = 0n;
  let consumed: bigint | null = 0n; // unknown (null) once a term is unknown
  for (const { transactions } of blocks) {
    const n = transactions.length;
    total += n;
    for (const tx of transactions) {
      if (tx.is_vote) continue;
      const fee = tx.priority_fee ?? (tx.compute_unit_price * BigInt(tx.compute_unit_limit) + 999_999n) / 1_000_000n;
      fees += fee;
      consumed = consumed === null || tx.compute_units_consumed === null ? null : consumed + tx.compute_units_consumed;
      budget += BigInt(tx.compute_unit_limit);
      if (tx.compute_unit_price === 0n) {
        noPriority++;
        continue;
      }
      txCount++;
      samples.push({ price: tx.compute_unit_price, fee, limit: BigInt(tx.compute_unit_limit), position: n === 1 ? 0 : tx.index / (n - 1) });
    }
  }
  return { samples, txCount, noPriority, total, fees, consumed, budget };
}

/** The family statistics (price, fee, limit, position) as wire strings, null when there are no samples. */
export function familyStats(samples: Sample[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const family of ['price', 'fee', 'limit', 'position'] as const) {
    const isFloat = family === 'position';
    const values = samples.map((s) => s[family]) as (bigint | number)[];
    values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [suffix, p] of SUFFIXES) {
      const field = `${family}_${suffix}`;
      if (values.length === 0) out[field] = null;
      else if (p === 'mean') {
        out[field] = isFloat
          ? f32(exactSum(values as number[]) / values.length)
          : String(roundHalfUp((values as bigint[]).reduce((a, b) => a + b, 0n), BigInt(values.length)));
      } else {
        const v = nearestRank(values, p);
        out[field] = isFloat ? f32(v as number) : String(v);
      }
    }
    const spread = values.length === 0 ? null : isFloat
      ? f32((values.at(-1) as number) - (values[0] as number))
      : String((values.at(-1) as bigint) - (values[0] as bigint));
    out[`${family}_spread`] = spread;
  }
  const fees = samples.map((s) => s.fee).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const p of AT_FEE) {
    if (samples.length === 0) {
      out[`position_at_fee_p${p}`] = null;
      continue;
    }
    const threshold = nearestRank(fees, p * 1000);
    const chosen = samples.filter((s) => s.fee >= threshold);
    out[`position_at_fee_p${p}`] = f32(exactSum(chosen.map((s) => s.position)) / chosen.length);
  }
  return out;
}

/** Expected chain::priorityfee::block fields (wire strings) of one block. */
export function expectedBlock(block: BlockRow, transactions: TransactionRow[]): Record<string, string | null> {
  const c = collect([{ transactions }]);
  const prices = c.samples.map((s) => Number(s.price));
  const mean = prices.reduce((a, b) => a + b, 0) / prices.length;
  const std = Math.sqrt(prices.reduce((a, p) => a + (p - mean) ** 2, 0) / prices.length);
  return {
    slot: String(block.slot),
    tx_count: String(c.txCount),
    no_priority_tx_count: String(c.noPriority),
    total_priority_fees: String(c.fees),
    total_compute_units: c.consumed === null ? null : String(c.consumed),
    total_tx_count: String(c.total),
    total_compute_budget: String(c.budget),
    cu_utilization_pct: c.budget === 0n || c.consumed === null ? null : f32((100 * Number(c.consumed)) / Number(c.budget)),
    std_dev_approx: prices.length ? String(std) : null,
    ...familyStats(c.samples),
  };
}
