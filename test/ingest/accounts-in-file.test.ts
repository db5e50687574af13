/**
 * A load from Parquet leaves the transactions' write-locked accounts in the file (checked where
 * decoded) and reads them back when a local fee market first needs them. Against the brute-force
 * oracle of test/helpers/local-fee-oracle.ts and an engine that read them at load
 * (`accountsInFile: false`):
 *   - answers live and as of times, over row groups and chunks cut where they fall;
 *   - a chunk mixing two transactions files (read back at once), and retention cutting segments;
 *   - a bad key: the same rejected row and field as reading at load, every other row kept; a bad
 *     value of another column (the batch's lists read back for the row path) likewise;
 *   - a file whose column types send every batch to the row path: its accounts are read at load;
 *   - a file that changed after the load: the read back fails, naming the file;
 *   - a replay leaves them in the file too, unless a local fee market is streamed when it starts
 *     (its streams read every block's accounts): then they are read at once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Int64, Table, tableToIPC, vectorFromArray } from 'apache-arrow';
import { rowsToTable } from '../../src/ingest/arrow.js';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { loadParquetWasm } from '../../src/ingest/files/parquet-wasm.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import type { BlockRow, TransactionRow } from '../../src/schema/tables.js';
import { callAny } from '../helpers/call.js';
import { oracleEstimate, oracleRecent, type OracleBlock } from '../helpers/local-fee-oracle.js';
import { mulberry32 } from '../helpers/prng.js';
import { base58 } from '../helpers/reference-accounts.js';
import { wireTime } from '../oracle/format.js';

const ESTIMATE = 'chain::priorityfee::estimate';
const RECENT = 'chain::priorityfee::recent';
const NS = 1_000_000_000n;
const MIN_SAMPLES = 3;
const rand = mulberry32(0xacc0f11e);
const int = (n: number) => Math.floor(rand() * n);
const newKey = () => base58(Uint8Array.from({ length: 32 }, () => int(256)));
const HOT = [newKey(), newKey()];
const POOL = [...HOT, ...Array.from({ length: 40 }, newKey)];
const SIGNER = newKey();
const PROGRAM = newKey();

/** 90 blocks of 0-120 transactions (a few blocks empty), 6 minutes apart from 0.4 s slots: retention can cut them. */
const BLOCKS: { block: BlockRow; txs: TransactionRow[] }[] = Array.from({ length: 90 }, (_, b) => {
  const slot = 5_000n + BigInt(b);
  const timestamp = 1_760_000_000n * NS + BigInt(b) * 4n * NS;
  const n = b % 17 === 5 ? 0 : int(120);
  const txs = Array.from({ length: n }, (_, index): TransactionRow => ({
    slot, index, signature: `sig-${slot}-${index}`, signer: SIGNER, program: PROGRAM,
    is_vote: rand() < 0.1, failed: rand() < 0.05,
    compute_unit_price: BigInt(int(4) === 0 ? 0 : int(1_000_000)), compute_unit_limit: int(5) === 0 ? 0 : 200_000,
    compute_units_consumed: 1_000n, priority_fee: null,
    writable_accounts: rand() < 0.05 ? null : Array.from({ length: int(5) }, () => (rand() < 0.4 ? HOT[int(2)]! : POOL[int(POOL.length)]!)),
  }));
  return { block: { slot, timestamp, parent_slot: slot - 1n, block_height: null, leader: null, block_cu_limit: null }, txs };
});

const oracleBlocks = (drop?: { slot: bigint; index: number }): OracleBlock[] => BLOCKS.map(({ block, txs }) => ({
  slot: block.slot, timestamp: block.timestamp,
  txs: txs.filter((t) => !(drop && t.slot === drop.slot && t.index === drop.index))
    .map((t) => ({ price: t.compute_unit_price, limit: t.compute_unit_limit, vote: t.is_vote, writable: t.writable_accounts })),
}));

let dir: string;

/** Writes blocks.parquet and the transactions split as `parts` (slot ranges, one file each), row groups of 700 rows. */
async function writeDump(folder: string, parts: [number, number][] = [[0, BLOCKS.length]], edit?: (t: TransactionRow) => TransactionRow): Promise<string> {
  const path = join(dir, folder);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(path);
  const blocks = await createTableFileWriter(join(path, 'blocks.parquet'), 'parquet', 'blocks');
  await blocks.write(BLOCKS.map((b) => b.block));
  await blocks.close();
  for (const [k, [from, to]] of parts.entries()) {
    const txs = await createTableFileWriter(join(path, `transactions-${k}.parquet`), 'parquet', 'transactions', { rowGroupRows: 700 });
    await txs.write(BLOCKS.slice(from, to).flatMap((b) => b.txs).map(edit ?? ((t) => t)));
    await txs.close();
  }
  return path;
}

