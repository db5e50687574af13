import { Int64, Table, tableFromArrays, tableToIPC, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockFees, Candle } from '../../src/schema/records.js';
import { recordTableName } from '../../src/store/ddl.js';
import { openDuckDBNode } from '../../src/store/duckdb-node.js';
import { sqlInteger } from '../../src/store/sql.js';
import { openStore, type RecordRows, type Store } from '../../src/store/store.js';
import { BONK, SOL, USDC, canonicalTable, generateBlock, heldRows, slotNs, token, unitOf } from './fixtures.js';

/** The resident transactions of slots first..last, read from the ranges the store holds them in. */
const residentRows = async (store: Store, first: bigint, last: bigint) => heldRows(await store.transactionBlocks(first, last));
/** Transactions held in resident form. */
const rowCount = async (store: Store, first: bigint, last: bigint) => (await residentRows(store, first, last)).slots.length;

/** Rows of a slot in each table: blocks from DuckDB-WASM, transactions from the resident columns. */
const countsOf = async (store: Store, slot: bigint) => {
  const [row] = await store.rows(`SELECT count(*) AS blocks FROM blocks WHERE slot = ${sqlInteger(slot)}`);
  const transactions = await rowCount(store, slot, slot);
  return { blocks: Number(row!.blocks), transactions };
};
const NONE = { blocks: 0, transactions: 0 };

/** Per block: its transactions' count (block_cu_limit) as the generator wrote it. */
const BLOCKS_SQL = 'SELECT slot, block_cu_limit AS txs FROM blocks';

/**
 * A block fee record without its time: records are made into Arrow when written, so the write
 * fails inside the commit's transaction, after the unit's blocks were inserted.
 */
function failingRecords(slot: bigint): RecordRows[] {
  const rows = blockFeeRows([Number(slot)], slot, [1]);
  return [{ ...rows, records: rows.records.map((r) => ({ ...r, timestamp: null })) }];
}

/** Block fee records of `ids` at `slot`, every field given (std_dev from `std`). */
function blockFeeRows(ids: number[], slot: bigint, std: (number | null)[]): RecordRows {
  const records = ids.map((id, i) => {
    const record: Record<string, unknown> = {};
    for (const [name, wire] of BlockFees.fields as readonly (readonly [string, string])[]) {
      if (name === 'id') record[name] = id;
      else if (name === 'slot') record[name] = slot;
      else if (name === 'std_dev') record[name] = std[i];
      else if (wire === 'Float4' || wire === 'Float8') record[name] = 0.5;
      else if (wire === 'Uint8' || wire === 'Int8' || wire === 'DateTime' || wire === 'Duration') record[name] = 7n;
      else record[name] = 7;
    }
    return record;
  });
  return { schema: BlockFees, records };
}

