/** A chunk's per-block transaction columns built from plain rows, for tests of what reads them. */
import type { ChunkTransactions } from '../../src/ingest/block-columns.js';

/** A transaction as the tests write it: absent fields are 0 (consumed: known 0; null: unknown). */
export interface TxRow {
  vote: boolean;
  price: bigint;
  fee: bigint;
  limit?: number;
  consumed?: bigint | null;
}

/** The columns of `blocks` (block b at slot b), each transaction's index its place in its block. */
export function chunkColumnsOf(blocks: readonly (readonly TxRow[])[]): ChunkTransactions {
  const rows = blocks.flat();
  const offsets = new Uint32Array(blocks.length + 1);
  blocks.forEach((block, b) => (offsets[b + 1] = offsets[b]! + block.length));
  return {
    slots: blocks.map((_, b) => BigInt(b)),
    offsets,
    isVote: Uint8Array.from(rows, (r) => (r.vote ? 1 : 0)),
    computeUnitPrice: BigUint64Array.from(rows, (r) => r.price),
    priorityFee: BigUint64Array.from(rows, (r) => r.fee),
    computeUnitLimit: Uint32Array.from(rows, (r) => r.limit ?? 0),
    computeUnitsConsumed: BigUint64Array.from(rows, (r) => r.consumed ?? 0n),
    consumedKnown: Uint8Array.from(rows, (r) => (r.consumed === null ? 0 : 1)),
    index: Uint32Array.from(blocks.flatMap((block) => block.map((_, i) => i))),
    row: Uint32Array.from(rows, (_, i) => i),
  };
}