/** The queries each engine answers: hot and cold accounts, several lookbacks, live and as of times. */
const QUERIES = [
  { accounts: HOT },
  { accounts: [HOT[0]!, POOL[7]!, POOL[20]!], lookback_slots: 30 },
  { accounts: [POOL[3]!], lookback_slots: 150, include_vote: true },
  ...[10, 41, 77].map((b) => ({ accounts: [HOT[1]!, POOL[11]!], lookback_slots: 25, at: BLOCKS[b]!.block.timestamp })),
];

const params = (q: (typeof QUERIES)[number], method: string): Record<string, unknown> => {
  const { at, include_vote, ...rest } = q as { at?: bigint; include_vote?: boolean };
  return { ...rest, ...(at === undefined ? {} : { at: wireTime(at) }), ...(method === ESTIMATE && include_vote !== undefined ? { include_vote } : {}) };
};

const withoutIds = (records: Record<string, unknown>[]) => records.map(({ id: _id, ...rest }) => rest);

/** Every query's answers, both methods, from `engine`. */
async function answers(engine: Engine): Promise<unknown[]> {
  const out = [];
  for (const q of QUERIES) for (const method of [ESTIMATE, RECENT]) out.push(await callAny(engine, method, params(q, method)));
  return out;
}

async function loaded(path: string, options: { accountsInFile?: boolean; retain?: string } = {}) {
  const engine = await createEngine({ minSamples: MIN_SAMPLES, ...(options.retain ? { retain: options.retain } : {}) });
  const report = await engine.load(path, { accountsInFile: options.accountsInFile ?? true, batchRows: 1_000 });
  return { engine, report };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainlens-accounts-in-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('write-locked accounts left in the Parquet file', () => {
  it('answer the local fee markets as the oracle does, live and as of times, and as an engine that read them at load', async () => {
    const path = await writeDump('one');
    const lazy = await loaded(path);
    const eager = await loaded(path, { accountsInFile: false });
    try {
      expect(lazy.report.rejected).toBe(0);
      const got = await answers(lazy.engine);
      expect(got).toEqual(await answers(eager.engine));
      const oracle = oracleBlocks();
      QUERIES.forEach((q, i) => {
        const query = { accounts: q.accounts, lookback: (q as { lookback_slots?: number }).lookback_slots ?? 150, at: (q as { at?: bigint }).at };
        expect(withoutIds(got[2 * i] as never), `estimate ${i}`).toEqual(oracleEstimate(oracle, { ...query, includeVote: (q as { include_vote?: boolean }).include_vote ?? false }, MIN_SAMPLES));
        expect(withoutIds(got[2 * i + 1] as never), `recent ${i}`).toEqual(oracleRecent(oracle, query));
      });
    } finally {
      await lazy.engine.close();
      await eager.engine.close();
    }
  });

  it('a chunk mixing two transactions files, and retention cutting the segments, answer the same', async () => {
    const path = await writeDump('split', [[0, 45], [45, 90]]);
    const eager = await loaded(path, { accountsInFile: false });
    try {
      const mixed = await loaded(path);
      expect(await answers(mixed.engine)).toEqual(await answers(eager.engine));
      await mixed.engine.close();
      const cut = await loaded(path, { retain: '5m' });
      // live answers looking back over every block retention kept (it cut through a segment)
      const newest = BLOCKS.at(-1)!.block.timestamp;
      const kept = BLOCKS.filter((b) => b.block.timestamp > newest - 300n * NS && b.txs.length > 0).length;
      for (const q of QUERIES.slice(0, 3)) {
        for (const method of [ESTIMATE, RECENT]) {
          const answer = await callAny(cut.engine, method, params({ ...q, lookback_slots: kept }, method));
          expect(answer).toEqual(await callAny(eager.engine, method, params({ ...q, lookback_slots: kept }, method)));
        }
      }
      await cut.engine.close();
    } finally {
      await eager.engine.close();
    }
  });

  it('a bad key is rejected at load, naming its row and field, as when read at load; the other rows are kept', async () => {
    const bad = BLOCKS[30]!.txs[3]!;
    const path = await writeDump('bad', undefined, (t) => (t === bad ? { ...t, writable_accounts: [HOT[0]!, 'not-a-key'] } : t));
    const lazy = await loaded(path);
    const eager = await loaded(path, { accountsInFile: false });
    try {
      expect(lazy.report.rejected).toBe(1);
      expect(lazy.report.rejections).toEqual(eager.report.rejections);
      expect(lazy.report.rejections[0]).toMatchObject({ field: 'writable_accounts' });
      expect(lazy.report.rejections[0]!.source).toMatch(/transactions-0\.parquet$/);
      const got = await answers(lazy.engine);
      expect(got).toEqual(await answers(eager.engine));
      const oracle = oracleBlocks({ slot: bad.slot, index: bad.index });
      expect(withoutIds(got[0] as never)).toEqual(oracleEstimate(oracle, { accounts: HOT, lookback: 150, includeVote: false }, MIN_SAMPLES));
    } finally {
      await lazy.engine.close();
      await eager.engine.close();
    }
  });

  it('a batch that takes the row path for another column reads its lists back: the other rows keep their accounts', async () => {
    const bad = BLOCKS[50]!.txs[1]!;
    const path = await writeDump('bad-signer', undefined, (t) => (t === bad ? { ...t, signer: 'not-a-key' } : t));
    const lazy = await loaded(path);
    const eager = await loaded(path, { accountsInFile: false });
    try {
      expect(lazy.report.rejections).toEqual(eager.report.rejections);
      expect(lazy.report.rejections.map((r) => r.field)).toEqual(['signer']);
      expect(await answers(lazy.engine)).toEqual(await answers(eager.engine));
      const oracle = oracleBlocks({ slot: bad.slot, index: bad.index });
      expect(withoutIds((await answers(lazy.engine))[0] as never))
        .toEqual(oracleEstimate(oracle, { accounts: HOT, lookback: 150, includeVote: false }, MIN_SAMPLES));
    } finally {
      await lazy.engine.close();
      await eager.engine.close();
    }
  });

  it('a file whose types send every batch to the row path has its accounts read at load, not left in it', async () => {
    // `index` as Int64 (the canonical type is Uint32): every batch takes the row path, which would read each batch's lists back
    const path = await writeDump('int64-index');
    const canonical = rowsToTable('transactions', BLOCKS.flatMap((b) => b.txs));
    const columns = Object.fromEntries(canonical.schema.fields.map((f) => [f.name, canonical.getChild(f.name)!]));
    const index = vectorFromArray(BLOCKS.flatMap((b) => b.txs.map((t) => BigInt(t.index))), new Int64());
    const parquet = await loadParquetWasm();
    const wasmTable = parquet.Table.fromIPCStream(tableToIPC(new Table({ ...columns, index }), 'stream'));
    writeFileSync(join(path, 'transactions-0.parquet'), parquet.writeParquet(wasmTable));
    const { engine, report } = await loaded(path);
    const eager = await loaded(path, { accountsInFile: false });
    try {
      expect(report.rejected).toBe(0);
      writeFileSync(join(path, 'transactions-0.parquet'), 'PAR1 replaced PAR1'); // read at load: nothing to read back
      expect(await answers(engine)).toEqual(await answers(eager.engine));
    } finally {
      await engine.close();
      await eager.engine.close();
    }
  });

  it('a replay leaves them in the file unless a local fee market is streamed when it starts: the same answers either way', async () => {
    const eager = await loaded(await writeDump('replay-eager'), { accountsInFile: false });
    const replayed = async (path: string, streamed: string) => {
      const engine = await createEngine({ minSamples: MIN_SAMPLES });
      let pushes = 0;
      await engine.subscribe(streamed as never, (streamed === ESTIMATE ? { accounts: HOT } : {}) as never, () => void pushes++);
      const report = await engine.replay(path, { speed: Infinity, retain: 'all' });
      expect(report.blocks).toBe(BLOCKS.length);
      expect(pushes).toBeGreaterThan(0);
      return engine;
    };
    const path = await writeDump('replayed');
    const changed = await writeDump('replayed-changed');
    const engines = [
      await replayed(path, 'chain::priorityfee::block'), await replayed(path, ESTIMATE),
      await replayed(changed, 'chain::priorityfee::block'), await replayed(changed, ESTIMATE),
    ];
    const [inFile, atOnce, inFileChanged, atOnceChanged] = engines as [Engine, Engine, Engine, Engine];
    try {
      const expected = await answers(eager.engine);
      expect(await answers(inFile)).toEqual(expected);
      expect(await answers(atOnce)).toEqual(expected);
      // once the file has changed, only the replay that left them in it fails, reading them back
      writeFileSync(join(changed, 'transactions-0.parquet'), 'PAR1 replaced PAR1');
      const query = { accounts: HOT, lookback_slots: 150 };
      const error = await callAny(inFileChanged, ESTIMATE, query).catch((e: unknown) => e);
      expect(JSON.stringify(error)).toMatch(/transactions-0\.parquet.*changed/);
      expect(await callAny(atOnceChanged, ESTIMATE, query)).toEqual(await callAny(eager.engine, ESTIMATE, query));
    } finally {
      await Promise.all([eager.engine.close(), ...engines.map((e) => e.close())]);
    }
  });

  it('a file changed after the load: the read back fails naming it; the fee methods still answer', async () => {
    const path = await writeDump('changed');
    const { engine } = await loaded(path);
    try {
      writeFileSync(join(path, 'transactions-0.parquet'), 'PAR1 replaced PAR1');
      const error = await callAny(engine, ESTIMATE, { accounts: HOT }).catch((e: unknown) => e as { message: string; data?: unknown });
      expect(JSON.stringify(error)).toMatch(/transactions-0\.parquet.*changed/);
      expect((await callAny(engine, 'chain::priorityfee::block', { limit: 1 })).length).toBe(1);
    } finally {
      await engine.close();
    }
  });
});
