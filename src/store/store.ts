/**
 * The store: the raw transactions as resident columns (TransactionSegments), the other
 * canonical tables and the materialized record rows in DuckDB-WASM (in its own thread), written in
 * atomic units and read back with exact integers. Platform-independent: it only sees a
 * `SqlConnection`.
 *
 * Every database call runs through one queue, in call order. DuckDB-WASM executes one statement at
 * a time on a connection, but a commit is several statements in one transaction: a query slipped
 * in between would see half a unit. Queuing commits and queries makes each unit all-or-nothing to
 * every reader, and lets writers go on without waiting: a query queued after a commit sees it,
 * whether or not the commit's caller awaited it.
 *
 * DuckDB-WASM starts when something first needs it: a query, `settled`, a commit its caller waits
 * for, or more than START_BYTES of writes nobody waits for (`behind`), which are held until it is
 * open and then written in one transaction. Once it is open, behind writes join the next flush
 * queued: those made while the database is busy go in together, one transaction for many
 * commits. The resident transactions are read at once, outside the queue: a short load and the
 * answers from memory never wait for the database, nor share the CPU with its start
 * (docs/architecture.md). A write its caller did not wait for that fails, or a failed open,
 * fails the store: every later call rejects with that error, so a reader never gets an answer that
 * silently misses a unit.
 */
import { Table, tableToIPC } from 'apache-arrow';
import type { RecordSchema } from '../schema/records.js';
import type { BlockRow, TokenRow } from '../schema/tables.js';
import { CANONICAL_TABLES, CUT_ROWS, RECORD_TABLES, STORE_TABLES, createTableSql, recordTableName, type SqlCanonicalTable, type SqlTable } from './ddl.js';
import { conformToSql } from './ipc.js';
import { recordsToTable } from './record-arrow.js';
import { SerialQueue } from './serial-queue.js';
import type { SqlConnection } from './sql-connection.js';
import { sqlIdent, sqlInteger, sqlString } from './sql.js';
import type { AccountKeys } from './account-keys.js';
import { TransactionSegments, type BlockRange, type ResidentTransactions, type SegmentRange } from './transaction-segments.js';

/**
 * One unit's canonical rows: an Arrow table per table stored in DuckDB-WASM, columns named as in
 * `TABLES`; the transactions in the resident form (`residentTransactions`).
 */
export type CommitUnit = Partial<Record<SqlCanonicalTable, Table>> & { transactions?: ResidentTransactions };

/**
 * Materialized records to append, of a stored record (`STORED_RECORDS`). Records are immutable:
 * each is made once (a block's, a closed window's, a point computed when first asked), so they
 * are appended, never replaced; the store keeps them as given until it writes them.
 */
export interface RecordRows {
  readonly schema: RecordSchema;
  readonly records: readonly object[];
}

/** How a write is made. */
export interface WriteOptions {
  /**
   * The caller goes on before the write is done (it published what it wrote): a failure then
   * fails the store instead of leaving it as it was.
   */
  readonly behind?: boolean;
}

/** Rows written by a commit, per table. */
export interface CommitResult {
  readonly rows: Readonly<Record<string, number>>;
}

/** Canonical tables written by upsert instead of append, with their keys. */
const CANONICAL_KEYS: Partial<Record<SqlCanonicalTable, readonly string[]>> = { tokens: ['mint'] };

const stageOf = (table: string): string => `_stage_${table}`;

/**
 * Bytes of held writes that start the database. Its start costs about 1.3 s of CPU and its heap
 * about 250 MB, and what it would hold (block fees, windows, timings) is small: a one-hour
 * mainnet-profile dump holds about 10 MB of writes (`cellBytes`), and the engines keep in memory
 * what their queries read meanwhile. So a load of up to a few hours, and its queries, never start
 * it unless a query needs history memory does not hold.
 */
const START_BYTES = 32 << 20;

/** What `rows` rows of `table` take once written, about: 8 bytes a cell. */
const cellBytes = (rows: number, table: { readonly columns: readonly unknown[] }): number => rows * table.columns.length * 8;

/** The database, or what opens it when first needed. */
export type Connect = SqlConnection | (() => Promise<SqlConnection>);

/**
 * A table's rows to write: canonical rows conformed to it, or records, made into Arrow only when
 * written (one table for every record held, not one per commit: most commits are one block).
 */
