/**
 * The priority-fee oracle (DESIGN.md 6, docs/semantics.md "Priority-fee methods"): plain loops and
 * sorts over the transaction rows, exact bigint sums, nearest-rank percentiles in integers, each
 * record built from scratch from the rows it covers and written in wire form.
 */
import type { OracleBlockRow, OracleTx } from './data.js';
import { wireDuration, wireF32, wireF64, wireInt, wireTime, windowFloor, windowLength } from './format.js';
import { ids } from './ids.js';
import { ascending, AT_FEE_PERCENTILES, nearestRank, SUFFIX_PERCENTILES, TIER_PERCENTILES } from './percentile.js';
import { ceilDiv, exactSum, ratioToF64 } from './rational.js';

export type Wire = Record<string, string | number | boolean | null>;

/** Engine settings the fee methods read. */
export interface FeeSettings {
  minSamples: number;
  blockCuLimit: bigint;
  saturatedFillPct: number;
}

/** A block with its transactions (index order). */
export interface FeeBlock {
  slot: bigint;
  time: bigint;
  cuLimit: bigint | null;
  txs: OracleTx[];
}

/** One fee-paying transaction as a sample. */
interface Sample {
  price: bigint;
  fee: bigint;
  limit: bigint;
  consumed: bigint;
  position: number;
}

/** The priority fee of a transaction: the row's, else ceil(price x limit / 10^6). */
export const priorityFee = (tx: OracleTx): bigint =>
  tx.priority_fee ?? ceilDiv(tx.compute_unit_price * BigInt(tx.compute_unit_limit), 1_000_000n);

/** The blocks that have transactions, slot ascending. */
export function feeBlocks(blocks: readonly OracleBlockRow[], transactions: readonly OracleTx[]): FeeBlock[] {
  const bySlot = new Map<bigint, OracleTx[]>();
  for (const tx of transactions) {
    if (!bySlot.has(tx.slot)) bySlot.set(tx.slot, []);
    bySlot.get(tx.slot)!.push(tx);
  }
  return blocks
    .filter((b) => bySlot.has(b.slot))
    .map((b) => ({ slot: b.slot, time: b.timestamp, cuLimit: b.block_cu_limit, txs: [...bySlot.get(b.slot)!].sort((x, y) => x.index - y.index) }));
}

/** Samples and counters over blocks, samples in (slot, index) order. */
function gather(blocks: readonly FeeBlock[]) {
  const samples: Sample[] = [];
  let noPriority = 0;
  let total = 0;
  let fees = 0n;
  let consumed = 0n;
  let requested = 0n;
  let nonVote = 0;
  for (const block of blocks) {
    const n = block.txs.length;
    total += n;
    for (const tx of block.txs) {
      if (tx.is_vote) continue;
      nonVote++;
      fees += priorityFee(tx);
      consumed += tx.compute_units_consumed;
      requested += BigInt(tx.compute_unit_limit);
      if (tx.compute_unit_price === 0n) {
        noPriority++;
        continue;
      }
      samples.push({
        price: tx.compute_unit_price, fee: priorityFee(tx), limit: BigInt(tx.compute_unit_limit), consumed: tx.compute_units_consumed,
        position: n === 1 ? 0 : tx.index / (n - 1),
      });
    }
  }
  return { samples, txCount: samples.length, noPriority, total, fees, consumed, requested, nonVote };
}


/** The statistic families (price, fee, limit, position) and the position_at_fee fields. */
function families(samples: readonly Sample[]) {
  const out: Record<string, Wire> = { price: {}, fee: {}, limit: {}, position: {}, spreads: {}, atFee: {} };
  const n = samples.length;
  for (const family of ['price', 'fee', 'limit'] as const) {
    const values = samples.map((s) => s[family]).sort(ascending);
    for (const [suffix, p] of SUFFIX_PERCENTILES) {
      out[family]![`${family}_${suffix}`] =
        n === 0 ? null : p === 'mean' ? wireInt((2n * values.reduce((s, x) => s + x, 0n) + BigInt(n)) / (2n * BigInt(n))) : wireInt(nearestRank(values, p));
    }
    out.spreads![`${family}_spread`] = n === 0 ? null : wireInt(values[n - 1]! - values[0]!);
  }
  const positions = samples.map((s) => s.position);
  const sortedPositions = [...positions].sort(ascending);
  for (const [suffix, p] of SUFFIX_PERCENTILES) {
    out.position![`position_${suffix}`] = n === 0 ? null : wireF32(p === 'mean' ? exactSum(positions) / n : nearestRank(sortedPositions, p));
  }
  out.spreads!.position_spread = n === 0 ? null : wireF32(sortedPositions[n - 1]! - sortedPositions[0]!);
  const fees = samples.map((s) => s.fee).sort(ascending);
  for (const p of AT_FEE_PERCENTILES) {
    if (n === 0) {
      out.atFee![`position_at_fee_p${p}`] = null;
      continue;
    }
    const threshold = nearestRank(fees, p * 1000);
    const chosen = samples.filter((s) => s.fee >= threshold).map((s) => s.position);
    out.atFee![`position_at_fee_p${p}`] = wireF32(exactSum(chosen) / chosen.length);
  }
  return out as Record<'price' | 'fee' | 'limit' | 'position' | 'spreads' | 'atFee', Wire>;
}

