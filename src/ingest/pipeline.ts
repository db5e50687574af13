/**
 * The one ingest path for dumps and live data. Validated canonical batches come in; each call
 * commits its blocks in one store transaction (so every block is queryable entirely or not at
 * all), in slot order, after the checks that need several tables at once. Per slot it records the
 * timings that `chain::market::ingestion` answers with.
 *
 * A commit lets the event loop run between its stages (each engine's prepare, the store write), so
 * a request that arrives meanwhile waits for one stage, not for the whole commit. The store write
 * is not awaited: the database works in its own thread while the next chunk is prepared (at most
 * MAX_WRITES_BEHIND commits behind; before it starts, the store holds the writes), and every
 * engine publishes its live state in `apply`, all in one synchronous stretch with the store's
 * commit, which makes the chunk's transactions readable. Readers never see part of a chunk: a
 * database read queued after the publication runs after the chunk's write, and the store's queue
 * keeps its transaction whole.
 */
import { Table } from 'apache-arrow';
import { recordId } from '../schema/ids.js';
import { Ingestion, type IngestionRecord } from '../schema/records.js';
import type { TableName } from '../schema/tables.js';
import type { CommitUnit, RecordRows, Store } from '../store/store.js';
import { residentSteps, type ResidentTransactions } from '../store/transaction-segments.js';
import { chunkAccounts, type RowOrigins } from './chunk-accounts.js';
import type { StreamDemand, StreamUpdate } from '../stream/updates.js';
import { rowsToTable, tableToRows } from './arrow.js';
import { lacksPriorityFees, transactionNumbers, withPriorityFees, type ChunkTransactions, type TransactionNumbers } from './block-columns.js';
import { keptRows, transactionForms, type TransactionForms } from './transaction-forms.js';
import { chunkText, textInFile, withText, type RowText } from './chunk-text.js';
import type { FeeColumns } from './fee-columns.js';
import { TimeSlices, yieldToEventLoop } from '../platform/event-loop.js';
import { lowerBound } from '../windows/lower-bound.js';
import { repeatedRows } from './repeated-rows.js';
import { sameU64, wordsOf } from '../schema/u64-words.js';
import type { Rejection, ValidatedBatch } from './validate.js';

/** What an ingest or a load did: counts reconcile as read = ingested + rejected. */
export interface IngestReport {
  read: number;
  ingested: number;
  rejected: number;
  /** Blocks (slots) committed. */
  blocks: number;
  rejections: Rejection[];
  warnings: string[];
}

export const emptyReport = (): IngestReport => ({ read: 0, ingested: 0, rejected: 0, blocks: 0, rejections: [], warnings: [] });

/** Adds `part` into `total`. */
export function mergeReport(total: IngestReport, part: IngestReport): IngestReport {
  total.read += part.read;
  total.ingested += part.ingested;
  total.rejected += part.rejected;
  total.blocks += part.blocks;
  total.rejections.push(...part.rejections);
  total.warnings.push(...part.warnings);
  return total;
}

/** A chunk as the method engines see it, after the checks: whole blocks, in slot order. */
export interface ChunkView {
  /** The chunk's blocks (slots with a block row), ascending by slot; cuLimit null when the input has none. */
  blocks: readonly { slot: bigint; timestamp: bigint; cuLimit: bigint | null }[];
  /** The blocks' transactions, priority fees derived where the input left them out. */
  transactions?: Table;
  /** The same transactions as per-block typed columns, made once for every engine (do not transfer them). */
  transactionColumns?: ChunkTransactions;
  /** The same transactions as the store keeps them. */
  resident?: ResidentTransactions;
  /** Their fee columns as the store keeps them (the resident form's): the non-votes', the votes summarized. */
  feeColumns?: FeeColumns;
  trades?: Table;
  /** The token rows the chunk writes (upserted by mint). */
  tokens?: Table;
}

/** What the pipeline knows once a chunk is committed. */
export interface CommitInfo {
  /** Per slot of the chunk, ascending: its ingestion timings (chain::market::ingestion). */
  readonly timings: readonly IngestionRecord[];
}

