/**
 * Plain TypeScript reference of the fee kernels (assembly/fees/), the test oracle (DESIGN.md 6):
 * sorted copies indexed by the nearest-rank formula in BigInt, BigInt sums, straightforward loops.
 * Mean positions are exact BigInt sums of the positions scaled by 2^96 (docs/semantics.md, "Mean
 * positions"), so floats agree bit for bit too.
 */
import { saturateU64 } from '../schema/amounts.js';
import { POSITION_AT_FEE, STAT_SUFFIXES, suffixMillis, type StatSuffix } from '../schema/records.js';
import type { BlockColumns, BlockFeeStats, FeeSamples, SampleStats } from './fees.js';

/** Nearest-rank pN of ascending `sorted` (n > 0), p in thousandths: x[max(0, ceil(p * n / 100000) - 1)]. */
function nearestRank<T>(sorted: ArrayLike<T>, millis: number): T {
  const rank = (BigInt(millis) * BigInt(sorted.length) + 99_999n) / 100_000n;
  return sorted[Number(rank === 0n ? 0n : rank - 1n)]!;
}

/** The suffix statistics of one family: the mean, else the suffix's percentile. */
function family<T>(prefix: string, sorted: ArrayLike<T>, mean: T, stats: Record<string, unknown>): void {
  for (const suffix of STAT_SUFFIXES) {
    const millis = suffixMillis(suffix as StatSuffix);
    stats[`${prefix}_${suffix}`] = millis === undefined ? mean : nearestRank(sorted, millis);
  }
}

/** The mean of positions: their exact sum (each x * 2^96 is an integer), its nearest f64, over their count. */
function meanPosition(positions: Iterable<number>): number {
  let sum = 0n;
  let count = 0;
  for (const x of positions) {
    sum += BigInt(x * 2 ** 96);
    count++;
  }
  return (Number(sum) * 2 ** -96) / count;
}

/** The u64 mean rounded half up: floor((2 * sum + n) / (2 * n)). */
function meanU64(values: BigUint64Array): bigint {
  const n = BigInt(values.length);
  let sum = 0n;
  for (const x of values) sum += x;
  return (2n * sum + n) / (2n * n);
}

/**
 * Population standard deviation: deviations from the exact mean q + r / n, taken as (x - q) - r / n,
 * their squares summed with Neumaier's compensation.
 */
function standardDeviation(values: BigUint64Array): number {
  const n = BigInt(values.length);
  let sum = 0n;
  for (const x of values) sum += x;
  const q = sum / n;
  const fraction = Number(sum % n) / values.length;
  let squares = 0;
  let lost = 0; // Neumaier's compensated sum
  for (const x of values) {
    const d = Number(x - q) - fraction;
    const y = d * d;
    const t = squares + y;
    lost += squares >= y ? squares - t + y : y - t + squares;
    squares = t;
  }
  return Math.sqrt((squares + lost) / values.length);
}

/** Reference of `sampleStats` (src/kernels/fees.ts): every field `null` for an empty sample set. */
export function sampleStatsReference(samples: FeeSamples): SampleStats {
  const n = samples.price.length;
  const stats: Record<string, unknown> = {};
  if (n === 0) {
    for (const prefix of ['price', 'fee', 'limit', 'position']) {
      for (const suffix of STAT_SUFFIXES) stats[`${prefix}_${suffix}`] = null;
      stats[`${prefix}_spread`] = null;
    }
    stats.std_dev = null;
    for (const p of POSITION_AT_FEE) stats[`position_at_fee_p${p}`] = null;
    return stats as SampleStats;
  }

  for (const [prefix, values] of [['price', samples.price], ['fee', samples.fee], ['limit', samples.limit]] as const) {
    const sorted = values.slice().sort();
    family(prefix, sorted, meanU64(values), stats);
    stats[`${prefix}_spread`] = sorted[n - 1]! - sorted[0]!;
  }

  const positions = samples.position.slice().sort();
  family('position', positions, meanPosition(samples.position), stats);
  stats.position_spread = positions[n - 1]! - positions[0]!;

  stats.std_dev = standardDeviation(samples.price);

  const fees = samples.fee.slice().sort();
  for (const p of POSITION_AT_FEE) {
    const threshold = nearestRank(fees, p * 1000);
    stats[`position_at_fee_p${p}`] = meanPosition(samples.position.filter((_, i) => samples.fee[i]! >= threshold));
  }
  return stats as SampleStats;
}

/** Reference of `blockFeeStats` (src/kernels/fees.ts). */
export function blockFeeStatsReference(block: BlockColumns): BlockFeeStats {
  const n = block.isVote.length;
  const price: bigint[] = [];
  const fee: bigint[] = [];
  const limit: bigint[] = [];
  const position: number[] = [];
  let free = 0;
  let fees = 0n;
  let consumed: bigint | null = 0n;
  let budget = 0n;
  for (let i = 0; i < n; i++) {
    if (block.isVote[i] !== 0) continue;
    fees += block.priorityFee[i]!;
    const known = !block.consumedKnown || block.consumedKnown[i] !== 0;
    consumed = consumed === null || !known ? null : consumed + block.computeUnitsConsumed[i]!;
    budget += BigInt(block.computeUnitLimit[i]!);
    if (block.computeUnitPrice[i] === 0n) {
      free++;
      continue;
    }
    price.push(block.computeUnitPrice[i]!);
    fee.push(block.priorityFee[i]!);
    limit.push(BigInt(block.computeUnitLimit[i]!));
    position.push(n === 1 ? 0 : block.index[i]! / (n - 1));
  }
  const stats = sampleStatsReference({
    price: BigUint64Array.from(price),
    fee: BigUint64Array.from(fee),
    limit: BigUint64Array.from(limit),
    position: Float64Array.from(position),
  });
  return {
    ...stats,
    tx_count: price.length,
    no_priority_tx_count: free,
    total_tx_count: n,
    total_priority_fees: saturateU64(fees),
    total_compute_units: consumed === null ? null : saturateU64(consumed),
    total_compute_budget: budget,
    cu_utilization_pct: budget === 0n || consumed === null ? null : (100 * Number(consumed)) / Number(budget),
  };
}