/** Population standard deviation of bigints (from the exact variance). */
function populationStdDev(values: readonly bigint[]): number {
  const n = BigInt(values.length);
  const sum = values.reduce((s, x) => s + x, 0n);
  const squares = values.reduce((s, x) => s + x * x, 0n);
  return Math.sqrt(ratioToF64(n * squares - sum * sum, n * n));
}

/** chain::priorityfee::block of one block. */
export function blockFeesRecord(block: FeeBlock): Wire {
  const g = gather([block]);
  const f = families(g.samples);
  return {
    id: ids.blockFees(block.slot),
    slot: wireInt(block.slot),
    timestamp: wireTime(block.time),
    tx_count: wireInt(g.txCount),
    no_priority_tx_count: wireInt(g.noPriority),
    total_priority_fees: wireInt(g.fees),
    total_compute_units: wireInt(g.consumed),
    total_tx_count: wireInt(g.total),
    total_compute_budget: wireInt(g.requested),
    cu_utilization_pct: g.requested === 0n ? null : wireF32(ratioToF64(100n * g.consumed, g.requested)),
    std_dev: g.txCount === 0 ? null : wireF64(populationStdDev(g.samples.map((s) => s.price))),
    price_spread: f.spreads.price_spread!,
    fee_spread: f.spreads.fee_spread!,
    limit_spread: f.spreads.limit_spread!,
    position_spread: f.spreads.position_spread!,
    ...f.price, ...f.fee, ...f.limit, ...f.position, ...f.atFee,
  };
}

/** chain::priorityfee::fee: the window of length `window` starting at `start`, over its blocks (time order). */
export function feeWindowRecord(window: string, start: bigint, blocks: readonly FeeBlock[], settings: FeeSettings): Wire {
  const w = windowLength(window);
  const g = gather(blocks);
  const f = families(g.samples);
  return {
    id: ids.fee(window, start),
    window_start: wireTime(start),
    window_end: wireTime(start + w),
    timestamp: wireTime(blocks[blocks.length - 1]!.time),
    window_duration: wireDuration(w),
    tx_count: wireInt(g.txCount),
    no_priority_tx_count: wireInt(g.noPriority),
    total_tx_count: wireInt(g.total),
    total_priority_fees: wireInt(g.fees),
    data_points: wireInt(g.txCount),
    is_valid: g.txCount >= settings.minSamples,
    ...f.price, ...f.fee, ...f.limit, ...f.position,
    position_spread: f.spreads.position_spread!,
    ...f.atFee,
  };
}

/** The fee windows of `window` over blocks (time ascending), newest first. */
export function feeWindows(window: string, blocks: readonly FeeBlock[], settings: FeeSettings): Wire[] {
  const w = windowLength(window);
  const groups = new Map<bigint, FeeBlock[]>();
  for (const b of blocks) {
    const start = windowFloor(b.time, w);
    if (!groups.has(start)) groups.set(start, []);
    groups.get(start)!.push(b);
  }
  return [...groups].map(([start, list]) => feeWindowRecord(window, start, list, settings)).reverse();
}

/** Block fill in percent: consumed CUs of all transactions over the block's limit (or the setting). */
const blockFill = (b: FeeBlock, settings: FeeSettings): number =>
  ratioToF64(100n * b.txs.reduce((s, t) => s + t.compute_units_consumed, 0n), b.cuLimit ?? settings.blockCuLimit);

