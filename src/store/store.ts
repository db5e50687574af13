/**
 * The store: the raw transactions as resident columns (TransactionSegments), the other
 * canonical tables and the materialized record rows in DuckDB-WASM (in its own thread), written in
 * atomic units and read back with exact integers. Platform-independent: it only sees a
 * `SqlConnection`.
 *
 * Every call runs through one queue, in call order. DuckDB-WASM executes one statement at a time
 * on a connection, but a commit is several statements in one transaction: a query slipped in
 * between would see half a unit. Queuing commits and queries makes each unit all-or-nothing to
 * every reader, and lets writers go on without waiting: a query queued after a commit sees it,
 * whether or not the commit's caller awaited it. The database opens in the queue's first task, so
 * nothing waits for DuckDB-WASM to start until something reads or writes it. A write its caller
 * did not wait for (`behind`) that fails, or a failed open, fails the store: every later call
 * rejects with that error, so a reader never gets an answer that silently misses a unit.
 */
import type { BlockRow, TokenRow } from '../schema/tables.js';
import { CANONICAL_TABLES, RECORD_TABLES, STORE_TABLES, createTableSql, type SqlCanonicalTable, type SqlTable } from './ddl.js';
import { conformIPC } from './ipc.js';
import { SerialQueue } from './serial-queue.js';
import type { SqlConnection } from './sql-connection.js';
import { sqlIdent, sqlInteger, sqlString } from './sql.js';
import type { AccountKeys } from './account-keys.js';
import { TransactionSegments, type ResidentTransactions, type SegmentRange } from './transaction-segments.js';

/**
 * One unit's canonical rows: Arrow IPC (stream or file) per table stored in DuckDB-WASM, columns
 * named as in `TABLES`; the transactions in the resident form (`residentTransactions`).
 */
export type CommitUnit = Partial<Record<SqlCanonicalTable, Uint8Array>> & { transactions?: ResidentTransactions };

/**
 * Materialized record rows to append. Records are immutable: each is made once (a block's, a
 * closed window's, a point computed when first asked), so they are appended, never replaced.
 */
export interface RecordRows {
  /** Record table name, `recordTableName(BlockFees)` = `block_fees`. */
  readonly table: string;
  /** Arrow IPC rows with the record's fields (missing nullable fields are filled with nulls). */
  readonly ipc: Uint8Array;
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

interface Write {
  readonly table: SqlTable;
  readonly ipc: Uint8Array;
  readonly rows: number;
  readonly key?: readonly string[];
}

function whereClause(conditions: readonly string[]): string {
  return conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
}

/** A DuckDB-WASM store on one connection. Create it with `openStore`. */
export class Store {
  #connection!: SqlConnection;
  readonly #queue = new SerialQueue();
  readonly #transactions = new TransactionSegments();
  #closed = false;
  #failed: Error | undefined;
  #prunedBefore: bigint | undefined;

