/**
 * Per-block priority-fee statistics (chain::priorityfee::block): computed once per block at ingest
 * by the fee kernels in the kernel worker, committed with the block into the store's block_fees
 * table, and the newest kept in memory so that live queries answer without a store round trip.
 * Until the store has started its database every record stays in memory (the store only holds
 * them, unread), so that as-of queries answer from memory too: a load whose queries memory
 * answers never starts DuckDB-WASM (docs/architecture.md).
 */
import type { ChunkTransactions } from '../ingest/block-columns.js';
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import type { KernelClient } from '../kernels/client.js';
import type { ManyBlockColumns } from '../kernels/fees.js';
import { recordId } from '../schema/ids.js';
import { BlockFees, type BlockFeesRecord } from '../schema/records.js';
import { recordTableName } from '../store/ddl.js';
import { rowToRecord } from '../store/record-arrow.js';
import { sqlInteger } from '../store/sql.js';
import type { Store } from '../store/store.js';
import { NO_DEMAND, type StreamDemand } from '../stream/updates.js';
import { RecentRecords } from '../windows/recent-records.js';
import type { BlockRef } from './store-queries.js';

/** The kernel's input: copies of the shared columns, which the worker call transfers away. */
function kernelInput(c: ChunkTransactions): ManyBlockColumns {
  return {
    offsets: c.offsets.slice(), isVote: c.isVote.slice(), computeUnitPrice: c.computeUnitPrice.slice(), priorityFee: c.priorityFee.slice(),
    computeUnitLimit: c.computeUnitLimit.slice(), computeUnitsConsumed: c.computeUnitsConsumed.slice(), index: c.index.slice(),
    consumedKnown: c.consumedKnown.slice(),
  };
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
    private readonly kernels: () => Promise<KernelClient>,
    private readonly demand: StreamDemand = NO_DEMAND,
    /** The engine's store: while its database has not started, memory keeps every record. */
    private readonly store: () => Store | undefined = () => undefined,
  ) {}

  async prepare(chunk: ChunkView): Promise<ChunkEffect> {
    const columns = chunk.transactionColumns;
    if (!columns) return { records: [], apply() {} };
    const stats = await (await this.kernels()).blockFeeStatsMany(kernelInput(columns));
    const times = new Map(chunk.blocks.map((b) => [b.slot, b.timestamp]));
    const records: BlockFeesRecord[] = stats.map((s, b) => {
      const slot = columns.slots[b];
      return { id: recordId('chain::priorityfee::block', slot), slot, timestamp: times.get(slot)!, ...s } as BlockFeesRecord;
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

  /** The newest `limit` blocks with timestamp < at (all when at is omitted), newest first: from memory when it holds them. */
  async blocks(store: Store | undefined, limit: number, at?: bigint): Promise<BlockFeesRecord[]> {
    if (!store) return [];
    const fromMemory = this.#recent.last(limit, at === undefined ? undefined : this.#recent.before(timeOf, at));
    if (fromMemory) return fromMemory.reverse();
    const asOf = at === undefined ? '' : ` WHERE "timestamp" < ${sqlInteger(at)}`;
    const rows = await store.rows(`SELECT * FROM ${recordTableName(BlockFees)}${asOf} ORDER BY slot DESC LIMIT ${limit}`);
    return rows.map((row) => rowToRecord(BlockFees, row));
  }
}