interface Write {
  readonly table: SqlTable;
  readonly rows: number;
  /** About what the rows take once written (`cellBytes`), for START_BYTES. */
  readonly bytes: number;
  readonly data: Table | RecordRows;
  readonly key?: readonly string[];
}

function whereClause(conditions: readonly string[]): string {
  return conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
}

/** A DuckDB-WASM store on one connection. Create it with `openStore`. */
export class Store {
  /** The database, once open. */
  #connection: SqlConnection | undefined;
  readonly #connect: Connect;
  #started = false;
  /**
   * Writes of behind commits not yet taken by a flush, oldest first, and their bytes: until the
   * database is open they are held; then the next flush writes all of them in one transaction.
   */
  #held: Write[] = [];
  #heldBytes = 0;
  /** The flush queued and not yet running, which the writes held meanwhile join. */
  #nextFlush: Promise<void> | undefined;
  readonly #queue = new SerialQueue();
  readonly #transactions = new TransactionSegments();
  #closed = false;
  #failed: Error | undefined;
  #prunedBefore: bigint | undefined;

  private constructor(connect: Connect, private readonly startBytes: number) {
    this.#connect = connect;
  }

  /**
   * The store over a connection, or over what opens one when first needed (then it owns it): every
   * table is created (if absent) before the first database call runs. Returns at once; a failure
   * to open fails every call.
   */
  static open(connect: Connect, startBytes = START_BYTES): Store {
    return new Store(connect, startBytes);
  }

  /** Whether DuckDB-WASM has been asked to start (see the module's comment). */
  get started(): boolean {
    return this.#started;
  }

  /** Resolves once every call made so far has been written or run; rejects if the store has failed. */
  async settled(): Promise<void> {
    await this.#exclusive(async () => undefined);
  }

