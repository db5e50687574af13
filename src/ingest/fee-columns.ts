/**
 * The form of a chunk's transactions that the resident store keeps and the fee windows,
 * recommendations and top lists read: the non-vote transactions as per-block columns, and each
 * block's votes summarized. Votes are two thirds of mainnet's transactions, and what the methods
 * read of them is a count, a sum of consumed compute units, and (a local fee market that includes
 * votes) their price, limit and accounts, which are nearly always the same for every vote.
 */
import type { BlockColumns, ChunkTransactions } from './block-columns.js';
import { sumU64, wordsOf } from '../schema/u64-words.js';

/** The votes of a run of blocks. */
export interface BlockVotes {
  /** Block b's votes are [offsets[b], offsets[b + 1]) of the per-vote columns (and the votes' accounts). */
  offsets: Uint32Array;
  /** Per block: the consumed compute units of its votes, summed exactly (an unknown one counts 0). */
  consumed: bigint[];
  /** Per block: 1 when every one of its votes' consumed compute units is known. */
  consumedKnown: Uint8Array;
  /** Each vote's compute-unit price, or the one price every vote of the run has. */
  price: BigUint64Array | bigint;
  /** Each vote's compute-unit limit, or the one limit every vote of the run has. */
  limit: Uint32Array | number;
}

/** The non-vote transactions per block (block b is rows [offsets[b], offsets[b + 1])) and the blocks' votes. */
export interface FeeColumns extends BlockColumns {
  votes: BlockVotes;
}

/** Transactions of block b, votes included (a transaction's place in its block is index / (size - 1)). */
export const blockSize = (c: FeeColumns, b: number): number =>
  c.offsets[b + 1]! - c.offsets[b]! + c.votes.offsets[b + 1]! - c.votes.offsets[b]!;

/** Votes a run holds. */
export const voteCount = (votes: BlockVotes): number => votes.offsets[votes.offsets.length - 1]!;

/**
 * A chunk's columns split: the non-vote transactions' columns with the votes summarized, and the
 * positions in `columns` of the non-votes and of the votes (for their rows in the input).
 */
