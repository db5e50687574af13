/**
 * A brute-force oracle of the local-fee-market methods (chain::priorityfee::estimate and
 * chain::priorityfee::recent), written from their stated rules with plain loops over the same
 * transactions a test ingests. It shares no code with src/priorityfee or src/kernels: the lookback,
 * the groups, the nearest-rank tiers and the per-block fee are all recomputed here, and the answer is
 * given as wire values (integers as decimal strings, times as ISO-8601 with nanoseconds).
 *
 *   lookback  the newest `lookback` blocks (by slot) that have at least one transaction, with
 *             timestamp < at (all of them when live)
 *   estimate  scopes "combined" (the counted transactions write-locking any of the accounts, each
 *             once), each account in the given order, then "global" (every counted transaction);
 *             counted = not a vote, or any with include_vote; tiers p0/p25/p50/p75/p95/p100 (nearest
 *             rank) of compute_unit_price, samples with price 0 included; recommended = the higher of
 *             the scope's and the global medium
 *   recent    per block, newest first: the lowest price of its non-vote transactions with a nonzero
 *             compute-unit limit, raised to the highest, over the accounts some of them write-lock,
 *             of that account's lowest price among them; no record for a block without any
 */
import { wireTime } from '../oracle/format.js';
import { nearestRank } from '../oracle/percentile.js';

/** What the oracle needs of one transaction. */
export interface OracleTx {
  readonly price: bigint;
  readonly limit: number;
  readonly vote: boolean;
  /** The accounts it write-locks (null: unknown, locks nothing as far as the methods know). */
  readonly writable: readonly string[] | null | undefined;
}

/** One block: slot, timestamp (ns since the epoch) and its transactions. */
export interface OracleBlock {
  readonly slot: bigint;
  readonly timestamp: bigint;
  readonly txs: readonly OracleTx[];
}

/** A chain::priorityfee::estimate record on the wire, without its id. */
export interface WireEstimate {
  scope: string;
  slot: string;
  timestamp: string;
  first_slot: string;
  lookback_slots: string;
  tx_count: string;
  no_priority_tx_count: string;
  is_valid: boolean;
  min_price: string | null;
  low_price: string | null;
  medium_price: string | null;
  high_price: string | null;
  very_high_price: string | null;
  max_price: string | null;
  recommended_price: string | null;
}

/** A chain::priorityfee::recent record on the wire, without its id. */
export interface WireRecent {
  slot: string;
  timestamp: string;
  prioritization_fee: string;
}

/** The lookback: newest `n` blocks with transactions and timestamp < at, in ascending slot order. */
export function lookbackBlocks(blocks: readonly OracleBlock[], n: number, at?: bigint): OracleBlock[] {
  const eligible = blocks
    .filter((b) => b.txs.length > 0 && (at === undefined || b.timestamp < at))
    .sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0));
  return eligible.slice(Math.max(0, eligible.length - n));
}

/** The tier prices (min, low, medium, high, very_high, max) of a sample list, or nulls when empty. */
const TIER_MILLIS = [0, 25_000, 50_000, 75_000, 95_000, 100_000];
function tiers(samples: readonly bigint[]): (bigint | null)[] {
  if (samples.length === 0) return TIER_MILLIS.map(() => null);
  const sorted = [...samples].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return TIER_MILLIS.map((p) => nearestRank(sorted, p));
}

const str = (x: bigint | null): string | null => (x === null ? null : x.toString());

export interface EstimateQuery {
  accounts: readonly string[];
  lookback: number;
  includeVote: boolean;
  at?: bigint;
}

/** chain::priorityfee::estimate's answer, without ids ([] when the lookback is empty). */
export function oracleEstimate(blocks: readonly OracleBlock[], q: EstimateQuery, minSamples: number): WireEstimate[] {
  const span = lookbackBlocks(blocks, q.lookback, q.at);
  if (span.length === 0) return [];
  const counted = span.flatMap((b) => b.txs).filter((t) => q.includeVote || !t.vote);
  const locks = (t: OracleTx, key: string) => (t.writable ?? []).includes(key);
  const wanted = new Set(q.accounts);
  const groups: [string, bigint[]][] = [
    ['combined', counted.filter((t) => (t.writable ?? []).some((key) => wanted.has(key))).map((t) => t.price)],
    ...q.accounts.map((key) => [key, counted.filter((t) => locks(t, key)).map((t) => t.price)] as [string, bigint[]]),
    ['global', counted.map((t) => t.price)],
  ];
  const globalMedium = tiers(groups.at(-1)![1])[2]!;
  const newest = span.at(-1)!;
  return groups.map(([scope, samples]) => {
    const [min, low, medium, high, veryHigh, max] = tiers(samples);
    let recommended = medium ?? null;
    if (recommended === null || (globalMedium !== null && globalMedium > recommended)) recommended = globalMedium;
    return {
      scope,
      slot: newest.slot.toString(),
      timestamp: wireTime(newest.timestamp),
      first_slot: span[0]!.slot.toString(),
      lookback_slots: String(span.length),
      tx_count: String(samples.length),
      no_priority_tx_count: String(samples.filter((p) => p === 0n).length),
      is_valid: samples.length >= minSamples,
      min_price: str(min!), low_price: str(low!), medium_price: str(medium!), high_price: str(high!),
      very_high_price: str(veryHigh!), max_price: str(max!),
      recommended_price: str(recommended),
    };
  });
}

export interface RecentQuery {
  accounts: readonly string[];
  lookback: number;
  at?: bigint;
}

/** chain::priorityfee::recent's answer, without ids: one record per block of the lookback with a counted transaction, newest first. */
export function oracleRecent(blocks: readonly OracleBlock[], q: RecentQuery): WireRecent[] {
  const span = lookbackBlocks(blocks, q.lookback, q.at);
  const out: WireRecent[] = [];
  for (const block of [...span].reverse()) {
    const counted = block.txs.filter((t) => !t.vote && t.limit > 0);
    if (counted.length === 0) continue;
    let fee = counted.reduce((m, t) => (t.price < m ? t.price : m), counted[0]!.price);
    for (const key of q.accounts) {
      const locking = counted.filter((t) => (t.writable ?? []).includes(key));
      if (locking.length === 0) continue;
      const own = locking.reduce((m, t) => (t.price < m ? t.price : m), locking[0]!.price);
      if (own > fee) fee = own;
    }
    out.push({ slot: block.slot.toString(), timestamp: wireTime(block.timestamp), prioritization_fee: fee.toString() });
  }
  return out;
}
