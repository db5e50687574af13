/**
 * The raw transactions, resident in compact columns: nearly all the rows a dump holds, and only
 * the methods' as-of and first-asked answers read them back, a slot range at a time (fee windows,
 * recommendations, top transactions). One segment per commit, in slot order, found by binary
 * search; retention drops whole segments and trims the one it cuts through.
 *
 * What is kept is what those answers read: the fee columns of every non-vote transaction, per
 * block, with each block's votes summarized (FeeColumns: 33 bytes a non-vote, and a vote nothing
 * beyond its accounts but where its price or limit differs from the other votes'), the text
 * (signature, signer, program) of each block's best fee payers only (BEST_PER_BLOCK, what a top
 * list can show: the signature as its digits packed, 66 bytes, signature-values.ts; the signer
 * and program, which repeat, as ids in the store's dictionary of account keys), and each transaction's
 * write-locked accounts as a span of ids in that dictionary (account-keys.ts; read by the local
 * fee markets, the votes' only when they include votes). The canonical table itself (~230
 * bytes a transaction, most of it base58 text) is not kept. A load from Parquet leaves the accounts
 * in the file: a segment then keeps each transaction's row there, and reads the lists back and
 * interns them when a local fee market first asks for its blocks (`ranges`).
 */
import type { Data, List, Table, Utf8, Vector } from 'apache-arrow';
import type { BlockColumns } from '../ingest/block-columns.js';
import { sliceVotes, voteCount, type FeeColumns } from '../ingest/fee-columns.js';
import { keptRows, transactionForms, type TransactionForms } from '../ingest/transaction-forms.js';
import { tableText, type RowText } from '../ingest/chunk-text.js';
import { readBack, type ChunkAccounts, type FileAccounts } from '../ingest/chunk-accounts.js';
import { lowerBound, lowerBoundBy } from '../windows/lower-bound.js';
import { keepSignatures, sliceSignatures, type KeptSignatures } from '../ingest/signature-values.js';
import { AccountKeys, KEY_BATCH, KeyCompaction, keysMoved, type IdMove } from './account-keys.js';
import { runToEnd, TimeSlices, type Steps } from '../platform/event-loop.js';
import { gather } from '../schema/u64-words.js';

/**
 * The write-locked accounts of transactions: transaction i (a row of the columns) locks the keys
 * ids[offsets[i]..offsets[i + 1]) of `keys` (none where the input did not give them).
 */
export interface AccountSpans {
  readonly keys: AccountKeys;
  readonly offsets: Uint32Array;
  readonly ids: Uint32Array;
}

const inFile = (accounts: AccountSpans | FileAccounts): accounts is FileAccounts => 'file' in accounts;

/** Transactions with their accounts as spans of ids. */
export type SpannedTransactions = ResidentTransactions & { readonly accounts: AccountSpans; readonly voteAccounts: AccountSpans };

/** Blocks [from, to) of a segment, as held (a reader that copies what it needs takes these, not a concatenation). */
export interface BlockRange<S extends TransactionsView = TransactionsView> {
  readonly segment: S;
  readonly from: number;
  readonly to: number;
}

/** A BlockRange with its accounts as spans (what the local fee markets read). */
export type SegmentRange = BlockRange<SpannedTransactions>;

/** Transactions as the store keeps them; block b is the transactions [offsets[b], offsets[b + 1]) of `columns`. */
export interface ResidentTransactions extends TransactionsView {
  /** The write-locked accounts of the rows of `columns` (or where they are: read back by `TransactionSegments.ranges`). */
  readonly accounts: AccountSpans | FileAccounts;
  /** The same of the votes (`columns.votes`). */
  readonly voteAccounts: AccountSpans | FileAccounts;
}

/** What a reader of a slot range gets (`held`): the transactions without their accounts. */
export interface TransactionsView {
  /** The fee columns of the non-vote transactions, per block, ordered by (slot, index); the votes summarized. */
  readonly columns: FeeColumns;
  /** Each block's time (ns), in the order of `columns.slots`: retention cuts by time. */
  readonly times: BigInt64Array;
  /** Positions in `columns` whose text is kept: each block's best fee payers, best first, block after block. */
  readonly kept: Uint32Array;
  /** Block b's kept transactions are kept[keptOffsets[b]..keptOffsets[b + 1]). */
  readonly keptOffsets: Uint32Array;
  /** The kept transactions' text, in `kept` order. */
  readonly text: KeptText;
}