export function splitVotes(columns: ChunkTransactions): { fees: FeeColumns; nonVotes: Uint32Array; votes: Uint32Array } {
  const { isVote, offsets, computeUnitLimit, consumedKnown, index } = columns;
  const blocks = columns.slots.length;
  let voteRows = 0;
  for (let i = 0; i < isVote.length; i++) voteRows += isVote[i]!;
  const rows = isVote.length - voteRows;
  const nonVotes = new Uint32Array(rows);
  const votes = new Uint32Array(voteRows);
  const nonVoteOffsets = new Uint32Array(blocks + 1);
  const voteOffsets = new Uint32Array(blocks + 1);
  const out = {
    computeUnitPrice: new BigUint64Array(rows),
    priorityFee: new BigUint64Array(rows),
    computeUnitLimit: new Uint32Array(rows),
    computeUnitsConsumed: new BigUint64Array(rows),
    consumedKnown: new Uint8Array(rows),
    index: new Uint32Array(rows),
  };
  const { computeUnitLimit: toLimit, consumedKnown: toKnown, index: toIndex } = out;
  const voteConsumedKnown = new Uint8Array(blocks).fill(1);
  const votePrice = new BigUint64Array(voteRows);
  const voteLimit = new Uint32Array(voteRows);
  const voteConsumed = new BigUint64Array(voteRows);
  // one pass, each row's values copied word by word to its side (a gather a column cost ~3x as much)
  const [price, fee, consumed] = [columns.computeUnitPrice, columns.priorityFee, columns.computeUnitsConsumed].map(wordsOf) as [Uint32Array, Uint32Array, Uint32Array];
  const [toPrice, toFee, toConsumed] = [out.computeUnitPrice, out.priorityFee, out.computeUnitsConsumed].map(wordsOf) as [Uint32Array, Uint32Array, Uint32Array];
  const [toVotePrice, toVoteConsumed] = [wordsOf(votePrice), wordsOf(voteConsumed)];
  let a = 0;
  let v = 0;
  for (let b = 0; b < blocks; b++) {
    for (let i = offsets[b]!; i < offsets[b + 1]!; i++) {
      if (isVote[i] === 0) {
        nonVotes[a] = i;
        toPrice[2 * a] = price[2 * i]!;
        toPrice[2 * a + 1] = price[2 * i + 1]!;
        toFee[2 * a] = fee[2 * i]!;
        toFee[2 * a + 1] = fee[2 * i + 1]!;
        toConsumed[2 * a] = consumed[2 * i]!;
        toConsumed[2 * a + 1] = consumed[2 * i + 1]!;
        toLimit[a] = computeUnitLimit[i]!;
        toKnown[a] = consumedKnown[i]!;
        toIndex[a] = index[i]!;
        a++;
        continue;
      }
      votes[v] = i;
      toVotePrice[2 * v] = price[2 * i]!;
      toVotePrice[2 * v + 1] = price[2 * i + 1]!;
      toVoteConsumed[2 * v] = consumed[2 * i]!;
      toVoteConsumed[2 * v + 1] = consumed[2 * i + 1]!;
      voteLimit[v] = computeUnitLimit[i]!;
      if (consumedKnown[i] === 0) voteConsumedKnown[b] = 0;
      v++;
    }
    nonVoteOffsets[b + 1] = a;
    voteOffsets[b + 1] = v;
  }
  const fees: FeeColumns = {
    slots: columns.slots,
    offsets: nonVoteOffsets,
    ...out,
    votes: {
      offsets: voteOffsets,
      // each block's votes' consumed units, summed exactly (word by word, no BigInt a vote)
      consumed: Array.from({ length: blocks }, (_, b) => sumU64(voteConsumed.subarray(voteOffsets[b]!, voteOffsets[b + 1]!))),
      consumedKnown: voteConsumedKnown,
      price: repeatedOr(votePrice),
      limit: repeatedOr(voteLimit),
    },
  };
  return { fees, nonVotes, votes };
}

/** The one value every entry of `values` has, or `values` (none: 0). */
function repeatedOr(values: BigUint64Array): BigUint64Array | bigint;
function repeatedOr(values: Uint32Array): Uint32Array | number;
function repeatedOr(values: BigUint64Array | Uint32Array): BigUint64Array | Uint32Array | bigint | number {
  const words = values instanceof BigUint64Array ? wordsOf(values) : values;
  const step = values instanceof BigUint64Array ? 2 : 1; // an integer: a quotient made the loop's index a double
  for (let i = step; i < words.length; i++) if (words[i] !== words[i - step]) return values;
  return values.length === 0 ? (values instanceof BigUint64Array ? 0n : 0) : values[0]!;
}

/** A per-vote column: every vote's value, or the one value they all have. */
type Repeated<A extends BigUint64Array | Uint32Array> = A | (A extends BigUint64Array ? bigint : number);

/** Per-vote values [first, last) of a column (`copy`: an array of its own, so the rest can be freed). */
function sliceRepeated<A extends BigUint64Array | Uint32Array>(values: Repeated<A>, first: number, last: number, copy: boolean): Repeated<A> {
  if (typeof values !== 'object') return values;
  return (copy ? values.slice(first, last) : values.subarray(first, last)) as A;
}

/** Blocks [from, to) of `votes` (`copy`: in arrays of their own). */
export function sliceVotes(votes: BlockVotes, from: number, to: number, copy: boolean): BlockVotes {
  const first = votes.offsets[from]!;
  const last = votes.offsets[to]!;
  return {
    offsets: votes.offsets.slice(from, to + 1).map((o) => o - first),
    consumed: votes.consumed.slice(from, to),
    consumedKnown: votes.consumedKnown.slice(from, to),
    price: sliceRepeated<BigUint64Array>(votes.price, first, last, copy),
    limit: sliceRepeated<Uint32Array>(votes.limit, first, last, copy),
  };
}
