/**
 * Aligns the per-table streams of a dump by slot, so that every chunk handed to the pipeline holds
 * whole blocks (a block's transactions and trades come from different files). Each stream is read
 * batch by batch; rows are released once every other stream has read past their slot. Memory stays
 * bounded by about one batch per stream, as long as each file is ordered by slot (the generator
 * writes them so); rows of a slot that was already released are left to the pipeline to reject.
 */
import type { Table } from 'apache-arrow';
import { rowsToTable, tableToRows } from './arrow.js';
import type { ValidatedBatch } from './validate.js';
import { lowerBound } from '../windows/lower-bound.js';
import { compareU64, wordsOf } from '../schema/u64-words.js';

interface StreamState {
  iterator: AsyncIterator<ValidatedBatch>;
  pending: ValidatedBatch[];
  /** Highest slot read so far; every row with a lower slot has been read from this stream. */
  frontier: bigint;
  done: boolean;
}

const INFINITE = 1n << 64n;

/** Yields chunks of batches in which no slot is split across chunks. */
export async function* mergeBySlot(streams: readonly AsyncIterable<ValidatedBatch>[]): AsyncGenerator<ValidatedBatch[]> {
  const states: StreamState[] = streams.map((s) => ({ iterator: s[Symbol.asyncIterator](), pending: [], frontier: -1n, done: false }));
  for (;;) {
    const open = states.filter((s) => !s.done);
    if (open.length === 0) break;
    // pull from the stream that lags the most, so the others never run far ahead
    const lagging = open.reduce((a, b) => (b.frontier < a.frontier ? b : a));
    const next = await lagging.iterator.next();
    if (next.done) lagging.done = true;
    else {
      lagging.pending.push(next.value);
      // rows without a slot (tokens) do not move the frontier: a tokens-only stream is read to its end first
      const maxSlot = slotColumn(next.value.rows)?.max;
      if (maxSlot !== undefined && maxSlot > lagging.frontier) lagging.frontier = maxSlot;
    }
    const safe = states.reduce((m, s) => (s.done ? m : s.frontier < m ? s.frontier : m), INFINITE);
    const chunk = states.flatMap((s) => release(s, safe));
    if (chunk.length > 0) yield chunk;
  }
}

/** Takes from a stream's pending batches every row with slot < safe (all rows once `safe` is infinite). */
function release(state: StreamState, safe: bigint): ValidatedBatch[] {
  const out: ValidatedBatch[] = [];
  const keep: ValidatedBatch[] = [];
  for (const batch of state.pending) {
    const bounds = slotColumn(batch.rows);
    if (safe === INFINITE || bounds === null || bounds.max < safe) out.push(batch);
    else if (bounds.min >= safe) keep.push(batch);
    else {
      const [before, after] = splitBatch(batch, safe);
      out.push(before);
      keep.push(after);
    }
  }
  state.pending = keep;
  return out;
}

/** A batch's slot column, read once: its values, bounds and whether they ascend. */
interface SlotColumn {
  slots: BigUint64Array;
  min: bigint;
  max: bigint;
  sorted: boolean;
}

const slotColumns = new WeakMap<Table, SlotColumn | null>();

/** The slot column of a batch's rows (null for a table without slots, or no rows). */
function slotColumn(rows: Table): SlotColumn | null {
  let known = slotColumns.get(rows);
  if (known !== undefined) return known;
  const column = rows.getChild('slot');
  known = null;
  if (column && rows.numRows > 0) {
    const slots = column.toArray() as BigUint64Array;
    const words = wordsOf(slots);
    let sorted = true;
    for (let i = 1; i < slots.length && sorted; i++) sorted = compareU64(words, i, i - 1) >= 0;
    // in slot order (as dumps are) the bounds are the ends; else one more pass finds them
    let min = 0;
    let max = slots.length - 1;
    if (!sorted) {
      max = 0;
      for (let i = 1; i < slots.length; i++) {
        if (compareU64(words, i, min) < 0) min = i;
        if (compareU64(words, i, max) > 0) max = i;
      }
    }
    known = { slots, min: slots[min]!, max: slots[max]!, sorted };
  }
  slotColumns.set(rows, known);
  return known;
}

/** Splits a batch into rows with slot < safe and the rest; rejections and read counts go with the first. */
function splitBatch(batch: ValidatedBatch, safe: bigint): [ValidatedBatch, ValidatedBatch] {
  const { slots, sorted } = slotColumn(batch.rows)!;
  const numbers = batch.rowNumbers;
  let before: { rows: Table; rowNumbers?: ValidatedBatch['rowNumbers'] };
  let after: typeof before;
  if (sorted) {
    // slot order (as dumps are): a cut, no row copied
    const cut = lowerBound(slots, safe);
    before = { rows: batch.rows.slice(0, cut), rowNumbers: numbers?.slice(0, cut) };
    after = { rows: batch.rows.slice(cut), rowNumbers: numbers?.slice(cut) };
  } else {
    const all = tableToRows(batch.table, batch.rows);
    const pick = (take: (i: number) => boolean) => {
      const index: number[] = [];
      for (let i = 0; i < slots.length; i++) if (take(i)) index.push(i);
      return { rows: rowsToTable(batch.table, index.map((i) => all[i]) as never[]), rowNumbers: numbers ? index.map((i) => numbers[i]!) : undefined };
    };
    before = pick((i) => slots[i]! < safe);
    after = pick((i) => slots[i]! >= safe);
  }
  return [
    { ...batch, rows: before.rows, rowNumbers: before.rowNumbers, read: batch.read - after.rows.numRows },
    { table: batch.table, source: batch.source, rows: after.rows, rowNumbers: after.rowNumbers, read: after.rows.numRows, rejections: [], ...(batch.deferred ? { deferred: batch.deferred } : {}) },
  ];
}
