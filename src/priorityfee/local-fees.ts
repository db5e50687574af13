/**
 * Local fee markets (docs/semantics.md): chain::priorityfee::estimate and chain::priorityfee::recent,
 * answered from the resident transactions' account spans of the lookback (the newest `lookback`
 * blocks with transactions, as of `at` or of a streamed block) by the accounts kernels, when asked.
 * Nothing is computed at load: a stream's subscribers get, after each block, the answer as of that
 * block, by the same computation.
 */
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import { accountTiers, NO_ID, recentBlockFees, type AccountBlocks } from '../kernels/accounts.js';
import type { Params } from '../rpc/params.js';
import { recordId } from '../schema/ids.js';
import { BlockFees, TIERS, type PrioritizationFeeRecord, type PriorityFeeEstimateRecord } from '../schema/records.js';
import { recordTableName } from '../store/ddl.js';
import { prunedHistory } from '../store/retention.js';
import { sqlInteger } from '../store/sql.js';
import type { Store } from '../store/store.js';
import type { SegmentRange } from '../store/transaction-segments.js';
import { NO_DEMAND, type StreamDemand, type StreamUpdate } from '../stream/updates.js';
import type { BlockFeesEngine } from './block-fees.js';
import type { BlockRef } from './store-queries.js';

export const ESTIMATE_METHOD = 'chain::priorityfee::estimate';
export const RECENT_METHOD = 'chain::priorityfee::recent';
/** The local fee markets' methods: their streams read every block's write-locked accounts. */
export const LOCAL_FEE_METHODS: readonly string[] = [ESTIMATE_METHOD, RECENT_METHOD];
/** The most blocks a lookback spans: Solana's prioritization fee cache keeps 150. */
export const MAX_LOOKBACK = 150;
/** The most accounts one call takes (getRecentPrioritizationFees' limit). */
export const MAX_ACCOUNTS = 128;

/** The tier percentiles, in thousandths of a percent (records.ts TIERS). */
const TIER_MILLIS = TIERS.map(([, p]) => p * 1000);
const MEDIUM = TIERS.findIndex(([t]) => t === 'medium');

/** What both methods ask: the accounts, how many blocks back, and whether votes count (estimate). */
export interface LocalFeeQuery {
  readonly accounts: readonly string[];
  readonly lookback: number;
  readonly includeVote: boolean;
}

/** The account set of a query, in one order: what a record's id depends on beside its block. */
const accountSet = (query: LocalFeeQuery): string => [...query.accounts].sort().join(',');

/** Where the lookback ends: as of a time (`at`, the newest block before it), after a block (a stream), or live. */
type Horizon = { readonly at: bigint } | { readonly slot: bigint } | undefined;

/** The lookback's blocks (ascending) and where the store holds their transactions. */
interface Lookback {
  readonly blocks: readonly BlockRef[];
  readonly ranges: readonly SegmentRange[];
}

/** The newest `n` blocks with transactions up to the horizon, from the store's block_fees (queued after any commit published before). */
async function storedBlocks(store: Store, n: number, horizon: Horizon): Promise<BlockRef[]> {
  const where = horizon === undefined ? '' : 'at' in horizon
    ? ` WHERE "timestamp" < ${sqlInteger(horizon.at)}`
    : ` WHERE slot <= ${sqlInteger(horizon.slot)}`;
  const rows = await store.rows(`SELECT slot, "timestamp" FROM ${recordTableName(BlockFees)}${where} ORDER BY slot DESC LIMIT ${n}`);
  return rows.reverse().map((r) => ({ slot: r.slot as bigint, timestamp: r.timestamp as bigint }));
}

/**
 * The newest `n` blocks with transactions up to the horizon: from the block fees' memory where it
 * holds them (live, streamed, and as of `at` until the database starts), else from the store.
 */
async function lookback(store: Store, blockFees: BlockFeesEngine, n: number, horizon: Horizon): Promise<Lookback | undefined> {
  const blocks = blockFees.newestBlocks(n, horizon) ?? await storedBlocks(store, n, horizon);
  if (blocks.length === 0) return undefined;
  const held = store.prunedBefore;
  if (held !== undefined && blocks[0]!.timestamp < held) throw prunedHistory('at', 'transactions', { from: blocks[0]!.timestamp }, held);
  // fewer than asked when blocks with transactions came before the cut: the older ones went with it
  const first = store.firstTransactionTime;
  if (held !== undefined && blocks.length < n && first !== undefined && first < held) {
    throw prunedHistory('at', 'transactions', { before: blocks[0]!.timestamp }, held);
  }
  return { blocks, ranges: await store.transactionRanges(blocks[0]!.slot, blocks.at(-1)!.slot) };
}

/** The lookback of a query with the kernels' view of its blocks (no copy) and the accounts as ids of their dictionary. */
interface KernelInput extends Lookback {
  /** The non-vote transactions, block after block. */
  readonly parts: AccountBlocks[];
  /** The votes (every vote of a part has one flag; its price and limit are often one value too). */
  readonly votes: AccountBlocks[];
  readonly wanted: Uint32Array;
}