describe('Store', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await openDuckDBNode());
  });
  afterAll(async () => {
    await store.close();
  });

  it('commits a unit to every table and reports the rows written', async () => {
    const result = await store.commit(unitOf(generateBlock(100n, 3, 2)));
    expect(result.rows).toEqual({ blocks: 1, transactions: 3 });
    expect(await countsOf(store, 100n)).toEqual({ blocks: 1, transactions: 3 });
  });

  it('a unit whose rows are not an Arrow table is rejected before anything is written', async () => {
    const unit = unitOf(generateBlock(102n, 2));
    unit.blocks = new Uint8Array(8) as never;
    await expect(store.commit(unit)).rejects.toThrow(/blocks: expected an Arrow table/);
    expect(await countsOf(store, 102n)).toEqual(NONE);
  });

  it('a unit that fails inside the transaction leaves no row in any table', async () => {
    // blocks are inserted first, then the records fail: everything is rolled back, the transactions never join.
    await expect(store.commit(unitOf(generateBlock(103n, 2)), failingRecords(103n))).rejects.toThrow(/null in NOT NULL column timestamp/);
    expect(await countsOf(store, 103n)).toEqual(NONE);
    // The connection is usable afterwards (no transaction left open).
    await store.commit(unitOf(generateBlock(103n, 2)));
    expect(await countsOf(store, 103n)).toEqual({ blocks: 1, transactions: 2 });
  });

  it('a write nobody waited for (behind) that fails fails the store: every later call says so', async () => {
    const other = openStore(() => openDuckDBNode());
    try {
      // held until the database starts: each resolves at once with the rows it will write
      const good = other.commit(unitOf(generateBlock(6n, 1)), [], { behind: true });
      const failed = other.commit(unitOf(generateBlock(7n, 2)), failingRecords(7n), { behind: true });
      expect((await good).rows).toEqual({ blocks: 1, transactions: 1 });
      expect((await failed).rows).toEqual({ blocks: 1, transactions: 2, block_fees: 1 });
      // the first read starts the database, which writes what was held first
      const later = other.rows('SELECT count(*) AS n FROM blocks');
      await expect(later).rejects.toThrow(/the store failed and holds nothing from then on: .*null in NOT NULL column timestamp/i);
      await expect(other.settled()).rejects.toThrow(/the store failed/);
      await expect(other.commit(unitOf(generateBlock(8n, 1)))).rejects.toThrow(/the store failed/);
      await expect(other.transactionBlocks(0n, 10n)).rejects.toThrow(/the store failed/);
    } finally {
      await other.close();
    }
  });

  it('once the database is open, a behind write that fails rejects too', async () => {
    const other = openStore(await openDuckDBNode());
    try {
      await other.settled(); // started and open
      const failed = other.commit(unitOf(generateBlock(7n, 2)), failingRecords(7n), { behind: true });
      await expect(failed).rejects.toThrow(/null in NOT NULL column timestamp/);
      await expect(other.rows('SELECT 1')).rejects.toThrow(/the store failed/);
    } finally {
      await other.close();
    }
  });

  it('rejects columns that would land in the wrong place or lose data', async () => {
    const ok = generateBlock(104n, 1);
    const blocks = canonicalTable('blocks', ok.blocks);
    const renamed = tableFromArrays({ slott: new BigUint64Array([104n]), timestamp: new BigInt64Array([slotNs(104n)]) });
    await expect(store.commit({ blocks: renamed })).rejects.toThrow(/blocks: unknown column slott/);
    const missing = tableFromArrays({ slot: new BigUint64Array([104n]) });
    await expect(store.commit({ blocks: missing })).rejects.toThrow(/missing required column timestamp/);
    const floatSlot = tableFromArrays({ slot: new Float64Array([104.5]), timestamp: new BigInt64Array([1n]) });
    await expect(store.commit({ blocks: floatSlot })).rejects.toThrow(/slot has Arrow type Float64/);
    const nullTimestamp = new Table({ slot: blocks.getChild('slot')!, timestamp: vectorFromArray([null], new Int64()) });
    await expect(store.commit({ blocks: nullTimestamp })).rejects.toThrow(/null in NOT NULL column timestamp at row 1/);
    await expect(store.commit({ blocks: new Table() })).rejects.toThrow(/blocks: no columns/);
    await expect(store.commit({ nope: new Table() } as never)).rejects.toThrow(/unknown canonical table nope/);
    expect(await countsOf(store, 104n)).toEqual(NONE);
  });

  it('accepts columns in any order and fills missing optional columns with nulls', async () => {
    const reordered = tableFromArrays({ timestamp: new BigInt64Array([slotNs(105n)]), slot: new BigUint64Array([105n]) });
    expect((await store.commit({ blocks: reordered })).rows).toEqual({ blocks: 1 });
    expect(await store.blocksInRange(slotNs(105n), slotNs(106n))).toEqual([
      { slot: 105n, timestamp: slotNs(105n), parent_slot: null, block_height: null, leader: null, block_cu_limit: null },
    ]);
    await store.rows('DELETE FROM blocks WHERE slot = 105');
  });

  it('commits that hold empty tables write nothing and need no transaction', async () => {
    const result = await store.commit({ blocks: canonicalTable('blocks', []) });
    expect(result.rows).toEqual({});
  });

  it('never lets a query see part of a unit, with queries and commits interleaved', async () => {
    const slots = Array.from({ length: 40 }, (_, i) => 1000n + BigInt(i));
    let done = false;
    const violations: unknown[] = [];
    let reads = 0;
    const reader = (async () => {
      while (!done) {
        // DuckDB's blocks, then the resident transactions, then the blocks again: units only add
        // rows here, so a block seen first must be whole in the transactions read after it, and a
        // slot among those transactions must have its block in the read after them
        const blocks = await store.rows(BLOCKS_SQL);
        const transactions = await residentRows(store, 0n, 1n << 62n);
        const later = new Set((await store.rows('SELECT slot FROM blocks')).map((b) => b.slot as bigint));
        reads++;
        const txs = new Map<bigint, number>();
        for (const slot of transactions.slots) txs.set(slot, (txs.get(slot) ?? 0) + 1);
        const partial = blocks.filter((b) => BigInt(txs.get(b.slot as bigint) ?? 0) !== b.txs);
        const orphanTxs = [...txs.keys()].filter((slot) => !later.has(slot));
        if (partial.length || orphanTxs.length) violations.push({ partial, orphanTxs });
      }
    })();
    const writer = (async () => {
      for (const slot of slots) {
        const unit = unitOf(generateBlock(slot, 2 + Number(slot % 7n), 1 + Number(slot % 3n)));
        // every fifth unit fails after its blocks were inserted
        if (slot % 5n === 0n) await expect(store.commit(unit, failingRecords(slot))).rejects.toThrow();
        else await store.commit(unit);
      }
    })();
    await writer;
    done = true;
    await reader;
    expect(violations).toEqual([]);
    expect(reads).toBeGreaterThan(slots.length / 8); // three reads an iteration, each queued behind at most one commit
    const [final] = await store.rows(`SELECT count(*) AS n FROM blocks WHERE slot >= 1000`);
    expect(final!.n).toBe(BigInt(slots.filter((s) => s % 5n !== 0n).length));
  });

  it('a query issued while a commit is running waits for the whole unit', async () => {
    const commit = store.commit(unitOf(generateBlock(2000n, 5, 2)));
    const counts = countsOf(store, 2000n); // issued before the commit finished
    expect(await counts).toEqual({ blocks: 1, transactions: 5 });
    await commit;
  });

  it('the hazard the queue prevents: a statement on the same connection runs inside the open transaction', async () => {
    const c = await openDuckDBNode();
    try {
      await c.run('CREATE TABLE t (a INTEGER)');
      await c.run('BEGIN TRANSACTION');
      await c.insertIPC('t', tableToIPC(tableFromArrays({ a: new Int32Array([1]) }), 'stream'));
      // A "reader" sharing the connection sees the uncommitted row...
      expect(await c.queryRows('SELECT count(*) AS n FROM t')).toEqual([{ n: 1n }]);
      await c.run('ROLLBACK');
      // ...which a rollback then takes away.
      expect(await c.queryRows('SELECT count(*) AS n FROM t')).toEqual([{ n: 0n }]);
    } finally {
      await c.close();
    }
  });
});