/** What a method engine makes of a chunk: record rows to commit with it, and state to publish after. */
export interface ChunkEffect {
  records: RecordRows[];
  /**
   * Called once the chunk is committed: makes the engine's new live state visible (synchronously:
   * every engine's apply runs in one stretch). Returns, per block, the data points the streams
   * asked for (`StreamDemand`) that the chunk made new or changed. The pipeline always passes
   * `commit`; an engine driven by hand (a benchmark) may leave it out.
   */
  apply(commit?: CommitInfo): void | readonly StreamUpdate[];
}

/** A method engine fed by the pipeline, block by block in slot order. */
export interface ChunkObserver {
  prepare(chunk: ChunkView): ChunkEffect | Promise<ChunkEffect>;
}

/** Rows of one table in a chunk: the batches' rows one after another (where a row came from is looked up on an error). */
interface TablePart {
  table: Table;
  batches: ValidatedBatch[];
  /** Index of each batch's first row in `table`. */
  starts: number[];
  /** Where every row came from, once asked (the chunk's start and its commit both read it). */
  origins?: RowOrigins;
}

/** The source and row number of row i of a part. */
function origin(part: TablePart, i: number): { source: string; row: number } {
  const k = lowerBound(part.starts, i + 1) - 1; // the last batch starting at or before row i
  const batch = part.batches[k]!;
  return { source: batch.source, row: batch.rowNumbers?.[i - part.starts[k]!] ?? Number.NaN };
}

/** Where each row of a part's table came from once the rows `keep` drops are gone: its batch, and its row there. */
function rowOrigins(part: TablePart, keep: Uint8Array | undefined): RowOrigins {
  if (!keep && part.origins) return part.origins;
  const n = part.table.numRows;
  const batch = new Uint32Array(n);
  const local = new Uint32Array(n);
  let at = 0;
  for (let k = 0, i = 0; k < part.batches.length; k++) {
    for (let end = part.starts[k + 1] ?? n; i < end; i++) if (!keep || keep[i]) (batch[at] = k), (local[at++] = i - part.starts[k]!);
  }
  const origins = { batch: batch.subarray(0, at), local: local.subarray(0, at) };
  if (!keep) part.origins = origins;
  return origins;
}

/** Runs of equal consecutive values of a slot column: [slot, first row, end row) (one run per block when sorted). */
function slotRuns(slots: BigUint64Array): [bigint, number, number][] {
  const runs: [bigint, number, number][] = [];
  const words = wordsOf(slots);
  for (let i = 0; i < slots.length; ) {
    let j = i + 1;
    while (j < slots.length && sameU64(words, i, j)) j++;
    runs.push([slots[i]!, i, j]);
    i = j;
  }
  return runs;
}

/** What a committed chunk changed, for the streams. */
export interface CommittedChunk {
  /** Per block and method, in slot order. */
  updates: StreamUpdate[];
  /** The token rows the chunk wrote, if any. */
  tokens?: Table;
}

/** The streams' side of the pipeline: what is subscribed, and where committed changes go. */
export interface PipelineStreams {
  readonly demand: StreamDemand;
  /** Called after every commit, before `commit()` resolves; must not throw. */
  committed(chunk: CommittedChunk): Promise<void> | void;
}

/** Makes a chunk's transaction forms on another thread (the engine's kernel worker). */
export type FormsMaker = (numbers: TransactionNumbers) => Promise<TransactionForms>;

/** A chunk after `IngestPipeline.start`: its batches gathered by table, its transactions' forms under way. */
export interface StartedChunk {
  readonly batches: readonly ValidatedBatch[];
  readonly parts: Partial<Record<TableName, TablePart>>;
  /** The forms of the gathered transactions, every row (a commit that rejects some makes its own). */
  readonly forms?: Promise<TransactionForms>;
  /** The text of those forms' kept rows, where the table left it in its file (taken once the forms are made). */
  readonly text?: Promise<RowText>;
}

const INGESTION_METHOD = 'chain::market::ingestion';
/**
 * Commits whose store write may still be pending while the next one is prepared. A pending write
 * holds only what goes to DuckDB-WASM (blocks, trades, records: a few MB a chunk), so a few are
 * allowed: a load does not stall while the database starts.
 */
const MAX_WRITES_BEHIND = 8;
const TABLE_ORDER: readonly TableName[] = ['tokens', 'blocks', 'transactions', 'trades'];
const wallClockNs = (): bigint => BigInt(Date.now()) * 1_000_000n;
const monotonicNs = (): bigint => BigInt(Math.round(performance.now() * 1e6));

