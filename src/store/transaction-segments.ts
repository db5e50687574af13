/**
 * The raw transactions, resident as Arrow columns: one segment per commit, in slot order, found by
 * slot range with a binary search. They are nearly all the rows a dump holds and only the as-of
 * fee windows and top transactions read them back, a slot range at a time; kept out of DuckDB-WASM,
 * a commit costs no insert and the rows no copy into its 32-bit heap. Retention drops whole
 * segments (and trims the one it cuts through).
 */
import { Table } from 'apache-arrow';
import { arrowSchema, conformTable, rowsToTable, tableToRows } from '../ingest/arrow.js';

interface Segment {
  /** Canonical transactions table, rows ordered by (slot, index). */
  table: Table;
  /** Its slot column. */
  slots: BigUint64Array;
}

/** First row of `slots` (ascending) whose slot is >= `slot`. */
function lowerBound(slots: BigUint64Array, slot: bigint): number {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slots[mid]! < slot) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `table` with its rows ordered by (slot, index): the same table when they already are. */
function inSlotOrder(table: Table): Table {
  const slots = table.getChild('slot')!.toArray() as BigUint64Array;
  const index = table.getChild('index')!.toArray() as Uint32Array;
  let sorted = true;
  for (let i = 1; i < slots.length && sorted; i++) sorted = slots[i - 1]! < slots[i]! || (slots[i - 1] === slots[i] && index[i - 1]! <= index[i]!);
  if (sorted) return table;
  const rows = tableToRows('transactions', table);
  rows.sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : a.index - b.index));
  return rowsToTable('transactions', rows);
}

/** The store's raw transactions, appended a commit at a time in slot order. */
export class TransactionSegments {
  #segments: Segment[] = [];

  /** Adds a commit's transactions (a canonical table), kept in slot order (the pipeline commits blocks in slot order). */
  append(table: Table): void {
    if (table.numRows === 0) return;
    const ordered = inSlotOrder(conformTable('transactions', table));
    const segment = { table: ordered, slots: ordered.getChild('slot')!.toArray() as BigUint64Array };
    let at = this.#segments.length;
    while (at > 0 && this.#segments[at - 1]!.slots[0]! > segment.slots[0]!) at--;
    this.#segments.splice(at, 0, segment);
  }

  /** The transactions of slots first..last (inclusive), ordered by (slot, index), as one table. */
  between(first: bigint, last: bigint): Table {
    const parts: Table[] = [];
    for (const { table, slots } of this.#segments) {
      if (slots[slots.length - 1]! < first || slots[0]! > last) continue;
      const from = lowerBound(slots, first);
      const to = lowerBound(slots, last + 1n);
      if (to > from) parts.push(from === 0 && to === slots.length ? table : table.slice(from, to));
    }
    return new Table(arrowSchema('transactions'), parts.flatMap((t) => t.batches));
  }

  /** Drops the transactions of slots <= `last`. */
  pruneThrough(last: bigint): void {
    this.#segments = this.#segments.flatMap((segment) => {
      const { table, slots } = segment;
      if (slots[slots.length - 1]! <= last) return [];
      if (slots[0]! > last) return [segment];
      const cut = lowerBound(slots, last + 1n);
      const kept = table.slice(cut);
      return [{ table: kept, slots: slots.subarray(cut) }];
    });
  }

  /** Transactions held. */
  get rows(): number {
    return this.#segments.reduce((n, s) => n + s.table.numRows, 0);
  }
}