describe('Store queries', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await openDuckDBNode());
    // Slots 10..12, inserted out of slot order.
    for (const slot of [12n, 10n, 11n]) await store.commit(unitOf(generateBlock(slot, 3, 2)));
  });
  afterAll(async () => {
    await store.close();
  });

  it('blocksInRange() is [from, to) by slot', async () => {
    const blocks = await store.blocksInRange(slotNs(10n), slotNs(12n));
    expect(blocks.map((b) => b.slot)).toEqual([10n, 11n]);
    expect(blocks[0]).toEqual({ slot: 10n, timestamp: slotNs(10n), parent_slot: 9n, block_height: 6n, leader: null, block_cu_limit: 3n });
  });

  it('transactionBlocks() hold the resident rows of a slot range, by slot and index, whatever the commit order', async () => {
    const resident = await residentRows(store, 11n, 12n);
    expect(resident.slots).toEqual([11n, 11n, 11n, 12n, 12n, 12n]);
    expect(resident.index).toEqual([0, 1, 2, 0, 1, 2]);
    // the text of each block's fee payers, best first (index 0 pays no priority fee)
    expect(resident.keptOffsets).toEqual([0, 2, 4]);
    expect(resident.kept).toEqual([2, 1, 5, 4]);
    expect(resident.signatures).toEqual(['sig-11-2', 'sig-11-1', 'sig-12-2', 'sig-12-1']);
    expect(await rowCount(store, 13n, 20n)).toBe(0);
    expect(await rowCount(store, 0n, 10n)).toBe(3);
  });

  it('tokens() are upserted by mint and sorted by mint', async () => {
    await store.commit({ tokens: canonicalTable('tokens', [token(USDC, 'USDC', 6), token(SOL, 'SOL', 9)]) });
    await store.commit({
      tokens: canonicalTable('tokens', [token(BONK, 'BONK', 5, 2n ** 64n - 1n), token(USDC, 'USDC2', 6), token(USDC, 'USDC', 6, 10n)]),
    });
    const tokens = await store.tokens();
    expect(tokens.map((t) => t.mint)).toEqual([BONK, USDC, SOL].sort());
    expect(tokens.find((t) => t.mint === BONK)!.supply).toBe(2n ** 64n - 1n);
    expect(await store.tokens({ mint: USDC })).toEqual([token(USDC, 'USDC', 6, 10n)]); // the last row of a key wins
    expect(await store.tokens({ mint: 'unknown' })).toEqual([]);
  });

  it('record rows are appended inside the unit', async () => {
    const table = recordTableName(BlockFees);
    const first = await store.commit(unitOf(generateBlock(20n, 1)), [blockFeeRows([1, 2], 20n, [1.5, null])]);
    expect(first.rows).toEqual({ blocks: 1, transactions: 1, block_fees: 2 });
    await store.appendRecords([blockFeeRows([3], 21n, [3.5])]);
    expect(await store.rows(`SELECT id, slot, std_dev FROM ${table} ORDER BY id`)).toEqual([
      { id: 1n, slot: 20n, std_dev: 1.5 },
      { id: 2n, slot: 20n, std_dev: null },
      { id: 3n, slot: 21n, std_dev: 3.5 },
    ]);
    // candles are answered from memory: the store has no table for them
    await expect(store.appendRecords([{ schema: Candle, records: [] }])).rejects.toThrow(/unknown record table candle/);
  });

  it('rejects calls after close', async () => {
    const other = await openStore(await openDuckDBNode());
    await other.close();
    await expect(other.tokens()).rejects.toThrow(/closed/);
    await expect(other.close()).resolves.toBeUndefined();
  });
});