/** Commits chunks of validated batches into the store; remembers the newest committed slot. */
export class IngestPipeline {
  #newestSlot: bigint | undefined;
  /** The newest block time committed (times never go back: see clampTimes). */
  #newestTime: bigint | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  /** Store writes queued and maybe not done, oldest first. */
  #writes: Promise<unknown>[] = [];

  constructor(
    private readonly store: Store,
    private readonly observers: readonly ChunkObserver[] = [],
    private readonly streams?: PipelineStreams,
    /** Where the transactions' forms are made (the pipeline makes them itself without). */
    private readonly makeForms?: FormsMaker,
  ) {}

  /** The newest slot committed so far. */
  get newestSlot(): bigint | undefined {
    return this.#newestSlot;
  }

  /**
   * Commits one chunk: every block in it entirely or not at all. Rows that fail a cross-table check
   * (a slot not newer than the newest committed one, transactions without their block row, a
   * trade whose time differs from its block's) are rejected and reported; the rest are kept.
   * Chunks are committed one after another, in call order: batches still being validated hold
   * their chunk's place.
   */
  commit(batches: readonly ValidatedBatch[] | StartedChunk | PromiseLike<readonly ValidatedBatch[]>): Promise<IngestReport> {
    return this.exclusive(async () => {
      const chunk = await batches;
      return this.#commit('parts' in chunk ? chunk : this.start(chunk));
    });
  }

  /**
   * Starts what a chunk's commit needs of nothing committed before it: its transactions' forms,
   * made on another thread (`makeForms`) while the serving thread commits the chunks before (a
   * load starts each chunk as it is read). `commit` takes the started chunk.
   */
  start(batches: readonly ValidatedBatch[]): StartedChunk {
    const parts = gather(batches);
    const table = parts.transactions?.table;
    // fees to derive make another table at commit, whose forms the commit makes itself
    if (!this.makeForms || !table || lacksPriorityFees(table)) return { batches, parts };
    const forms = this.makeForms(transactionNumbers(table, true));
    forms.catch(() => undefined); // made here instead, by the commit
    if (!textInFile(table)) return { batches, parts, forms };
    const part = parts.transactions!;
    const text = forms.then((made) => chunkText(table, part.batches, () => rowOrigins(part, undefined), keptRows(made)));
    text.catch(() => undefined); // taken by the commit instead
    return { batches, parts, forms, text };
  }

  /** Runs `task` between commits: no chunk is being prepared, committed or published meanwhile. */
  exclusive<T>(task: () => Promise<T> | T): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #commit({ batches, parts, forms: started, text: startedText }: StartedChunk): Promise<IngestReport> {
    const received = monotonicNs();
    const startedAt = wallClockNs();
    const report = emptyReport();
    for (const batch of batches) {
      report.read += batch.read;
      report.rejections.push(...batch.rejections);
    }
    const read = new ChunkColumns();
    const rejectRow = (table: TableName, i: number, field: string, message: string) =>
      report.rejections.push({ ...origin(parts[table]!, i), field, message });
    /** Rejects the rows that repeat an earlier row's key (the slot, then `keys`), naming the last key column. */
    const rejectRepeats = (table: TableName, slots: BigUint64Array, keys: readonly string[], keep: Uint8Array | undefined, what: string) => {
      const columns = keys.map((c) => read.column<Uint32Array>(parts[table]!.table, c));
      for (const i of repeatedRows(slots, columns, keep)) {
        (keep ??= new Uint8Array(slots.length).fill(1))[i] = 0;
        const key = keys.map((c, k) => `${c} ${columns[k]![i]}`).join(', ');
        rejectRow(table, i, keys.at(-1)!, `a second row for the ${what} at slot ${slots[i]}, ${key}`);
      }
      return keep;
    };

    const newest = this.#newestSlot;
    const stale = (slot: bigint) => newest !== undefined && slot <= newest;
    const staleMessage = (slot: bigint) =>
      `slot ${slot} is not newer than the newest ingested slot ${newest}: blocks are ingested in slot order, once`;