  private constructor(connection: Promise<SqlConnection> | SqlConnection) {
    // the first task: open the connection and create the tables; every other call queues behind it
    this.#exclusive(async () => {
      const opened = await connection;
      const statements = STORE_TABLES.map(createTableSql);
      for (const table of Object.keys(CANONICAL_KEYS)) {
        statements.push(`CREATE TEMP TABLE IF NOT EXISTS ${sqlIdent(stageOf(table))} AS SELECT * FROM ${sqlIdent(table)} LIMIT 0`);
      }
      await opened.run(statements.join(';\n'));
      this.#connection = opened;
    }, true);
  }

  /**
   * The store over a connection, or one being opened (it owns it): every table is created (if
   * absent) before the first call runs. Returns at once; a failure to open fails every call.
   */
  static open(connection: Promise<SqlConnection> | SqlConnection): Store {
    return new Store(connection);
  }

  /** Resolves once every call queued so far has run; rejects if the store has failed. */
  async settled(): Promise<void> {
    await this.#queue.run(async () => undefined);
    if (this.#failed) throw this.#failed;
  }

  /**
   * Writes one unit (one or several blocks) atomically: canonical rows are appended (tokens are
   * upserted by mint), record rows are appended, all in one transaction, and the unit's
   * transactions join the resident ones once it has committed (readers wait in the same queue).
   * Every IPC input is checked against its table before the transaction begins; if anything fails,
   * nothing is written. `behind`: see WriteOptions.
   */
  commit(unit: CommitUnit, records: readonly RecordRows[] = [], options: WriteOptions = {}): Promise<CommitResult> {
    let writes: Write[];
    try {
      writes = this.#plan(unit, records);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#exclusive(async () => {
      const rows: Record<string, number> = {};
      const todo = writes.filter((w) => w.rows > 0);
      const transactions = unit.transactions?.columns.offsets.at(-1) ?? 0;
      if (todo.length > 0) await this.#write(todo, rows);
      if (transactions > 0) {
        this.#transactions.append(unit.transactions!);
        rows.transactions = transactions;
      }
      return { rows };
    }, options.behind);
  }

  /** Runs the unit's DuckDB writes in one transaction, counting the rows per table into `rows`. */
  async #write(todo: readonly Write[], rows: Record<string, number>): Promise<void> {
    // every statement runs in the database's own thread; store reads wait in the queue, so none sees the open transaction
    const c = this.#connection;
    await c.run('BEGIN TRANSACTION');
    try {
      for (const write of todo) {
        if (write.key) await this.#upsert(write.table, write.ipc, write.key);
        else await c.insertIPC(write.table.name, write.ipc);
        rows[write.table.name] = (rows[write.table.name] ?? 0) + write.rows;
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
   * Drops the transactions of the blocks with timestamp < cutNs (the raw rows: nearly all of the
   * store's memory), so a store pruned as it goes holds the retained span of them.
   * Blocks, tokens and the method records (a row or a few per block) stay. A later cut only moves
   * forward.
   */
  async prune(cutNs: bigint): Promise<void> {
    await this.#exclusive(async () => {
      if (this.#prunedBefore !== undefined && cutNs <= this.#prunedBefore) return;
      this.#prunedBefore = cutNs;
      const [row] = await this.#connection.queryRows(`SELECT max(slot) AS last FROM blocks WHERE "timestamp" < ${sqlInteger(cutNs)}`);
      if (row?.last != null) this.#transactions.pruneThrough(row.last as bigint);
    });
  }

  /** The dictionary of account keys a commit's write-locked accounts are interned into (residentTransactions). */
  get accountKeys(): AccountKeys {
    return this.#transactions.keys;
  }

  /**
   * Transactions of blocks before this time have been pruned (undefined: none ever were); the
   * market's history (its trades too) is pruned at the same cut (Retention).
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

  /** The transactions of slots first..last (inclusive), by (slot, index), as resident; queued like every other call. */
  transactions(first: bigint, last: bigint): Promise<ResidentTransactions> {
    return this.#exclusive(async () => this.#transactions.between(first, last));
  }

  /** The same transactions as `transactions`, as the ranges of blocks the store holds them in (no copy). */
  transactionRanges(first: bigint, last: bigint): Promise<SegmentRange[]> {
    return this.#exclusive(async () => this.#transactions.ranges(first, last));
  }

  /** Any read query as plain rows, queued like every other call (build SQL with the `sql.ts` helpers). */
  rows(sql: string): Promise<Record<string, unknown>[]> {
    return this.#exclusive(() => this.#connection.queryRows(sql));
  }

  /** Any read query as Arrow IPC stream bytes, queued like every other call. */
  ipc(sql: string): Promise<Uint8Array> {
    return this.#exclusive(() => this.#connection.queryIPC(sql));
  }

  /** Closes the store and its connection after the calls already queued; closing again does nothing. */
  close(): Promise<void> {
    return this.#queue.run(async () => {
      if (this.#closed) return;
      this.#closed = true;
      await this.#connection?.close();
    });
  }

  /**
   * Queues `task`. A task run `behind` (nobody waits for it) that fails fails the store; its
   * promise may be left unawaited (the store keeps the failure and every later call rejects with it).
   */
  #exclusive<T>(task: () => Promise<T>, behind = false): Promise<T> {
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

  #plan(unit: CommitUnit, records: readonly RecordRows[]): Write[] {
    const writes: Write[] = [];
    for (const name of Object.keys(unit)) {
      if (!(name in CANONICAL_TABLES) && name !== 'transactions') throw new TypeError(`unknown canonical table ${name}`);
    }
    for (const table of Object.values(CANONICAL_TABLES)) {
      const bytes = unit[table.name as SqlCanonicalTable];
      if (bytes === undefined) continue;
      writes.push({ table, ...conformIPC(bytes, table), key: CANONICAL_KEYS[table.name as SqlCanonicalTable] });
    }
    for (const record of records) {
      const table = RECORD_TABLES[record.table];
      if (table === undefined) throw new TypeError(`unknown record table ${record.table}`);
      writes.push({ table, ...conformIPC(record.ipc, table) });
    }
    return writes;
  }

  /** Replaces the rows whose key is in `ipc` (the last row of a key in `ipc` wins); runs inside the commit's transaction. */
  async #upsert(table: SqlTable, ipc: Uint8Array, key: readonly string[]): Promise<void> {
    const c = this.#connection;
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

/** A store on a connection, or on one being opened (see `Store.open`). */
export function openStore(connection: Promise<SqlConnection> | SqlConnection): Store {
  return Store.open(connection);
}
