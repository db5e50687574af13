/**
 * chain::priorityfee::top_txs for streams: the top list of the trailing 5 minutes kept up to date
 * block by block, so that a push after each block costs O(candidates) and not a scan of the window.
 * It runs only while the method is streamed (a StreamActivator): started between commits from the
 * store's copy of the current window, stopped with the last subscription.
 *
 * Candidates: an entry can only ever be in the top CAP again while fewer than CAP entries that rank
 * above it will still be in the window when it leaves (entries of its own or a later block: they
 * expire no earlier). So each candidate counts such "dominators" and is dropped at CAP; of each new
 * block only its own top CAP can ever count. The list stays small (about CAP x ln(blocks in the
 * window) for random fees) and is exactly the store query's answer, ties included: order by
 * priority fee, then slot, then index, all descending.
 */
import type { ChunkEffect, ChunkObserver, ChunkView } from '../ingest/pipeline.js';
import { windowNanos } from '../schema/time.js';
import { sqlInteger } from '../store/sql.js';
import type { Store } from '../store/store.js';
import type { StreamActivator } from '../stream/hub.js';
import type { StreamUpdate } from '../stream/updates.js';
import { newestFeeBlock, windowSlots } from './store-queries.js';
import { rowToTopEntry, topTransactionRecord, TOP_TRANSACTIONS_CAP, type TopEntry } from './top-transactions.js';

const METHOD = 'chain::priorityfee::top_txs';
const WINDOW = '5m';
const CAP = TOP_TRANSACTIONS_CAP;

interface Candidate extends TopEntry {
  /** Entries ranking above this one that leave the window no earlier. */
  dominators: number;
}

/** Rank order: priority fee, slot, index, all descending. */
const ranksAbove = (a: TopEntry, b: TopEntry): boolean =>
  a.fee !== b.fee ? a.fee > b.fee : a.slot !== b.slot ? a.slot > b.slot : a.index > b.index;

/** The streamed top list; see the module comment. */
export class TopTransactionsTracker implements ChunkObserver, StreamActivator {
  readonly method = METHOD;
  readonly #windowNs = windowNanos(WINDOW);
  #active = false;
  /** Best first. */
  #candidates: Candidate[] = [];

  constructor(private readonly store: () => Store | undefined) {}

  /** Loads the current window's candidates from the store (runs between commits). */
  async start(): Promise<void> {
    this.#candidates = [];
    const store = this.store();
    const newest = store && (await newestFeeBlock(store));
    if (store && newest) {
      const end = newest.timestamp + 1n;
      const rows = await store.rows(
        `SELECT t.signature, t.signer, t.program, t.slot, t."index", b."timestamp", t.compute_unit_price, t.compute_unit_limit,` +
          ` t.compute_units_consumed, t.priority_fee FROM transactions t JOIN blocks b ON b.slot = t.slot` +
          ` WHERE ${await windowSlots(store, end - this.#windowNs, newest, 't.slot')} AND t.compute_unit_price > 0 AND NOT t.is_vote` +
          ` QUALIFY row_number() OVER (PARTITION BY t.slot ORDER BY t.priority_fee DESC, t."index" DESC) <= ${sqlInteger(BigInt(CAP))}` +
          ` ORDER BY t.slot, t.priority_fee DESC, t."index" DESC`,
      );
      const entries = rows.map(rowToTopEntry);
      for (let i = 0; i < entries.length; ) {
        let j = i + 1;
        while (j < entries.length && entries[j]!.slot === entries[i]!.slot) j++;
        this.#advance(entries.slice(i, j));
        this.#expire(entries[i]!.timestamp + 1n);
        i = j;
      }
      this.#expire(end);
    }
    this.#active = true;
  }

  stop(): void {
    this.#active = false;
    this.#candidates = [];
  }

  prepare(chunk: ChunkView): ChunkEffect {
    const columns = chunk.transactionColumns;
    if (!this.#active || !columns || !chunk.transactions) return { records: [], apply() {} };
    const table = chunk.transactions;
    const text = (name: string) => table.getChild(name)!;
    const [signature, signer, program] = [text('signature'), text('signer'), text('program')];
    const times = new Map(chunk.blocks.map((b) => [b.slot, b.timestamp]));
    const updates: StreamUpdate[] = [];
    for (let b = 0; b < columns.slots.length; b++) {
      const slot = columns.slots[b]!;
      const time = times.get(slot)!;
      const rows: number[] = [];
      for (let i = columns.offsets[b]!; i < columns.offsets[b + 1]!; i++) {
        if (!columns.isVote[i] && columns.computeUnitPrice[i]! > 0n) rows.push(i);
      }
      rows.sort((x, y) => {
        const fx = columns.priorityFee[x]!;
        const fy = columns.priorityFee[y]!;
        return fx !== fy ? (fx > fy ? -1 : 1) : columns.index[y]! - columns.index[x]!;
      });
      const entries = rows.slice(0, CAP).map((i): TopEntry => {
        const row = columns.row[i]!;
        return {
          signature: signature.get(row), signer: signer.get(row), program: program.get(row), slot, index: columns.index[i]!,
          timestamp: time, price: columns.computeUnitPrice[i]!, limit: columns.computeUnitLimit[i]!,
          consumed: columns.computeUnitsConsumed[i]!, fee: columns.priorityFee[i]!,
        };
      });
      this.#advance(entries);
      const end = time + 1n;
      this.#expire(end);
      const records = this.#candidates.slice(0, CAP).map((e) => topTransactionRecord(e, WINDOW, this.#windowNs, end));
      updates.push({ method: METHOD, slot, timestamp: time, records });
    }
    return { records: [], apply: () => updates };
  }

  /** Takes a block's entries: its best CAP, best first, in a slot above every candidate's. */
  #advance(entries: readonly TopEntry[]): void {
    if (entries.length > 0) {
      // a new block's entries rank above a candidate when their fee is at least its fee (their slot is higher)
      const kept: Candidate[] = [];
      for (const c of this.#candidates) {
        let lo = 0;
        let hi = entries.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (entries[mid]!.fee >= c.fee) lo = mid + 1;
          else hi = mid;
        }
        c.dominators += lo;
        if (c.dominators < CAP) kept.push(c);
      }
      const fresh = entries.map((e, i): Candidate => ({ ...e, dominators: i }));
      const merged: Candidate[] = [];
      let i = 0;
      let j = 0;
      while (i < kept.length || j < fresh.length) {
        if (j >= fresh.length || (i < kept.length && ranksAbove(kept[i]!, fresh[j]!))) merged.push(kept[i++]!);
        else merged.push(fresh[j++]!);
      }
      this.#candidates = merged;
    }
  }

  /** Drops the candidates of blocks before the window ending at `end`. */
  #expire(end: bigint): void {
    const start = end - this.#windowNs;
    if (this.#candidates.some((c) => c.timestamp < start)) this.#candidates = this.#candidates.filter((c) => c.timestamp >= start);
  }
}