/**
 * The text of kept transactions: signatures as kept (signature-values.ts: at hand, or left in their
 * file until first answered); signers and programs, which repeat, as ids in `keys`.
 */
export interface KeptText {
  readonly signature: KeptSignatures;
  readonly signer: Uint32Array;
  readonly program: Uint32Array;
  readonly keys: AccountKeys;
}

/** The per-transaction columns of FeeColumns: the one list of them here. */
type FeeColumn = Exclude<keyof BlockColumns, 'slots' | 'offsets'>;
type FeeArray = Uint8Array | Uint32Array | BigUint64Array;
const FEE_COLUMNS: readonly FeeColumn[] = ['computeUnitPrice', 'priorityFee', 'computeUnitLimit', 'computeUnitsConsumed', 'consumedKnown', 'index'];

/** Every fee column, each made by `make`. */
function feeColumns(make: (name: FeeColumn) => FeeArray): Pick<BlockColumns, FeeColumn> {
  return Object.fromEntries(FEE_COLUMNS.map((name) => [name, make(name)])) as Pick<BlockColumns, FeeColumn>;
}

/** The kept rows' text as kept: the signers and programs interned into `keys`. */
function* keptText(text: RowText, keys: AccountKeys): Steps<KeptText> {
  return {
    signature: keepSignatures(text.signature),
    signer: yield* keys.internValues(text.signer),
    program: yield* keys.internValues(text.program),
    keys,
  };
}

/** Kept texts from..to of `text` (`copy`: in arrays of their own). */
function sliceText(text: KeptText, from: number, to: number, copy: boolean): KeptText {
  const part = (ids: Uint32Array) => (copy ? ids.slice(from, to) : ids.subarray(from, to));
  return { signature: sliceSignatures(text.signature, from, to, copy), signer: part(text.signer), program: part(text.program), keys: text.keys };
}

/** `text` with its ids moved to `keys`. */
function movedText(text: KeptText, keys: AccountKeys, move: IdMove): KeptText {
  return { ...text, signer: move(text.signer), program: move(text.program), keys };
}

/** `text` with its ids in `keys` (interned before the store compacted its dictionary). */
const adoptText = (text: KeptText, keys: AccountKeys): KeptText =>
  (text.keys === keys ? text : movedText(text, keys, keysMoved(text.keys, keys, [text.signer, text.program])));

/**
 * A chunk's canonical transactions table as the store keeps it (`blockTime`: the time of each of
 * its slots; `forms`: its forms (transaction-forms.ts), when the caller already made them); its accounts
 * (the table's own column unless `accounts` says where they are) interned into `keys`, the store's
 * dictionary (`TransactionSegments.keys`: should the store compact it before this commit is
 * appended, the append moves the spans over), or left in their file.
 */
export function residentTransactions(...args: Parameters<typeof residentSteps>): ResidentTransactions {
  return runToEnd(residentSteps(...args));
}

/** `residentTransactions` as Steps: it may pause between slices of the accounts' interning (~1 ms a mainnet block). */
export function* residentSteps(
  table: Table, blockTime: (slot: bigint) => bigint, keys: AccountKeys = new AccountKeys(),
  forms: TransactionForms = transactionForms(table),
  accounts: ChunkAccounts = { lists: table.getChild('writable_accounts') },
  /** The kept rows' text (`keptRows(forms)`), when the table does not hold it (chunk-text.ts). */
  text?: RowText,
): Steps<ResidentTransactions> {
  const { columns, fees, nonVotes, votes, kept, keptOffsets } = forms;
  // the input rows of the non-votes, then of the votes: their accounts are taken in that order, then split
  const order = new Uint32Array(columns.row.length);
  order.set(gather(columns.row, nonVotes));
  order.set(gather(columns.row, votes), nonVotes.length);
  const both = 'file' in accounts
    ? { ...accounts, rows: gather(accounts.rows, order) }
    : yield* accountSpans(accounts.lists, accounts.rows ? gather(accounts.rows, order) : order, keys);
  const [nonVoteAccounts, voteAccounts] = splitAccounts(both, nonVotes.length);
  return {
    columns: fees,
    times: BigInt64Array.from(fees.slots, blockTime),
    accounts: nonVoteAccounts,
    voteAccounts,
    kept, keptOffsets,
    text: yield* keptText(text ?? tableText(table, keptRows(forms)), keys),
  };
}

