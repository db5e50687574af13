/**
 * Per-block priority-fee statistics (chain::priorityfee::block): computed once per block at ingest
 * by the fee kernels, committed with the block into the store's block_fees table, and the newest
 * kept in memory so that live queries answer without a store round trip.
 */
import { chunkTransactions } from '../ingest/block-columns.js';
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import { blockFeeStatsMany } from '../kernels/fees.js';
import { recordId } from '../schema/ids.js';
import { BlockFees, type BlockFeesRecord } from '../schema/records.js';
import { recordTableName } from '../store/ddl.js';
import { recordsToIPC, rowToRecord } from '../store/record-ipc.js';
import { sqlInteger } from '../store/sql.js';
import type { Store } from '../store/store.js';

/** Newest blocks answered from memory (the method's largest limit). */
const RECENT = 1000;

/** Blocks whose transactions were ingested get a record; a block row alone has nothing to summarise. */
export class BlockFeesEngine implements ChunkObserver {
  /** Newest last. */
  #recent: BlockFeesRecord[] = [];
  /** Whether every record ever made is in #recent (then the store is never needed for a live answer). */
  #complete = true;

  prepare(chunk: ChunkView): ChunkEffect {
    if (!chunk.transactions) return { records: [], apply() {} };
    const columns = chunkTransactions(chunk.transactions);
    const stats = blockFeeStatsMany(columns);
    const times = new Map(chunk.blocks.map((b) => [b.slot, b.timestamp]));
    const records: BlockFeesRecord[] = stats.map((s, b) => {
      const slot = columns.slots[b];
      return { id: recordId('chain::priorityfee::block', slot), slot, timestamp: times.get(slot)!, ...s } as BlockFeesRecord;
    });
    return {
      records: [{ table: recordTableName(BlockFees), ipc: recordsToIPC(BlockFees, records) }],
      apply: () => {
        this.#recent.push(...records);
        if (this.#recent.length > RECENT) {
          this.#recent.splice(0, this.#recent.length - RECENT);
          this.#complete = false;
        }
      },
    };
  }

  /** The newest `limit` blocks with timestamp < at (all when at is omitted), newest first. */
  async blocks(store: Store | undefined, limit: number, at?: bigint): Promise<BlockFeesRecord[]> {
    if (!store) return [];
    if (at === undefined && (this.#complete || this.#recent.length >= limit)) return this.#recent.slice(-limit).reverse();
    const asOf = at === undefined ? '' : ` WHERE "timestamp" < ${sqlInteger(at)}`;
    const rows = await store.rows(`SELECT * FROM ${recordTableName(BlockFees)}${asOf} ORDER BY slot DESC LIMIT ${limit}`);
    return rows.map((row) => rowToRecord(BlockFees, row));
  }
}