    // blocks: one row per slot, newer than anything committed
    const blockTime = new Map<bigint, bigint>();
    const cuLimits = new Map<bigint, bigint | null>();
    const keep: Partial<Record<TableName, Uint8Array>> = {};
    if (parts.blocks) {
      const { slots, times } = read.columns(parts.blocks.table, 'timestamp');
      keep.blocks = mask(slots.length, (i) => {
        if (stale(slots[i])) return rejectRow('blocks', i, 'slot', staleMessage(slots[i])), false;
        if (blockTime.has(slots[i])) return rejectRow('blocks', i, 'slot', `a second block row for slot ${slots[i]}`), false;
        blockTime.set(slots[i], times![i]);
        cuLimits.set(slots[i], (parts.blocks!.table.getChild('block_cu_limit')?.get(i) as bigint | null) ?? null);
        return true;
      });
    }
    if (parts.transactions) {
      // checked a block at a time: the rows of a slot share every check
      const { slots } = read.columns(parts.transactions.table);
      let out: Uint8Array | undefined;
      for (const [slot, from, to] of slotRuns(slots)) {
        const message = stale(slot) ? staleMessage(slot)
          : blockTime.has(slot) ? undefined
          : `no block row for slot ${slot} in the same ingest: its block time is unknown`;
        if (message === undefined) continue;
        out ??= new Uint8Array(slots.length).fill(1);
        out.fill(0, from, to);
        for (let i = from; i < to; i++) rejectRow('transactions', i, 'slot', message);
      }
      keep.transactions = rejectRepeats('transactions', slots, ['index'], out, 'transaction');
    }
    const tradeColumns = parts.trades && read.columns(parts.trades.table, 'timestamp');
    if (tradeColumns) {
      const { slots, times } = tradeColumns;
      const out = mask(slots.length, (i) => {
        if (stale(slots[i])) return rejectRow('trades', i, 'slot', staleMessage(slots[i])), false;
        const time = blockTime.get(slots[i]);
        if (time !== undefined && time !== times![i]) {
          return rejectRow('trades', i, 'timestamp', `trade time ${times![i]} ns differs from its block's time ${time} ns`), false;
        }
        return true;
      });
      keep.trades = rejectRepeats('trades', slots, ['tx_index', 'fill_index'], out, 'trade');
    }