/** Accounts of transactions [0, n) and [n, ..) of `a`, apart (views). */
function splitAccounts<A extends AccountSpans | FileAccounts>(a: A, n: number): [A, A];
function splitAccounts(a: AccountSpans | FileAccounts, n: number): [AccountSpans | FileAccounts, AccountSpans | FileAccounts] {
  if (inFile(a)) return [{ ...a, rows: a.rows.subarray(0, n) }, { ...a, rows: a.rows.subarray(n) }];
  const cut = a.offsets[n]!;
  return [
    { keys: a.keys, offsets: a.offsets.subarray(0, n + 1), ids: a.ids.subarray(0, cut) },
    { keys: a.keys, offsets: a.offsets.subarray(n).map((o) => o - cut), ids: a.ids.subarray(cut) },
  ];
}

/** The rows of `a`, then of `b` (of the same file), as one list. */
function joinAccounts(a: FileAccounts, b: FileAccounts): FileAccounts {
  const first = Math.min(a.first, b.first);
  const rows = new Uint32Array(a.rows.length + b.rows.length);
  a.rows.forEach((row, i) => (rows[i] = a.first - first + row));
  b.rows.forEach((row, i) => (rows[a.rows.length + i] = b.first - first + row));
  return { file: a.file, first, rows };
}

/** The key lists of rows `order` of `vector` as spans of ids in `keys` (interned from the UTF-8 bytes, a kernel batch at a time). */
function* accountSpans(vector: Vector<List<Utf8>> | null, order: Uint32Array, keys: AccountKeys): Steps<AccountSpans> {
  const offsets = new Uint32Array(order.length + 1);
  if (!vector || vector.nullCount === vector.length) return { keys, offsets, ids: new Uint32Array(0) };
  // each data chunk's keys interned in their order, then taken row by row in `order`
  const chunks: { data: Data<List<Utf8>>; ids: Uint32Array }[] = [];
  const starts = new Uint32Array(vector.data.length + 1);
  let total = 0;
  for (const [k, data] of vector.data.entries()) {
    starts[k + 1] = starts[k]! + data.length;
    const lists = data.valueOffsets as Int32Array;
    const child = data.children[0]!;
    const bytes = child.values as Uint8Array;
    const keyOffsets = child.valueOffsets as Int32Array;
    const first = lists[0]!;
    const ids = new Uint32Array(lists[data.length]! - first);
    for (let at = first; at < lists[data.length]!; at += KEY_BATCH) {
      keys.internBatch(bytes, keyOffsets, at, Math.min(lists[data.length]!, at + KEY_BATCH), ids, at - first);
      yield;
    }
    chunks.push({ data, ids });
    total += ids.length;
  }
  const ids = new Uint32Array(total);
  let at = 0;
  let k = 0; // the chunk of the previous row: rows come in order unless the input was not sorted
  for (let i = 0; i < order.length; i++) {
    const row = order[i]!;
    if (row < starts[k]! || row >= starts[k + 1]!) k = lowerBound(starts, row + 1) - 1;
    const { data, ids: interned } = chunks[k]!;
    const local = row - starts[k]!;
    if (data.nullCount === 0 || data.getValid(local)) {
      const lists = data.valueOffsets as Int32Array;
      for (let j = lists[local]! - lists[0]!, end = lists[local + 1]! - lists[0]!; j < end; j++) ids[at++] = interned[j]!;
    }
    offsets[i + 1] = at;
  }
  return { keys, offsets, ids: at === total ? ids : ids.slice(0, at) };
}

/** The spans with their ids in `keys` (a commit interned before the store compacted its dictionary). */
function adoptAccounts<A extends AccountSpans | FileAccounts>(spans: A, keys: AccountKeys): A;
function adoptAccounts(spans: AccountSpans | FileAccounts, keys: AccountKeys): AccountSpans | FileAccounts {
  if (inFile(spans) || spans.keys === keys) return spans;
  return { keys, offsets: spans.offsets, ids: keysMoved(spans.keys, keys, [spans.ids])(spans.ids) };
}

/** Non-vote transactions held (rows of the columns). */
const rowsOf = (r: TransactionsView): number => r.columns.offsets[r.columns.slots.length]!;