/** chain::priorityfee::recommendation of window `window` at block `blocks[j]` (blocks time ascending). */
export function recommendationRecord(window: string, blocks: readonly FeeBlock[], j: number, settings: FeeSettings): Wire {
  const w = windowLength(window);
  const block = blocks[j]!;
  const end = block.time + 1n;
  const start = end - w;
  const inside = blocks.slice(0, j + 1).filter((b) => b.time >= start);
  const g = gather(inside);
  const out: Wire = {
    id: ids.recommendation(window, block.slot),
    timestamp: wireTime(block.time),
    window_duration: wireDuration(w),
    window_start: wireTime(start),
    window_end: wireTime(end),
    tx_count: wireInt(g.txCount),
    no_priority_tx_count: wireInt(g.noPriority),
    total_tx_count: wireInt(g.total),
    data_points: wireInt(g.txCount),
    is_valid: g.txCount >= settings.minSamples,
  };
  const prices = g.samples.map((s) => s.price).sort(ascending);
  const consumed = g.samples.map((s) => s.consumed).sort(ascending);
  const cuLimit = prices.length === 0 ? null : [ceilDiv(11n * nearestRank(consumed, 50_000), 10n)].map((x) => (x > 1_400_000n ? 1_400_000n : x))[0]!;
  // per block: lowest and median fee-paying price, of the blocks that have one
  const perBlock = inside
    .map((b) => gather([b]).samples.map((s) => s.price).sort(ascending))
    .filter((list) => list.length > 0)
    .map((list) => ({ min: list[0]!, median: nearestRank(list, 50_000) }));
  for (const [tier, percent] of TIER_PERCENTILES) {
    if (cuLimit === null) {
      for (const field of ['price', 'fee', 'cu_limit', 'landing_rank_pct', 'landing_inclusion_pct']) out[`${tier}_${field}`] = null;
      continue;
    }
    const price = nearestRank(prices, percent * 1000);
    const landed = g.samples.filter((s) => s.price >= price).map((s) => s.position);
    out[`${tier}_price`] = wireInt(price);
    out[`${tier}_fee`] = wireInt(ceilDiv(price * cuLimit, 1_000_000n));
    out[`${tier}_cu_limit`] = wireInt(cuLimit);
    out[`${tier}_landing_rank_pct`] = wireF32((100 * exactSum(landed)) / landed.length);
    out[`${tier}_landing_inclusion_pct`] = wireF32(ratioToF64(100n * BigInt(perBlock.filter((b) => b.min <= price).length), BigInt(perBlock.length)));
  }
  const fills = inside.map((b) => blockFill(b, settings)).sort(ascending);
  out.median_block_fill_pct = wireF32(nearestRank(fills, 50_000));
  out.saturated_block_share_pct = wireF32(ratioToF64(100n * BigInt(fills.filter((f) => f >= settings.saturatedFillPct).length), BigInt(fills.length)));
  if (perBlock.length === 0) out.fee_volatility = null;
  else {
    const medians = perBlock.map((b) => b.median);
    const n = BigInt(medians.length);
    const sum = medians.reduce((s, x) => s + x, 0n);
    out.fee_volatility = sum === 0n ? '0' : wireF64(populationStdDev(medians) / ratioToF64(sum, n));
  }
  out.avg_cu_per_tx = g.nonVote === 0 ? null : wireF64(ratioToF64(g.consumed, BigInt(g.nonVote)));
  return out;
}

/** chain::priorityfee::top_txs: the fee-paying transactions of the 5 minutes up to the newest block, highest fee first. */
export function topTransactions(blocks: readonly FeeBlock[], limit: number): Wire[] {
  const newest = blocks[blocks.length - 1];
  if (!newest) return [];
  const w = windowLength('5m');
  const end = newest.time + 1n;
  const start = end - w;
  const entries = blocks
    .filter((b) => b.time >= start)
    .flatMap((b) => b.txs.filter((t) => !t.is_vote && t.compute_unit_price > 0n).map((t) => ({ t, time: b.time, fee: priorityFee(t) })));
  entries.sort((a, b) => (a.fee !== b.fee ? (a.fee > b.fee ? -1 : 1) : a.t.slot !== b.t.slot ? (a.t.slot > b.t.slot ? -1 : 1) : b.t.index - a.t.index));
  return entries.slice(0, Math.min(limit, 100)).map(({ t, time, fee }) => ({
    id: ids.topTx('5m', t.signature),
    signature: t.signature,
    signer: t.signer,
    program: t.program,
    slot: wireInt(t.slot),
    timestamp: wireTime(time),
    compute_unit_price: wireInt(t.compute_unit_price),
    compute_unit_limit: wireInt(t.compute_unit_limit),
    compute_units_consumed: wireInt(t.compute_units_consumed),
    total_priority_fee: wireInt(fee),
    window_duration: wireDuration(w),
    window_start: wireTime(start),
    window_end: wireTime(end),
  }));
}