    const retimed = clampTimes(this.#newestTime, blockTime, tradeColumns && { ...tradeColumns, keep: keep.trades });
    report.warnings.push(...retimed.warnings);
    for (const [slot, time] of retimed.blocks) blockTime.set(slot, time);

    // the stages below are cut where a slice of time is spent: a request waits for one slice
    const slices = new TimeSlices();
    if (slices.spent) await slices.next();
    const unit: CommitUnit = {};
    const view: ChunkView = {
      blocks: [...blockTime]
        .map(([slot, timestamp]) => ({ slot, timestamp, cuLimit: cuLimits.get(slot) ?? null }))
        .sort((a, b) => (a.slot < b.slot ? -1 : 1)),
    };
    const slotRecords = new Map<bigint, { time: bigint; records: number }>();
    let tokens: Table | undefined;
    let forms: TransactionForms | undefined;
    for (const name of TABLE_ORDER) {
      const part = parts[name];
      if (!part) continue;
      // rows dropped or fees derived rebuild the table row by row: with the text its file holds
      const rebuilt = name === 'transactions' && (keep[name] || lacksPriorityFees(part.table));
      const whole = rebuilt ? await withText(part.table, part.batches, () => rowOrigins(part, undefined)) : part.table;
      let table = keep[name] ? select(name, whole, keep[name]!) : whole;
      if (table.numRows === 0) continue;
      if ((name === 'blocks' || name === 'trades') && retimed.changed) table = retime(name, table, retimed.time);
      if (name === 'tokens') tokens = view.tokens = table;
      if (name === 'transactions') {
        table = view.transactions = withPriorityFees(table);
        // the forms started for every row of the chunk, unless rows were dropped or fees derived since (or the worker failed)
        const made = table === part.table && started ? await started.catch(() => undefined) : undefined;
        forms = made ?? transactionForms(table);
        view.transactionColumns = forms.columns;
        if (slices.spent) await slices.next();
      }
      // trades stay with the market (its trade log), transactions in the resident segments; the rest go to DuckDB-WASM
      if (name === 'trades') view.trades = table;
      else if (name === 'transactions') {
        const time = (slot: bigint) => blockTime.get(slot)!;
        const origins = () => rowOrigins(part, keep.transactions);
        const accounts = await chunkAccounts(table, part.batches, origins);
        // the text taken for the forms started, else taken now (from the table, or the file that holds it)
        const taken = table === part.table && startedText ? await startedText.catch(() => undefined) : undefined;
        const text = taken ?? await chunkText(table, part.batches, origins, keptRows(forms!));
        unit.transactions = view.resident = await slices.run(residentSteps(table, time, this.store.accountKeys, forms, accounts, text));
        view.feeColumns = view.resident.columns;
        if (slices.spent) await slices.next();
      } else unit[name] = table;
      report.ingested += table.numRows;
      if (name === 'tokens') continue;
      const { slots, times } = read.columns(table, name === 'transactions' ? undefined : 'timestamp');
      for (const [slot, from, to] of slotRuns(slots)) {
        const entry = slotRecords.get(slot);
        if (entry) entry.records += to - from;
        else slotRecords.set(slot, { time: blockTime.get(slot) ?? times![from]!, records: to - from });
      }
    }
    report.rejected = report.read - report.ingested;
    if (report.ingested === 0) return report;

    const effects = [];
    for (const observer of this.observers) {
      await yieldToEventLoop();
      effects.push(await observer.prepare(view));
    }
    await yieldToEventLoop();
    // the database may lag a few commits behind; a write that failed fails this commit
    while (this.#writes.length >= MAX_WRITES_BEHIND) await this.#writes.shift();
    // the chunk's transactions are readable from here: it is published in the same synchronous stretch
    this.#writes.push(this.store.commit(unit, effects.flatMap((e) => e.records), { behind: true }));

    // published in one synchronous stretch: no reader runs between two engines' apply
    const slots = [...slotRecords.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (slots.length > 0) this.#newestSlot = slots[slots.length - 1];
    this.#newestTime = retimed.newest;
    report.blocks = slots.length;
    const took = monotonicNs() - received;
    const timings: IngestionRecord[] = slots.map((slot) => ({
      id: recordId(INGESTION_METHOD, slot),
      slot,
      timestamp: slotRecords.get(slot)!.time,
      started_at: startedAt,
      took,
      batches: 1,
      records: slotRecords.get(slot)!.records,
    }));
    const updates: StreamUpdate[] = [];
    for (const effect of effects) updates.push(...(effect.apply({ timings }) ?? []));

    if (timings.length > 0) this.#writes.push(this.store.appendRecords([{ schema: Ingestion, records: timings }], { behind: true }));
    if (this.streams) await this.streams.committed({ updates: sortBySlot(updates), tokens });
    return report;
  }
}

/** What clampTimes decided: the blocks given a later time, and each row's time after the rule. */
interface Retimed {
  /** Block rows whose time moved forward: slot -> the time they take. */
  blocks: Map<bigint, bigint>;
  /** Whether any time moved. */
  changed: boolean;
  /** The time a row of `slot` with time `t` takes. */
  time(slot: bigint, t: bigint): bigint;
  /** The newest time once the chunk is committed. */
  newest: bigint | undefined;
  warnings: string[];
}

/**
 * Block times never go back (docs/semantics.md): a chain's block time is an estimate, and an
 * earlier time than the previous block's is taken as the previous block's time (block and
 * trades alike), with a warning, rather than rejected or allowed to break the windows' order.
 * A trade without its block row is held to the same floor.
 */
function clampTimes(
  floor: bigint | undefined,
  blockTime: ReadonlyMap<bigint, bigint>,
  trades?: { slots: BigUint64Array; times?: BigInt64Array; keep?: Uint8Array },
): Retimed {
  // each trade-only slot's times, for the walk in slot order
  const tradeOnly = new Map<bigint, { min: bigint; max: bigint }>();
  if (trades) {
    for (let i = 0; i < trades.slots.length; i++) {
      const slot = trades.slots[i]!;
      if ((trades.keep && trades.keep[i] === 0) || blockTime.has(slot)) continue;
      const t = trades.times![i]!;
      const seen = tradeOnly.get(slot);
      if (!seen) tradeOnly.set(slot, { min: t, max: t });
      else if (t < seen.min) seen.min = t;
      else if (t > seen.max) seen.max = t;
    }
  }
  const slots = [...blockTime.keys(), ...tradeOnly.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const blocks = new Map<bigint, bigint>();
  const floors = new Map<bigint, bigint>();
  const warnings: string[] = [];
  for (const slot of slots) {
    const own = blockTime.get(slot);
    const [min, max] = own !== undefined ? [own, own] : [tradeOnly.get(slot)!.min, tradeOnly.get(slot)!.max];
    if (floor !== undefined && min < floor) {
      warnings.push(`slot ${slot}: block time ${min} ns is before the previous block's (${floor} ns); taken as ${floor} ns`);
      if (own !== undefined) blocks.set(slot, floor);
      else floors.set(slot, floor);
    }
    if (floor === undefined || max > floor) floor = max;
  }
  return {
    blocks,
    changed: blocks.size > 0 || floors.size > 0,
    time: (slot, t) => {
      const moved = blocks.get(slot);
      if (moved !== undefined) return moved;
      const least = floors.get(slot);
      return least !== undefined && t < least ? least : t;
    },
    newest: floor,
    warnings,
  };
}

/** The table with every row's timestamp as `time` says (the rare path: only when a block time went back). */
function retime(name: 'blocks' | 'trades', table: Table, time: (slot: bigint, t: bigint) => bigint): Table {
  const rows = tableToRows(name, table);
  for (const row of rows) row.timestamp = time(row.slot, row.timestamp);
  return rowsToTable(name, rows as never[]);
}

/** Updates in slot order (stable: each engine's updates keep their order within a block). */
function sortBySlot(updates: StreamUpdate[]): StreamUpdate[] {
  const slot = (u: StreamUpdate) => u.slot ?? -1n;
  return updates.sort((a, b) => (slot(a) < slot(b) ? -1 : slot(a) > slot(b) ? 1 : 0));
}

/** Concatenates the batches of each table, keeping where each batch starts (for each row's source and row number). */
function gather(batches: readonly ValidatedBatch[]): Partial<Record<TableName, TablePart>> {
  const parts: Partial<Record<TableName, TablePart>> = {};
  for (const batch of batches) {
    if (batch.rows.numRows === 0) continue;
    const part = (parts[batch.table] ??= { table: new Table(batch.rows.schema), batches: [], starts: [] });
    part.starts.push(part.table.numRows);
    part.batches.push(batch);
    part.table = part.table.numRows === 0 ? batch.rows : part.table.concat(batch.rows);
  }
  return parts;
}

/**
 * The columns of a chunk's tables that its commit reads, each copied out once and held for that
 * commit only: a chunk's table spans several batches (the file's, cut at block boundaries), so every
 * `toArray` of it is a copy (~0.2 GB over the hour's load when the checks and the per-slot counts
 * each made their own). Read-only: a column may be shared with the table or another reader.
 */
class ChunkColumns {
  readonly #read = new Map<Table, Map<string, ArrayLike<unknown>>>();

  /** Column `name` of `table` as one array. */
  column<T extends ArrayLike<unknown>>(table: Table, name: string): T {
    let read = this.#read.get(table);
    if (!read) this.#read.set(table, (read = new Map()));
    let values = read.get(name);
    if (!values) read.set(name, (values = table.getChild(name)!.toArray() as ArrayLike<unknown>));
    return values as T;
  }

  /** The slot column of `table`, and its `time` column when named. */
  columns(table: Table, time?: string): { slots: BigUint64Array; times?: BigInt64Array } {
    return { slots: this.column<BigUint64Array>(table, 'slot'), times: time ? this.column<BigInt64Array>(table, time) : undefined };
  }
}

/** A keep-mask (1 = keep) or undefined when every row is kept. */
function mask(length: number, keep: (i: number) => boolean): Uint8Array | undefined {
  let out: Uint8Array | undefined;
  for (let i = 0; i < length; i++) {
    if (keep(i)) continue;
    out ??= new Uint8Array(length).fill(1);
    out[i] = 0;
  }
  return out;
}

/** The rows of `table` whose mask byte is 1 (the rare path: only after a cross-table rejection). */
function select(name: TableName, table: Table, keep: Uint8Array): Table {
  const rows = tableToRows(name, table).filter((_, i) => keep[i] === 1);
  return rowsToTable(name, rows as never[]);
}