/**
 * Blocks [from, to) of `r`: views of its columns, or (`copy`) columns of their own, so that what
 * is left out can be freed (a cut by retention).
 */
function sliceBlocks(r: ResidentTransactions, from: number, to: number, copy = false): ResidentTransactions {
  const c = r.columns;
  const first = c.offsets[from]!;
  const last = c.offsets[to]!;
  const keptFirst = r.keptOffsets[from]!;
  const keptLast = r.keptOffsets[to]!;
  return {
    columns: {
      slots: c.slots.slice(from, to),
      offsets: c.offsets.slice(from, to + 1).map((o) => o - first),
      ...feeColumns((name) => (copy ? c[name].slice(first, last) : c[name].subarray(first, last))),
      votes: sliceVotes(c.votes, from, to, copy),
    },
    times: r.times.slice(from, to),
    accounts: sliceAccounts(r.accounts, first, last, copy),
    voteAccounts: sliceAccounts(r.voteAccounts, c.votes.offsets[from]!, c.votes.offsets[to]!, copy),
    kept: r.kept.slice(keptFirst, keptLast).map((i) => i - first),
    keptOffsets: r.keptOffsets.slice(from, to + 1).map((o) => o - keptFirst),
    text: sliceText(r.text, keptFirst, keptLast, copy),
  };
}

/** Transactions [first, last) of `a` (`copy`: in arrays of their own). */
function sliceAccounts(a: AccountSpans | FileAccounts, first: number, last: number, copy: boolean): AccountSpans | FileAccounts {
  if (inFile(a)) return { ...a, rows: copy ? a.rows.slice(first, last) : a.rows.subarray(first, last) };
  const idsFirst = a.offsets[first]!;
  const idsLast = a.offsets[last]!;
  return {
    keys: a.keys,
    offsets: a.offsets.slice(first, last + 1).map((o) => o - idsFirst),
    ids: copy ? a.ids.slice(idsFirst, idsLast) : a.ids.subarray(idsFirst, idsLast),
  };
}

/** The store's resident transactions, appended a commit at a time in slot order. */
export class TransactionSegments {
  #segments: ResidentTransactions[] = [];
  #firstTime: bigint | undefined;
  /** The account keys every segment's spans index. */
  #keys = new AccountKeys();
  /** When the dictionary is worth compacting (its keys in use counted once it could be). */
  readonly #compaction = new KeyCompaction();
  /** Segments whose accounts are being read back from their file. */
  #reading = new WeakMap<ResidentTransactions, Promise<SpannedTransactions>>();

  /** The dictionary a commit's accounts are interned into (replaced when compacted). */
  get keys(): AccountKeys {
    return this.#keys;
  }