/** The kernels' input for `query` up to the horizon; undefined before any block. */
async function kernelInput(store: Store | undefined, blockFees: BlockFeesEngine, query: LocalFeeQuery, horizon: Horizon): Promise<KernelInput | undefined> {
  const span = store && (await lookback(store, blockFees, query.lookback, horizon));
  if (!span) return undefined;
  const keys = span.ranges[0]?.segment.accounts.keys;
  const wanted = Uint32Array.from(query.accounts, (key) => keys?.find(key) ?? NO_ID);
  const parts = span.ranges.map(({ segment: { columns, accounts: spans }, from, to }) => ({
    price: columns.computeUnitPrice, limit: columns.computeUnitLimit, vote: false,
    spans: spans.offsets, ids: spans.ids, blocks: columns.offsets, from, to,
  }));
  const votes = span.ranges.map(({ segment: { columns: { votes }, voteAccounts: spans }, from, to }) => ({
    price: votes.price, limit: votes.limit, vote: true, spans: spans.offsets, ids: spans.ids, blocks: votes.offsets, from, to,
  }));
  return { ...span, parts, votes, wanted };
}

/** The higher of two prices, either possibly unknown. */
const higher = (a: bigint | null, b: bigint | null): bigint | null => (a === null ? b : b === null || a > b ? a : b);

export class LocalFeeMarkets implements ChunkObserver {
  constructor(
    private readonly store: () => Store | undefined,
    private readonly blockFees: BlockFeesEngine,
    private readonly minSamples: () => number,
    private readonly demand: StreamDemand = NO_DEMAND,
  ) {}

  /**
   * The tiers of the lookback's compute-unit prices: over the transactions locking any of the
   * accounts ("combined", first), each account's (in the order given), and all ("global", last).
   */
  async estimate(query: LocalFeeQuery, horizon?: Horizon): Promise<PriorityFeeEstimateRecord[]> {
    const span = await kernelInput(this.store(), this.blockFees, query, horizon);
    if (!span) return [];
    const groups = accountTiers(query.includeVote ? [...span.parts, ...span.votes] : span.parts, span.wanted, TIER_MILLIS, query.includeVote);
    const newest = span.blocks.at(-1)!;
    const global = groups.at(-1)!;
    const globalMedium = global.tiers?.[MEDIUM] ?? null;
    const k = query.accounts.length;
    const scopes: [string, number][] = [['combined', k], ...query.accounts.map((a, i) => [a, i] as [string, number]), ['global', k + 1]];
    const set = accountSet(query);
    return scopes.map(([scope, g]) => {
      const { count, zeros, tiers } = groups[g]!;
      const record = {
        // the combined scope's figures depend on the whole account set; an account's and the global ones do not
        id: recordId('estimate', scope, scope === 'combined' ? set : '', newest.slot, query.lookback, query.includeVote),
        scope, slot: newest.slot, timestamp: newest.timestamp, first_slot: span.blocks[0]!.slot, lookback_slots: span.blocks.length,
        tx_count: count, no_priority_tx_count: zeros, is_valid: count >= this.minSamples(),
        recommended_price: higher(tiers?.[MEDIUM] ?? null, globalMedium),
      } as Record<string, unknown>;
      TIERS.forEach(([tier], j) => (record[`${tier}_price`] = tiers?.[j] ?? null));
      return record as PriorityFeeEstimateRecord;
    });
  }

  /** Per block of the lookback, newest first: the fee Solana's getRecentPrioritizationFees reports for the accounts. */
  async recent(query: LocalFeeQuery, horizon?: Horizon): Promise<PrioritizationFeeRecord[]> {
    const span = await kernelInput(this.store(), this.blockFees, query, horizon);
    if (!span) return [];
    const fees = recentBlockFees(span.parts, span.wanted);
    const times = new Map(span.blocks.map((b) => [b.slot, b.timestamp]));
    const slots = span.ranges.flatMap(({ segment, from, to }) => segment.columns.slots.slice(from, to));
    const key = accountSet(query);
    const out: PrioritizationFeeRecord[] = [];
    for (let j = slots.length - 1; j >= 0; j--) {
      const fee = fees[j];
      if (fee === null || fee === undefined) continue;
      const slot = slots[j]!;
      out.push({ id: recordId('recent', slot, key), slot, timestamp: times.get(slot)!, prioritization_fee: fee });
    }
    return out;
  }

  /** A method's answer to validated params (`at` honoured). */
  answer(method: string, params: Params, horizon: Horizon = params.at === undefined ? undefined : { at: params.at }): Promise<object[]> {
    const query: LocalFeeQuery = { accounts: params.accounts ?? [], lookback: params.lookback_slots!, includeVote: params.include_vote ?? false };
    return method === ESTIMATE_METHOD ? this.estimate(query, horizon) : this.recent(query, horizon);
  }

  /**
   * Nothing to keep per block. For streams, each block of the chunk answers its subscribers as of
   * itself: an estimate whole (every scope moves to the new block), recent with the block's own fee
   * only (the older blocks' fees do not change).
   */
  prepare(chunk: ChunkView): ChunkEffect {
    const streamed = LOCAL_FEE_METHODS.filter((m) => this.demand.has(m));
    const slots = chunk.transactionColumns?.slots ?? [];
    if (streamed.length === 0 || slots.length === 0) return { records: [], apply: () => undefined };
    const times = new Map(chunk.blocks.map((b) => [b.slot, b.timestamp]));
    return {
      records: [],
      apply: (): StreamUpdate[] => slots.flatMap((slot) => streamed.map((method) => ({
        method, slot, timestamp: times.get(slot)!, records: [],
        // a block's own fee does not depend on the lookback: recent asks for that block alone
        answer: (params: Params) => this.answer(method, method === RECENT_METHOD ? { ...params, lookback_slots: 1 } : params, { slot }),
      }))),
    };
  }
}
