/**
 * A chunk of validated batches (whole blocks, as the dump readers and `ingest` make them) cut into
 * one unit per block, so that a replay can release blocks one at a time on its clock. A unit is
 * what one block contributes to each table; the rows of a table with no slot (tokens) make a unit
 * of their own, released at once.
 */
import type { Table } from 'apache-arrow';
import { rowsToTable, tableToRows } from '../ingest/arrow.js';
import type { ValidatedBatch } from '../ingest/validate.js';

/** One block's batches (or the slot-less rows of a chunk), with the block's time when known. */
export interface ReplayUnit {
  /** Undefined for rows without a slot (tokens) and for batches whose rows were all rejected. */
  slot?: bigint;
  /** The block's time (its block row's, else its trades'), ns. */
  time?: bigint;
  batches: ValidatedBatch[];
  /** Valid rows in the unit. */
  rows: number;
}

/** Where a piece came from: rows [start, end) of a batch in slot order (so that neighbours can be joined again). */
interface Span {
  origin: ValidatedBatch;
  start: number;
  end: number;
}

const spans = new WeakMap<ValidatedBatch, Span>();

/** Cuts a chunk into units: first the slot-less rows, then one unit per slot, ascending. */
export function splitBlocks(batches: readonly ValidatedBatch[]): ReplayUnit[] {
  const loose: ValidatedBatch[] = [];
  const bySlot = new Map<bigint, ValidatedBatch[]>();
  for (const batch of batches) {
    const slots = batch.rows.getChild('slot')?.toArray() as BigUint64Array | undefined;
    if (!slots || batch.rows.numRows === 0) {
      loose.push(batch);
      continue;
    }
    let first = true;
    for (const [slot, piece] of piecesBySlot(batch, slots)) {
      // the batch's rejected rows travel with its first piece, so that read = rows + rejections per piece
      const part: ValidatedBatch = first ? { ...piece, read: piece.rows.numRows + batch.rejections.length, rejections: batch.rejections } : piece;
      if (first && spans.has(piece)) spans.set(part, spans.get(piece)!);
      first = false;
      const list = bySlot.get(slot) ?? [];
      bySlot.set(slot, list);
      list.push(part);
    }
  }
  const units: ReplayUnit[] = [];
  if (loose.length > 0) units.push({ batches: loose, rows: count(loose) });
  const slots = [...bySlot.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const slot of slots) {
    const unit = bySlot.get(slot)!;
    units.push({ slot, time: blockTime(unit), batches: unit, rows: count(unit) });
  }
  return units;
}

/**
 * The batches of consecutive units to commit together: pieces cut from one batch are joined back
 * into one slice of it (a commit of many blocks then costs what the chunk would have cost).
 */
export function joinUnits(units: readonly ReplayUnit[]): ValidatedBatch[] {
  type Run = { at: number; start: number; end: number; parts: ValidatedBatch[] };
  const out: ValidatedBatch[] = [];
  const runs = new Map<ValidatedBatch, Run>();
  const finish = (origin: ValidatedBatch, { at, start, end, parts }: Run) => {
    if (parts.length === 1) return;
    out[at] = {
      table: origin.table,
      source: origin.source,
      rows: origin.rows.slice(start, end),
      read: parts.reduce((n, p) => n + p.read, 0),
      rowNumbers: origin.rowNumbers?.slice(start, end),
      rejections: parts.flatMap((p) => p.rejections),
      ...(origin.deferred ? { deferred: origin.deferred } : {}),
    };
  };
  for (const unit of units) {
    for (const batch of unit.batches) {
      const span = spans.get(batch);
      if (!span) {
        out.push(batch);
        continue;
      }
      const run = runs.get(span.origin);
      if (run && span.start === run.end) {
        run.end = span.end;
        run.parts.push(batch);
        continue;
      }
      if (run) finish(span.origin, run);
      runs.set(span.origin, { at: out.length, start: span.start, end: span.end, parts: [batch] });
      out.push(batch);
    }
  }
  for (const [origin, run] of runs) finish(origin, run);
  return out;
}

const count = (batches: readonly ValidatedBatch[]) => batches.reduce((n, b) => n + b.rows.numRows, 0);

function blockTime(batches: readonly ValidatedBatch[]): bigint | undefined {
  // the column's values, not get(): a Timestamp vector's get() answers in milliseconds
  const time = (table: string) => (batches.find((b) => b.table === table)?.rows.getChild('timestamp')?.toArray() as BigInt64Array | undefined)?.[0];
  return time('blocks') ?? time('trades');
}

/** The rows of each slot of a batch (slices when the batch is in slot order, which dumps usually are). */
function piecesBySlot(batch: ValidatedBatch, slots: BigUint64Array): [bigint, ValidatedBatch][] {
  const piece = (rows: Table, index: (i: number) => number, n: number): ValidatedBatch => ({
    table: batch.table,
    source: batch.source,
    rows,
    read: n,
    rowNumbers: batch.rowNumbers ? Array.from({ length: n }, (_, i) => batch.rowNumbers![index(i)]!) : undefined,
    rejections: [],
    // columns left in the file stay there: a piece's rows keep their row numbers in it
    ...(batch.deferred ? { deferred: batch.deferred } : {}),
  });
  let sorted = true;
  for (let i = 1; i < slots.length && sorted; i++) sorted = slots[i - 1]! <= slots[i]!;
  const out: [bigint, ValidatedBatch][] = [];
  if (sorted) {
    for (let start = 0; start < slots.length; ) {
      let end = start + 1;
      while (end < slots.length && slots[end] === slots[start]) end++;
      const part = piece(batch.rows.slice(start, end), (i) => start + i, end - start);
      spans.set(part, { origin: batch, start, end });
      out.push([slots[start]!, part]);
      start = end;
    }
    return out;
  }
  const rows = tableToRows(batch.table, batch.rows);
  const groups = new Map<bigint, number[]>();
  slots.forEach((slot, i) => {
    const group = groups.get(slot) ?? [];
    groups.set(slot, group);
    group.push(i);
  });
  for (const [slot, index] of groups) {
    out.push([slot, piece(rowsToTable(batch.table, index.map((i) => rows[i]) as never[]), (i) => index[i]!, index.length)]);
  }
  return out;
}