  /**
   * Adds a commit's transactions (the pipeline commits blocks in slot order; an older commit is
   * placed before newer ones); spans interned into a dictionary since compacted move to the new one.
   */
  append(commit: ResidentTransactions): void {
    const slots = commit.columns.slots;
    if (slots.length === 0) return;
    const transactions = {
      ...commit, accounts: adoptAccounts(commit.accounts, this.#keys), voteAccounts: adoptAccounts(commit.voteAccounts, this.#keys),
      text: adoptText(commit.text, this.#keys),
    };
    if (this.#firstTime === undefined || commit.times[0]! < this.#firstTime) this.#firstTime = commit.times[0]!;
    let at = this.#segments.length;
    while (at > 0 && this.#segments[at - 1]!.columns.slots[0]! > slots[0]!) at--;
    this.#segments.splice(at, 0, transactions);
  }

  /** The newest block held with a time before `at` (the newest of all when omitted). */
  newestBefore(at?: bigint): { slot: bigint; timestamp: bigint } | undefined {
    // the last segment whose first block is before `at` holds it (block times never go back)
    const k = at === undefined ? this.#segments.length - 1 : lowerBoundBy(this.#segments, (s) => s.times[0]!, at) - 1;
    const segment = this.#segments[k];
    if (!segment) return undefined;
    const n = at === undefined ? segment.times.length : lowerBound(segment.times, at);
    return { slot: segment.columns.slots[n - 1]!, timestamp: segment.times[n - 1]! };
  }

  /** The first slot held whose block time is `time` or later (block times never go back), if any. */
  firstSlotFrom(time: bigint): bigint | undefined {
    const k = lowerBoundBy(this.#segments, (s) => s.times[s.times.length - 1]!, time);
    const segment = this.#segments[k];
    return segment && segment.columns.slots[lowerBound(segment.times, time)];
  }

  /** The time of the first block ever held (pruned since or not). */
  get firstTime(): bigint | undefined {
    return this.#firstTime;
  }

  /**
   * The blocks of slots first..last (inclusive) where they are held, in slot order: no copy; their
   * accounts as spans (those left in a file read back and interned first, once).
   */
  async ranges(first: bigint, last: bigint): Promise<SegmentRange[]> {
    return Promise.all(this.#held(first, last).map(async ({ segment, from, to }) =>
      ({ segment: inFile(segment.accounts) ? await this.#spanned(segment) : segment as SpannedTransactions, from, to })));
  }

  /** The blocks of slots first..last (inclusive) where they are held, in slot order: no copy, their accounts as they are. */
  held(first: bigint, last: bigint): BlockRange[] {
    return this.#held(first, last);
  }

  /** `held`, with each segment's accounts. */
  #held(first: bigint, last: bigint): BlockRange<ResidentTransactions>[] {
    const out = [];
    for (const segment of this.#segments) {
      const slots = segment.columns.slots;
      if (slots[slots.length - 1]! < first || slots[0]! > last) continue;
      const from = lowerBound(slots, first);
      const to = lowerBound(slots, last + 1n);
      if (to > from) out.push({ segment, from, to });
    }
    return out;
  }

  /** A segment whose accounts are in their file, with them read back (one read however many ask). */
  #spanned(segment: ResidentTransactions): Promise<SpannedTransactions> {
    let reading = this.#reading.get(segment);
    if (!reading) {
      reading = this.#readAccounts(segment);
      this.#reading.set(segment, reading);
      reading.catch(() => this.#reading.delete(segment)); // a failed read is tried again by the next reader
    }
    return reading;
  }

  async #readAccounts(segment: ResidentTransactions): Promise<SpannedTransactions> {
    // the non-votes' lists and the votes' in one read
    const { lists, rows } = await readBack(joinAccounts(segment.accounts as FileAccounts, segment.voteAccounts as FileAccounts));
    const spans = await new TimeSlices().run(accountSpans(lists, rows, this.#keys));
    const [accounts, voteAccounts] = splitAccounts(spans, rowsOf(segment));
    // kept where the segment still is (retention may have cut it meanwhile), in the dictionary of now
    const read: SpannedTransactions = {
      ...segment, accounts: adoptAccounts(accounts, this.#keys), voteAccounts: adoptAccounts(voteAccounts, this.#keys), text: adoptText(segment.text, this.#keys),
    };
    const at = this.#segments.indexOf(segment);
    if (at >= 0) this.#segments[at] = read;
    return read;
  }

  /** Drops the transactions of blocks before `cutNs` (block time); the account keys too once most are no longer used. */
  pruneBefore(cutNs: bigint): void {
    this.#segments = this.#segments.flatMap((segment) => {
      const blocks = segment.times.length;
      const from = lowerBound(segment.times, cutNs); // block times never go back (docs/semantics.md)
      if (from === blocks) return [];
      if (from === 0) return [segment];
      return [sliceBlocks(segment, from, blocks, true)];
    });
    this.#compactKeys();
  }

  /**
   * Moves the segments to a dictionary of the keys they use when those are under half of it
   * (new id arrays: a reader holding older segments keeps their ids and dictionary).
   */
  #compactKeys(): void {
    const compacted = this.#compaction.compact(this.#keys, () => this.#segments.flatMap((s) => [
      ...[s.accounts, s.voteAccounts].flatMap((a) => (inFile(a) ? [] : [a.ids])), s.text.signer, s.text.program,
    ]));
    if (!compacted) return;
    const { keys, move } = compacted;
    this.#keys = keys;
    const moved = (a: AccountSpans | FileAccounts) => (inFile(a) ? a : { keys, offsets: a.offsets, ids: move(a.ids) });
    this.#segments = this.#segments.map((s) => ({ ...s, accounts: moved(s.accounts), voteAccounts: moved(s.voteAccounts), text: movedText(s.text, keys, move) }));
  }

  /** Transactions held, votes included. */
  get rows(): number {
    return this.#segments.reduce((n, s) => n + rowsOf(s) + voteCount(s.columns.votes), 0);
  }
}