describe('Store.prune', () => {
  /** A block's fee record, at the block's time. */
  const feeRecordOf = (slot: bigint): RecordRows => {
    const rows = blockFeeRows([Number(slot)], slot, [1]);
    return { ...rows, records: rows.records.map((r) => ({ ...r, timestamp: slotNs(slot) })) };
  };
  /** What a store holds: its resident transactions' first slot and count, blocks, fee records and tokens. */
  const holdings = async (store: Store) => {
    const transactions = await residentRows(store, 0n, 100n);
    const [row] = await store.rows(
      `SELECT (SELECT count(*) FROM blocks) AS nb, (SELECT min(slot) FROM blocks) AS b, (SELECT count(*) FROM tokens) AS tokens,` +
        ` (SELECT count(*) FROM ${recordTableName(BlockFees)}) AS nf, (SELECT min(slot) FROM ${recordTableName(BlockFees)}) AS f`,
    );
    return { t: transactions.slots[0], nt: transactions.slots.length, ...row };
  };
  const fill = async (store: Store, behind: boolean) => {
    await store.commit({ tokens: canonicalTable('tokens', [token(SOL, 'SOL', 9)]) }, [], { behind });
    for (let slot = 1n; slot <= 10n; slot++) await store.commit(unitOf(generateBlock(slot, 3, 2)), [feeRecordOf(slot)], { behind });
  };

  it('drops the transactions, blocks and records of the blocks before the cut, and keeps the tokens', async () => {
    const store = await openStore(await openDuckDBNode());
    try {
      await fill(store, false);
      expect(store.prunedBefore).toBeUndefined();
      expect(await holdings(store)).toEqual({ t: 1n, nt: 30, nb: 10n, b: 1n, tokens: 1n, nf: 10n, f: 1n });

      await store.prune(slotNs(6n) - 1n); // slots 1..5 go
      expect(await holdings(store)).toEqual({ t: 6n, nt: 15, nb: 5n, b: 6n, tokens: 1n, nf: 5n, f: 6n });
      expect(store.prunedBefore).toBe(slotNs(6n) - 1n);
      await store.prune(slotNs(3n)); // a cut never moves back
      expect(store.prunedBefore).toBe(slotNs(6n) - 1n);
      expect(await holdings(store)).toEqual({ t: 6n, nt: 15, nb: 5n, b: 6n, tokens: 1n, nf: 5n, f: 6n });
    } finally {
      await store.close();
    }
  });

  it('a database that starts after the cut drops what it was held for before it', async () => {
    const store = openStore(() => openDuckDBNode());
    try {
      await fill(store, true);
      await store.prune(slotNs(4n)); // slot 4's block is at the cut: kept
      expect(store.started).toBe(false);
      expect(await holdings(store)).toEqual({ t: 4n, nt: 21, nb: 7n, b: 4n, tokens: 1n, nf: 7n, f: 4n });
    } finally {
      await store.close();
    }
  });
});