  /**
   * Writes one unit (one or several blocks) atomically: canonical rows are appended (tokens are
   * upserted by mint), record rows are appended, all in one transaction, and the unit's
   * transactions join the resident ones once it has committed (readers wait in the same queue).
   * Every canonical table is checked against its store table at once, before anything is written;
   * records are made into Arrow when written, and one that does not fit its table fails the
   * whole transaction. Either way nothing of the unit is written. `behind`: see WriteOptions.
   */
  commit(unit: CommitUnit, records: readonly RecordRows[] = [], options: WriteOptions = {}): Promise<CommitResult> {
    let todo: Write[];
    try {
      todo = this.#plan(unit, records).filter((w) => w.rows > 0);
    } catch (error) {
      return Promise.reject(error);
    }
    const transactions = unit.transactions?.columns.offsets.at(-1) ?? 0;
    if (options.behind) return this.#commitBehind(todo, transactions > 0 ? unit.transactions : undefined);
    return this.#exclusive(async () => {
      const rows: Record<string, number> = {};
      if (todo.length > 0) await this.#write(todo, rows);
      if (transactions > 0) {
        this.#transactions.append(unit.transactions!);
        rows.transactions = transactions;
      }
      return { rows };
    });
  }

  /**
   * A commit nobody waits for: its transactions join the resident ones at once (the caller
   * publishes it next), its database writes join the next flush. Resolves when they are written,
   * or at once while the database is not open (they are held until it is).
   */
  #commitBehind(todo: readonly Write[], transactions: ResidentTransactions | undefined): Promise<CommitResult> {
    if (this.#closed) return Promise.reject(new Error('store is closed'));
    if (this.#failed) return Promise.reject(this.#failed);
    const rows: Record<string, number> = {};
    for (const write of todo) rows[write.table.name] = (rows[write.table.name] ?? 0) + write.rows;
    if (transactions) {
      this.#transactions.append(transactions);
      rows.transactions = transactions.columns.offsets.at(-1)!;
    }
    if (todo.length === 0) return Promise.resolve({ rows });
    this.#held.push(...todo);
    this.#heldBytes += todo.reduce((sum, w) => sum + w.bytes, 0);
    if (!this.#started && this.#heldBytes > this.startBytes) this.#start();
    // until it is open the flush queued behind its start takes them: a load never waits for the database to start
    if (this.#connection === undefined) return Promise.resolve({ rows });
    return this.#flushHeld().then(() => ({ rows }));
  }

  /**
   * The flush that will write the writes held now: the one queued and not yet running, or a new
   * one. Commits made while a flush runs join the next: when the database is slower than the
   * commits, their writes coalesce into fewer, larger transactions.
   */
  #flushHeld(): Promise<void> {
    return (this.#nextFlush ??= this.#queued(async () => {
      this.#nextFlush = undefined;
      const held = this.#held;
      this.#held = [];
      this.#heldBytes = 0;
      if (held.length > 0) await this.#write(held, {});
    }, true));
  }

  /**
   * Runs the writes in one transaction, one insert per table and column types (in the order of
   * the writes, so the last token row of a mint still wins), counting the rows per table into
   * `rows`. Records become Arrow here; a record that does not fit its table rolls it back.
   */
  async #write(todo: readonly Write[], rows: Record<string, number>): Promise<void> {
    // every statement runs in the database's own thread; store reads wait in the queue, so none sees the open transaction
    const c = this.#connection!;
    await c.run('BEGIN TRANSACTION');
    try {
      for (const [table, writes] of byTable(todo)) {
        for (const data of insertsOf(table, writes)) {
          const ipc = tableToIPC(data, 'stream');
          if (writes[0]!.key) await this.#upsert(table, ipc, writes[0]!.key);
          else await c.insertIPC(table.name, ipc);
        }
        rows[table.name] = (rows[table.name] ?? 0) + writes.reduce((sum, w) => sum + w.rows, 0);
      }
      await c.run('COMMIT');
    } catch (error) {
      await c.run('ROLLBACK').catch(() => undefined); // a failed COMMIT has already rolled back
      throw error;
    }
  }

  /** Appends materialized record rows atomically (a commit without canonical rows). */
  appendRecords(records: readonly RecordRows[], options: WriteOptions = {}): Promise<CommitResult> {
    return this.commit({}, records, options);
  }

  /**
   * Drops what a cut leaves behind (docs/semantics.md, Retention): the transactions of the blocks
   * with timestamp < cutNs (the raw rows: nearly all of the store's memory) at once, and in the
   * database, in the queue (nobody waits for it), the rows `CUT_ROWS` names: the blocks and the
   * method records of those blocks. The database is not started for it: one that starts later
   * drops them after its first flush. A later cut only moves forward. Tokens stay.
   */
  async prune(cutNs: bigint): Promise<void> {
    if (this.#prunedBefore !== undefined && cutNs <= this.#prunedBefore) return;
    this.#prunedBefore = cutNs;
    this.#transactions.pruneBefore(cutNs);
    if (this.#started) this.#dropCut();
  }

  /**
   * Queues the deletion of the database rows before the cut (see prune), then a checkpoint: an
   * in-memory table frees deleted rows only when a checkpoint rewrites their row groups (122,880
   * rows each: half a day of blocks), so without it the heap grew as if nothing were deleted
   * (scripts/duckdb-retention-probe.mjs). A failure fails the store.
   */
  #dropCut(): void {
    const cut = sqlInteger(this.#prunedBefore!);
    const statements = Object.entries(CUT_ROWS).map(([table, rows]) => `DELETE FROM ${sqlIdent(table)} WHERE ${rows(cut)}`);
    void this.#queued(() => this.#connection!.run([...statements, 'CHECKPOINT'].join(';\n')), true);
  }

  /** The dictionary of account keys a commit's write-locked accounts are interned into (residentTransactions). */
  get accountKeys(): AccountKeys {
    return this.#transactions.keys;
  }

  /**
   * Transactions of blocks before this time have been pruned (undefined: none ever were), and the
   * records of those blocks; the market's history (its trades too) is pruned at the same cut
   * (Retention).
   */
  get prunedBefore(): bigint | undefined {
    return this.#prunedBefore;
  }

  /** Known tokens sorted by mint, or the one token with `mint`. */
  async tokens(query: { readonly mint?: string } = {}): Promise<TokenRow[]> {
    const where = query.mint === undefined ? [] : [`mint = ${sqlString(query.mint)}`];
    return (await this.rows(`SELECT * FROM tokens${whereClause(where)} ORDER BY mint`)) as unknown as TokenRow[];
  }

  /** Blocks with fromNs <= timestamp < toNs, by slot ascending. */
  async blocksInRange(fromNs: bigint, toNs: bigint): Promise<BlockRow[]> {
    const sql = `SELECT * FROM blocks WHERE "timestamp" >= ${sqlInteger(fromNs)} AND "timestamp" < ${sqlInteger(toNs)} ORDER BY slot`;
    return (await this.rows(sql)) as unknown as BlockRow[];
  }

  /**
   * The transactions of slots first..last (inclusive), by (slot, index), as the ranges of blocks
   * the store holds them in (no copy, and without their accounts); read at once (see #resident).
   */
  transactionBlocks(first: bigint, last: bigint): Promise<BlockRange[]> {
    return this.#resident(() => this.#transactions.held(first, last));
  }

  /**
   * The transactions of the blocks from time `from` on, up to slot `last`, as the ranges of blocks
   * the store holds them in (no copy, and without their accounts).
   */
  transactionBlocksFrom(from: bigint, last: bigint): Promise<BlockRange[]> {
    return this.#resident(() => this.#transactions.held(this.#transactions.firstSlotFrom(from) ?? last, last));
  }

  /** The newest block with transactions held whose time is before `at` (the newest when omitted); read at once. */
  newestTransactionBlock(at?: bigint): Promise<{ slot: bigint; timestamp: bigint } | undefined> {
    return this.#resident(() => this.#transactions.newestBefore(at));
  }

  /** The time of the first block with transactions ever committed, pruned since or not. */
  get firstTransactionTime(): bigint | undefined {
    return this.#transactions.firstTime;
  }

  /**
   * The same transactions as `transactionBlocks`, with their accounts (read back from their file
   * first where a load left them there).
   */
  transactionRanges(first: bigint, last: bigint): Promise<SegmentRange[]> {
    return this.#resident(() => this.#transactions.ranges(first, last));
  }

  /**
   * A read of the resident transactions: at once, not queued (they are appended when a commit is
   * made, or written, for one its caller waits for), but failing like every other call.
   */
  async #resident<T>(read: () => T | Promise<T>): Promise<T> {
    if (this.#closed) throw new Error('store is closed');
    if (this.#failed) throw this.#failed;
    return read();
  }

  /** Any read query as plain rows, queued like every other call (build SQL with the `sql.ts` helpers). */
  rows(sql: string): Promise<Record<string, unknown>[]> {
    return this.#exclusive(() => this.#connection!.queryRows(sql));
  }

  /** Any read query as Arrow IPC stream bytes, queued like every other call. */
  ipc(sql: string): Promise<Uint8Array> {
    return this.#exclusive(() => this.#connection!.queryIPC(sql));
  }

  /**
   * Closes the store and its connection after the calls already queued; closing again does
   * nothing. Writes still held are dropped with the in-memory database they were bound for.
   */
  close(): Promise<void> {
    this.#held = [];
    return this.#queue.run(async () => {
      if (this.#closed) return;
      this.#closed = true;
      // a connection given open is owned too, started or not
      await (this.#connection ?? (typeof this.#connect === 'function' ? undefined : this.#connect))?.close();
    });
  }

  /**
   * Queues `task`, the database started first. A task run `behind` (nobody waits for it) that fails fails the store; its
   * promise may be left unawaited (the store keeps the failure and every later call rejects with it).
   */
  #exclusive<T>(task: () => Promise<T>, behind = false): Promise<T> {
    this.#start();
    if (this.#held.length > 0) void this.#flushHeld(); // a call sees every commit made before it
    return this.#queued(task, behind);
  }

  /** Queues `task` (see #exclusive) without starting the database. */
  #queued<T>(task: () => Promise<T>, behind: boolean): Promise<T> {
    const run = this.#queue.run(async () => {
      if (this.#closed) throw new Error('store is closed');
      if (this.#failed) throw this.#failed;
      try {
        return await task();
      } catch (error) {
        if (behind) this.#failed = new Error(`the store failed and holds nothing from then on: ${(error as Error)?.message ?? String(error)}`, { cause: error });
        throw error;
      }
    });
    if (behind) run.catch(() => undefined);
    return run;
  }

  /**
   * Queues, once, the database's start (its connection opened, every table created) and a flush
   * of the writes held until it is open, before any call queued after it. A failure fails the
   * store.
   */
  #start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    const connect = this.#connect;
    void this.#queued(async () => {
      const opened = typeof connect === 'function' ? await connect() : connect;
      const statements = STORE_TABLES.map(createTableSql);
      for (const table of Object.keys(CANONICAL_KEYS)) {
        statements.push(`CREATE TEMP TABLE IF NOT EXISTS ${sqlIdent(stageOf(table))} AS SELECT * FROM ${sqlIdent(table)} LIMIT 0`);
      }
      await opened.run(statements.join(';\n'));
      this.#connection = opened;
    }, true);
    void this.#flushHeld();
    if (this.#prunedBefore !== undefined) this.#dropCut();
  }

  #plan(unit: CommitUnit, records: readonly RecordRows[]): Write[] {
    const writes: Write[] = [];
    for (const name of Object.keys(unit)) {
      if (!(name in CANONICAL_TABLES) && name !== 'transactions') throw new TypeError(`unknown canonical table ${name}`);
    }
    for (const table of Object.values(CANONICAL_TABLES)) {
      const rows = unit[table.name as SqlCanonicalTable];
      if (rows === undefined) continue;
      if (!(rows instanceof Table)) throw new TypeError(`${table.name}: expected an Arrow table`);
      const data = conformToSql(rows, table);
      // counted like the records' cells: a chunk's rows are often a slice of a file's batch, whose
      // buffers (and byteLength) stay the whole batch's, so each chunk would count the batch again
      writes.push({ table, rows: data.numRows, bytes: cellBytes(data.numRows, table), data, key: CANONICAL_KEYS[table.name as SqlCanonicalTable] });
    }
    for (const record of records) {
      const table = RECORD_TABLES[recordTableName(record.schema)];
      if (table === undefined) throw new TypeError(`unknown record table ${recordTableName(record.schema)}`);
      const rows = record.records.length;
      writes.push({ table, rows, bytes: cellBytes(rows, table), data: record });
    }
    return writes;
  }

  /** Replaces the rows whose key is in `ipc` (the last row of a key in `ipc` wins); runs inside the commit's transaction. */
  async #upsert(table: SqlTable, ipc: Uint8Array, key: readonly string[]): Promise<void> {
    const c = this.#connection!;
    const target = sqlIdent(table.name);
    const stage = sqlIdent(stageOf(table.name));
    const keys = key.map(sqlIdent);
    await c.run(`DELETE FROM ${stage}`);
    await c.insertIPC(stageOf(table.name), ipc);
    const match = keys.map((k) => `${target}.${k} IS NOT DISTINCT FROM s.${k}`).join(' AND ');
    await c.run(
      `DELETE FROM ${target} USING ${stage} s WHERE ${match};\n` +
        `INSERT INTO ${target} SELECT * FROM ${stage} QUALIFY row_number() OVER (PARTITION BY ${keys.join(', ')} ORDER BY rowid DESC) = 1;\n` +
        `DELETE FROM ${stage}`,
    );
  }
}

