/**
 * Plain TypeScript baseline of the per-block fee statistics: what a careful engineer writes
 * without WebAssembly. Fee-paying rows are gathered into reused typed arrays, each family is sorted
 * by the built-in typed-array sort and indexed by nearest rank, u64 sums are exact BigInt sums, and
 * the record's keys are made once; mean positions are exact sums in 24-bit limbs (the engine's
 * plain TypeScript module). Same definitions as the test oracle (src/kernels/fees-reference.ts),
 * which is measured beside it.
 */
import { POSITION_AT_FEE, STAT_SUFFIXES, suffixMillis } from '../src/schema/records.js';
import { addPosition, LIMBS, meanPosition } from '../src/windows/position-sum.js';
import type { BlockFeeStats, ManyBlockColumns } from '../src/kernels/fees.js';

const SUFFIXES = STAT_SUFFIXES.map((s) => [s, suffixMillis(s)] as const);
const keys = (family: string) => SUFFIXES.map(([s]) => `${family}_${s}`);
const KEYS = { price: keys('price'), fee: keys('fee'), limit: keys('limit'), position: keys('position') };
const AT_FEE_KEYS = POSITION_AT_FEE.map((p) => `position_at_fee_p${p}`);

/** Nearest-rank index of thousandths-of-a-percent `millis` among `n` sorted values. */
const rankIndex = (millis: number, n: number): number => Math.max(0, Math.ceil((millis * n) / 100_000) - 1);

/** A reusable plain-TS block-statistics function (its scratch arrays grow to the largest block). */
export function createPlainFees(): (blocks: ManyBlockColumns) => BlockFeeStats[] {
  let price = new BigUint64Array(0);
  let fee = new BigUint64Array(0);
  let limit = new Uint32Array(0);
  let position = new Float64Array(0);
  let sorted64 = new BigUint64Array(0);
  let sortedLimit = new Uint32Array(0);
  let sortedPosition = new Float64Array(0);

  function u64Family(out: Record<string, unknown>, names: string[], values: BigUint64Array, sum: bigint, m: number): bigint {
    sorted64.set(values.subarray(0, m));
    const sorted = sorted64.subarray(0, m).sort();
    const big = BigInt(m);
    for (let s = 0; s < SUFFIXES.length; s++) {
      const millis = SUFFIXES[s]![1];
      out[names[s]!] = millis === undefined ? (2n * sum + big) / (2n * big) : sorted[rankIndex(millis, m)]!;
    }
    return sorted[m - 1]! - sorted[0]!;
  }

  function block(b: ManyBlockColumns, start: number, end: number): BlockFeeStats {
    const n = end - start;
    if (price.length < n) {
      price = new BigUint64Array(n); fee = new BigUint64Array(n); limit = new Uint32Array(n); position = new Float64Array(n);
      sorted64 = new BigUint64Array(n); sortedLimit = new Uint32Array(n); sortedPosition = new Float64Array(n);
    }
    let m = 0, free = 0;
    let fees = 0n, consumed = 0n, budget = 0, priceSum = 0n, feeSum = 0n, limitSum = 0;
    for (let i = start; i < end; i++) {
      if (b.isVote[i] !== 0) continue;
      const f = b.priorityFee[i]!;
      fees += f;
      consumed += b.computeUnitsConsumed[i]!;
      budget += b.computeUnitLimit[i]!;
      const p = b.computeUnitPrice[i]!;
      if (p === 0n) {
        free++;
        continue;
      }
      price[m] = p;
      fee[m] = f;
      limit[m] = b.computeUnitLimit[i]!;
      position[m] = n === 1 ? 0 : b.index[i]! / (n - 1);
      priceSum += p;
      feeSum += f;
      limitSum += b.computeUnitLimit[i]!;
      m++;
    }
    const out: Record<string, unknown> = {};
    if (m === 0) {
      for (const family of Object.values(KEYS)) for (const key of family) out[key] = null;
      for (const family of ['price', 'fee', 'limit', 'position']) out[`${family}_spread`] = null;
      out.std_dev = null;
      for (const key of AT_FEE_KEYS) out[key] = null;
    } else {
      out.price_spread = u64Family(out, KEYS.price, price, priceSum, m);
      out.fee_spread = u64Family(out, KEYS.fee, fee, feeSum, m);
      sortedLimit.set(limit.subarray(0, m));
      const limits = sortedLimit.subarray(0, m).sort();
      const bigM = BigInt(m);
      for (let s = 0; s < SUFFIXES.length; s++) {
        const millis = SUFFIXES[s]![1];
        out[KEYS.limit[s]!] = millis === undefined ? (2n * BigInt(limitSum) + bigM) / (2n * bigM) : BigInt(limits[rankIndex(millis, m)]!);
      }
      out.limit_spread = BigInt(limits[m - 1]! - limits[0]!);
      sortedPosition.set(position.subarray(0, m));
      const positions = sortedPosition.subarray(0, m).sort();
      const positionSum = new Float64Array(LIMBS);
      for (let i = 0; i < m; i++) addPosition(positionSum, 0, position[i]!);
      for (let s = 0; s < SUFFIXES.length; s++) {
        const millis = SUFFIXES[s]![1];
        out[KEYS.position[s]!] = millis === undefined ? meanPosition(positionSum, 0, m) : positions[rankIndex(millis, m)]!;
      }
      out.position_spread = positions[m - 1]! - positions[0]!;
      out.std_dev = standardDeviation(price, m, priceSum);
      // the sorted fees are still in sorted64: fee was the last family u64Family sorted there
      const sortedFees = sorted64.subarray(0, m);
      for (let j = 0; j < POSITION_AT_FEE.length; j++) {
        const threshold = sortedFees[rankIndex(POSITION_AT_FEE[j]! * 1000, m)]!;
        const sum = new Float64Array(LIMBS);
        let count = 0;
        for (let i = 0; i < m; i++) {
          if (fee[i]! >= threshold) {
            addPosition(sum, 0, position[i]!);
            count++;
          }
        }
        out[AT_FEE_KEYS[j]!] = meanPosition(sum, 0, count);
      }
    }
    out.tx_count = m;
    out.no_priority_tx_count = free;
    out.total_tx_count = n;
    out.total_priority_fees = fees;
    out.total_compute_units = consumed;
    out.total_compute_budget = BigInt(budget);
    out.cu_utilization_pct = budget === 0 ? null : (100 * Number(consumed)) / budget;
    return out as BlockFeeStats;
  }

  return (blocks) => {
    const result: BlockFeeStats[] = [];
    for (let b = 0; b + 1 < blocks.offsets.length; b++) result.push(block(blocks, blocks.offsets[b]!, blocks.offsets[b + 1]!));
    return result;
  };
}

/** Population standard deviation as in the oracle: deviations from q + r / n, Neumaier-compensated squares. */
function standardDeviation(values: BigUint64Array, m: number, sum: bigint): number {
  const n = BigInt(m);
  const q = sum / n;
  const fraction = Number(sum % n) / m;
  let squares = 0;
  let lost = 0;
  for (let i = 0; i < m; i++) {
    const d = Number(values[i]! - q) - fraction;
    const y = d * d;
    const t = squares + y;
    lost += squares >= y ? squares - t + y : y - t + squares;
    squares = t;
  }
  return Math.sqrt((squares + lost) / m);
}