describe('The database starts when first needed', () => {
  /** A store whose database opens only when `open()` is called after the store asked for it. */
  /** A store whose database opens only when `open` is called; `startBytes` of held writes start it. */
  const gatedStore = (startBytes?: number) => {
    let asked = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const store = openStore(async () => {
      asked++;
      await gate;
      return openDuckDBNode();
    }, startBytes);
    return { store, asked: () => asked, open: release };
  };
  const blockCount = async (store: Store) => Number((await store.rows('SELECT count(*) AS n FROM blocks'))[0]!.n);

  it('holds the writes nobody waits for, their transactions readable at once, until a read starts it and finds them all', async () => {
    const { store, asked, open } = gatedStore();
    try {
      for (let slot = 1n; slot <= 5n; slot++) {
        expect((await store.commit(unitOf(generateBlock(slot, 2)), [], { behind: true })).rows).toEqual({ blocks: 1, transactions: 2 });
      }
      expect((await residentRows(store, 0n, 10n)).slots).toEqual([1n, 1n, 2n, 2n, 3n, 3n, 4n, 4n, 5n, 5n]);
      await Promise.resolve();
      expect([store.started, asked()]).toEqual([false, 0]);
      const count = blockCount(store); // starts it
      await new Promise((resolve) => setImmediate(resolve));
      expect([store.started, asked()]).toEqual([true, 1]);
      open();
      expect(await count).toBe(5);
    } finally {
      await store.close();
    }
  });

  it('counts a slice of a large batch by its rows, not by the batch it is cut from', async () => {
    // a file's batch of 20,000 blocks committed 10 blocks at a time, as a load's chunks cut it: a slice
    // of a text column keeps the batch's whole values buffer (here 880 kB of leaders), but 20 commits
    // hold 200 rows, far under the 1 MB that starts the database
    const batch = canonicalTable('blocks', Array.from({ length: 20_000 }, (_, i) => ({ ...generateBlock(BigInt(i + 1), 0).blocks[0]!, leader: SOL })));
    const { store, asked, open } = gatedStore(1 << 20);
    try {
      for (let k = 0; k < 20; k++) await store.commit({ blocks: batch.slice(10 * k, 10 * k + 10) }, [], { behind: true });
      await new Promise((resolve) => setImmediate(resolve));
      expect([store.started, asked()]).toEqual([false, 0]);
    } finally {
      open(); // should it have started, it closes without waiting
      await store.close();
    }
  });

  it('held writes past the start threshold start it, and commits never wait for it to open', async () => {
    const { store, asked, open } = gatedStore(1 << 20);
    try {
      // 8 bytes a field: 8,000 block fee records are about 9 MB
      const ids = Array.from({ length: 8000 }, (_, i) => i);
      await store.commit(unitOf(generateBlock(1n, 2)), [blockFeeRows(ids, 1n, ids.map(() => 1))], { behind: true });
      await new Promise((resolve) => setImmediate(resolve));
      expect([store.started, asked()]).toEqual([true, 1]);
      // still opening: later commits resolve at once, held; the resident transactions are read as ever
      for (let slot = 2n; slot <= 4n; slot++) await store.commit(unitOf(generateBlock(slot, 1)), [], { behind: true });
      expect(await rowCount(store, 0n, 10n)).toBe(5);
      const count = blockCount(store);
      open();
      expect(await count).toBe(4);
      expect(await store.rows(`SELECT count(*) AS n FROM ${recordTableName(BlockFees)}`)).toEqual([{ n: 8000n }]);
      expect(asked()).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('once open, writes made before the queued flush runs join its transaction', async () => {
    const connection = await openDuckDBNode();
    let transactions = 0;
    const counted = { ...connection, run: (sql: string) => ((transactions += sql === 'BEGIN TRANSACTION' ? 1 : 0), connection.run(sql)) };
    const store = openStore(counted);
    try {
      await store.settled(); // open
      const commits = [];
      for (let slot = 1n; slot <= 20n; slot++) commits.push(store.commit(unitOf(generateBlock(slot, 1)), [], { behind: true }));
      await Promise.all(commits);
      expect(await blockCount(store)).toBe(20);
      // the first commit queues a flush; the 19 made before it runs join it: one transaction, not twenty
      expect(transactions).toBe(1);
      await store.commit(unitOf(generateBlock(21n, 1)), [], { behind: true });
      expect([await blockCount(store), transactions]).toEqual([21, 2]);
    } finally {
      await store.close();
    }
  });

  it('closing a store that never started drops what it held and never opens the database', async () => {
    const { store, asked } = gatedStore();
    await store.commit(unitOf(generateBlock(1n, 2)), [], { behind: true });
    await store.close();
    expect([store.started, asked()]).toEqual([false, 0]);
    await expect(store.transactionBlocks(0n, 10n)).rejects.toThrow(/closed/);
    await expect(store.commit(unitOf(generateBlock(2n, 1)), [], { behind: true })).rejects.toThrow(/closed/);
  });
});
