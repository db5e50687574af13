/**
 * Store reads shared by the priority-fee methods: the as-of block and a window's transactions,
 * both from the resident transactions (the database is not asked: an as-of answer does not start it).
 */
import { prunedHistory } from '../store/retention.js';
import type { Store } from '../store/store.js';
import type { BlockRange } from '../store/transaction-segments.js';

export interface BlockRef {
  slot: bigint;
  timestamp: bigint;
}

/**
 * The newest block with transactions and timestamp < at (the newest of all when at is omitted):
 * the block after which the live engine would have given the as-of answer. Refused when retention
 * pruned every such block.
 */
export async function newestFeeBlock(store: Store, at?: bigint): Promise<BlockRef | undefined> {
  const newest = await store.newestTransactionBlock(at);
  const [cut, first] = [store.prunedBefore, store.firstTransactionTime];
  if (!newest && at !== undefined && cut !== undefined && first !== undefined && first < at) {
    throw prunedHistory('at', 'transactions', { before: at }, cut);
  }
  return newest;
}

/** Refuses a read of the transactions from time `from` on when retention pruned some of them. */
function checkHeld(store: Store, from: bigint): void {
  const held = store.prunedBefore;
  // only an as-of answer reads this far back (retain is at least the longest live span)
  if (held !== undefined && from < held) throw prunedHistory('at', 'transactions', { from }, held);
}

/**
 * The transactions of the blocks with timestamp >= from, up to block `last`, as the ranges of blocks
 * the store holds them in (no copy of the columns); refused when pruned.
 */
export async function transactionBlocksSince(store: Store, from: bigint, last: BlockRef): Promise<BlockRange[]> {
  checkHeld(store, from);
  return store.transactionBlocksFrom(from, last.slot);
}
