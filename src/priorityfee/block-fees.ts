/**
 * Per-block priority-fee statistics (chain::priorityfee::block): computed once per block at ingest
 * by the fee kernels on this thread, a piece of blocks between two turns of the event loop (a
 * round trip to the kernel worker waited behind its Parquet decoding longer than the kernel runs:
 * docs/architecture.md), committed with the block into the store's block_fees
 * table, and the newest kept in memory so that live queries answer without a store round trip.
 * Until the store has started its database every record stays in memory (the store only holds
 * them, unread), so that as-of queries answer from memory too: a load whose queries memory
 * answers never starts DuckDB-WASM (docs/architecture.md).
 */
import type { ChunkTransactions } from '../ingest/block-columns.js';
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import { BLOCK_FEES_TEMPLATE, blockFeeStatsMany, blockRuns, type BlockFeeStats } from '../kernels/fees.js';
import { TimeSlices, type Steps } from '../platform/event-loop.js';
import { recordId } from '../schema/ids.js';
import { BlockFees, type BlockFeesRecord } from '../schema/records.js';
import { recordTableName } from '../store/ddl.js';
import { rowToRecord } from '../store/record-arrow.js';
import { recordsFrom, sinceCut } from '../store/retention.js';
import { sqlInteger } from '../store/sql.js';
import type { Store } from '../store/store.js';
import { NO_DEMAND, type StreamDemand } from '../stream/updates.js';
import { RecentRecords } from '../windows/recent-records.js';
import type { BlockRef } from './store-queries.js';

/** Transactions of the blocks computed in one piece: about a tenth of a millisecond of the kernel. */
const PIECE_ROWS = 4096;

/** The statistics of every block of a chunk's columns, a piece of whole blocks at a time. */
function* blockStatsSteps(c: ChunkTransactions): Steps<BlockFeeStats[]> {
  const stats: BlockFeeStats[] = [];
  for (const [b0, b1] of blockRuns(c.offsets, PIECE_ROWS)) {
    const [from, to] = [c.offsets[b0]!, c.offsets[b1]!];
    stats.push(...blockFeeStatsMany({
      offsets: c.offsets.slice(b0, b1 + 1).map((o) => o - from),
      isVote: c.isVote.subarray(from, to), computeUnitPrice: c.computeUnitPrice.subarray(from, to), priorityFee: c.priorityFee.subarray(from, to),
      computeUnitLimit: c.computeUnitLimit.subarray(from, to), computeUnitsConsumed: c.computeUnitsConsumed.subarray(from, to),
      index: c.index.subarray(from, to), consumedKnown: c.consumedKnown.subarray(from, to),
    }));
    yield;
  }
  return stats;
}

const METHOD = 'chain::priorityfee::block';

/** Newest blocks kept in memory once the database holds them (the method's largest limit). */
const RECENT = 1000;

/** A record's keys, in both of which the records are ascending (block times never go back). */
const slotOf = (r: BlockFeesRecord): bigint => BigInt(r.slot!);
const timeOf = (r: BlockFeesRecord): bigint => r.timestamp!;

/** Blocks whose transactions were ingested get a record; a block row alone has nothing to summarise. */
export class BlockFeesEngine implements ChunkObserver {
  readonly #recent = new RecentRecords<BlockFeesRecord>(RECENT);

  constructor(
    private readonly demand: StreamDemand = NO_DEMAND,
    /** The engine's store: while its database has not started, memory keeps every record. */
    private readonly store: () => Store | undefined = () => undefined,
  ) {}

  async prepare(chunk: ChunkView): Promise<ChunkEffect> {
    const columns = chunk.transactionColumns;
    if (!columns) return { records: [], apply() {} };
    const stats = await new TimeSlices().run(blockStatsSteps(columns));
    const times = new Map(chunk.blocks.map((b) => [b.slot, b.timestamp]));
    const records: BlockFeesRecord[] = stats.map((s, b) => {
      const slot = columns.slots[b]!;
      const record = Object.assign({ ...BLOCK_FEES_TEMPLATE }, s) as BlockFeesRecord;
      record.id = recordId('chain::priorityfee::block', slot);
      record.slot = slot;
      record.timestamp = times.get(slot)!;
      return record;
    });
    return {
      records: [{ schema: BlockFees, records }],
      apply: () => {
        this.#recent.push(records, this.store()?.started === false);
        if (!this.demand.has(METHOD)) return;
        return records.map((r) => ({ method: METHOD, slot: BigInt(r.slot!), timestamp: r.timestamp, records: [r] }));
      },
    };
  }

  /**
   * The newest `n` blocks with a record up to slot `upTo.slot`, or with a time before `upTo.at`
   * (the newest when omitted), oldest first, from memory; undefined when memory does not reach that
   * far back (the store's block_fees does).
   */
  newestBlocks(n: number, upTo?: { readonly slot: bigint } | { readonly at: bigint }): BlockRef[] | undefined {
    const end = upTo === undefined ? undefined
      : 'slot' in upTo ? this.#recent.before(slotOf, upTo.slot + 1n) : this.#recent.before(timeOf, upTo.at);
    return this.#recent.last(n, end)?.map((r) => ({ slot: slotOf(r), timestamp: timeOf(r) }));
  }

  /**
   * The newest `limit` blocks with timestamp < at (all when at is omitted), newest first, down to
   * retention's cut: from memory when it holds them.
   */
  async blocks(store: Store | undefined, limit: number, at?: bigint): Promise<BlockFeesRecord[]> {
    if (!store) return [];
    const cut = recordsFrom(store, at);
    return sinceCut(await this.#newest(store, limit, at), cut, timeOf);
  }

  async #newest(store: Store, limit: number, at: bigint | undefined): Promise<BlockFeesRecord[]> {
    const fromMemory = this.#recent.last(limit, at === undefined ? undefined : this.#recent.before(timeOf, at));
    if (fromMemory) return fromMemory.reverse();
    const asOf = at === undefined ? '' : ` WHERE "timestamp" < ${sqlInteger(at)}`;
    const rows = await store.rows(`SELECT * FROM ${recordTableName(BlockFees)}${asOf} ORDER BY slot DESC LIMIT ${limit}`);
    return rows.map((row) => rowToRecord(BlockFees, row));
  }
}
