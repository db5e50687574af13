/** Store reads shared by the priority-fee methods: the as-of block and a window's transactions. */
import { BlockFees } from '../schema/records.js';
import { recordTableName } from '../store/ddl.js';
import { prunedHistory } from '../store/retention.js';
import { sqlInteger } from '../store/sql.js';
import type { Store } from '../store/store.js';
import type { ResidentTransactions } from '../store/transaction-segments.js';

export interface BlockRef {
  slot: bigint;
  timestamp: bigint;
}

/**
 * The newest block with transactions and timestamp < at (the newest of all when at is omitted):
 * the block after which the live engine would have given the as-of answer.
 */
export async function newestFeeBlock(store: Store, at?: bigint): Promise<BlockRef | undefined> {
  const asOf = at === undefined ? '' : ` WHERE "timestamp" < ${sqlInteger(at)}`;
  const [row] = await store.rows(`SELECT slot, "timestamp" FROM ${recordTableName(BlockFees)}${asOf} ORDER BY slot DESC LIMIT 1`);
  return row ? { slot: row.slot as bigint, timestamp: row.timestamp as bigint } : undefined;
}

/** First slot of the blocks with timestamp >= from, up to `last`; refuses a span whose transactions were pruned. */
async function firstSlotFrom(store: Store, from: bigint, last: bigint): Promise<bigint> {
  const held = store.prunedBefore;
  // only an as-of answer reads this far back (retain is at least the longest live span)
  if (held !== undefined && from < held) throw prunedHistory('at', 'transactions', { from }, held);
  const [row] = await store.rows(
    `SELECT min(slot) AS first FROM blocks WHERE "timestamp" >= ${sqlInteger(from)} AND slot <= ${sqlInteger(last)}`,
  );
  return (row?.first as bigint | null) ?? last;
}

/** Every transaction of the blocks with timestamp >= from, up to block `last`, by (slot, index). */
export async function transactionsSince(store: Store, from: bigint, last: BlockRef): Promise<ResidentTransactions> {
  return store.transactions(await firstSlotFrom(store, from, last.slot), last.slot);
}
