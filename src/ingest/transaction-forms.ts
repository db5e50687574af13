/**
 * A chunk's transactions in the forms the engines read, made from its numeric columns alone:
 * per-block columns ordered by (slot, index) (the block fee statistics), the non-votes' fee
 * columns with the votes summarized (the resident store, fee windows and recommendations), and
 * each block's best fee payers (the top lists). Nothing here needs the serving thread's state, so
 * the kernel worker makes them while the serving thread commits the chunk before (pipeline.ts).
 */
import type { Table } from 'apache-arrow';
import { BEST_PER_BLOCK, bestFeePayers, chunkTransactions, transactionNumbers, type ChunkTransactions, type TransactionNumbers } from './block-columns.js';
import { splitVotes, type FeeColumns } from './fee-columns.js';
import { gather } from '../schema/u64-words.js';

export interface TransactionForms {
  /** Every transaction, votes included, per block. */
  readonly columns: ChunkTransactions;
  /** The non-votes per block, the votes summarized. */
  readonly fees: FeeColumns;
  /** Positions in `columns` of the non-votes and of the votes. */
  readonly nonVotes: Uint32Array;
  readonly votes: Uint32Array;
  /** Positions in `fees` of each block's best fee payers, best first, block after block. */
  readonly kept: Uint32Array;
  /** Block b's are kept[keptOffsets[b]..keptOffsets[b + 1]). */
  readonly keptOffsets: Uint32Array;
}

/** The forms of a chunk's transactions, from their numeric columns or their table (priority fees present). */
export function transactionForms(input: TransactionNumbers | Table): TransactionForms {
  const columns = chunkTransactions('numRows' in input ? transactionNumbers(input) : input);
  const { fees, nonVotes, votes } = splitVotes(columns);
  const blocks = fees.slots.length;
  const kept = new Uint32Array(Math.min(fees.index.length, blocks * BEST_PER_BLOCK));
  const keptOffsets = new Uint32Array(blocks + 1);
  for (let b = 0; b < blocks; b++) keptOffsets[b + 1] = keptOffsets[b]! + bestFeePayers(fees, b, kept, keptOffsets[b]!);
  return { columns, fees, nonVotes, votes, kept: kept.slice(0, keptOffsets[blocks]), keptOffsets };
}

/** The table rows of the kept transactions, in `kept` order: those whose text the store keeps. */
export const keptRows = (forms: TransactionForms): Uint32Array => gather(forms.columns.row, gather(forms.nonVotes, forms.kept));