/** A store on a connection, or on what opens one when first needed; `startBytes` of held writes start it (see `Store.open`). */
export function openStore(connect: Connect, startBytes?: number): Store {
  return Store.open(connect, startBytes);
}

/** The writes grouped by table, each group in write order (one transaction: the tables' order does not matter). */
function byTable(writes: readonly Write[]): Map<SqlTable, Write[]> {
  const groups = new Map<SqlTable, Write[]>();
  for (const write of writes) {
    const group = groups.get(write.table);
    if (group) group.push(write);
    else groups.set(write.table, [write]);
  }
  return groups;
}

/**
 * One table's writes as few Arrow tables as their column types allow, in order: records all
 * in one, canonical rows joined while their types agree (an input may give any integer width).
 */
function insertsOf(table: SqlTable, writes: readonly Write[]): Table[] {
  const out: Table[] = [];
  const records = writes.filter((w) => !(w.data instanceof Table)).map((w) => w.data as RecordRows);
  if (records.length > 0) {
    const all = records.flatMap((r) => r.records);
    out.push(conformToSql(recordsToTable(records[0]!.schema, all as never[]), table));
  }
  let run: Table[] = [];
  const close = () => run.length > 0 && out.push(run[0]!.concat(...run.slice(1)));
  for (const write of writes) {
    if (!(write.data instanceof Table)) continue;
    if (run.length > 0 && !sameTypes(run[0]!, write.data)) close(), (run = []);
    run.push(write.data);
  }
  close();
  return out;
}

const sameTypes = (a: Table, b: Table): boolean =>
  a.schema.fields.every((field, i) => String(field.type) === String(b.schema.fields[i]!.type) && field.nullable === b.schema.fields[i]!.nullable);
